// MeasuredPanel.jsx — the measured run: drop the trainer's snapshot files
// (snapshot-rankNNNNN.pickle) or its log on its own drop zone, or paste log
// lines; then each snapshot's allocated peak against the estimate's
// tensors of its pipeline rank and the log's figure against the worst
// rank's, with the error signed (+: memest estimates more), a log's step
// time and tokens/s against the estimate's (MeasuredTime.jsx), the top
// allocation sites at the measured peak, and the run's fragmentation, with
// a button that uses it when it can be real. Everything stays in this
// browser.

import { useState } from 'preact/hooks';
import { count, gib, mem, percent, signedPercent } from './format.js';
import { fragmentationInput, largest, launchDifferences } from './measured.js';
import { applyRun } from './trainer-files.js';
import { shortName } from './names.js';
import { Card } from './Card.jsx';
import { Outside } from './Outside.jsx';
import { MeasuredTime } from './MeasuredTime.jsx';

/**
 * Where the log's own launch line describes another run than the
 * calculator's: which inputs differ, and a button that fills the
 * calculator with the log's. Nothing when they are alike.
 */
function OtherRun({ launch, state, update }) {
  if (!launch || !state) return null;
  const { patch } = applyRun(launch.answer, launch.texts, state);
  const diff = launchDifferences(patch, state);
  if (!diff.length) return null;
  const shown = (v) => (typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v));
  return (
    <div class="notice notice-info measured-other-run" role="status" data-testid="measured-other-run">
      <p>
        The log’s launch line describes another run than the calculator’s, so its figures compare unlike runs.
        It differs in {diff.length === 1 ? 'one input' : `${diff.length} inputs`}:
      </p>
      <ul data-testid="measured-differences">
        {diff.map((d) => (
          <li key={d.field} data-field={d.field}>
            {shortName(d.field)}: the log’s <strong><Outside text={shown(d.log)} /></strong>, the calculator’s <Outside text={shown(d.page)} />
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => update({ ...patch })} data-testid="use-log-inputs">Use the log’s inputs</button>
    </div>
  );
}

function Sites({ snap }) {
  if (!snap.data.sites.length) return null;
  return (
    <div class="measured-sites">
      <h3>Top allocation sites at the measured peak (<Outside text={snap.name} />)</h3>
      <table data-testid="measured-sites">
        <thead><tr><th scope="col">Live at the peak</th><th scope="col">Allocations</th><th scope="col">Site</th></tr></thead>
        <tbody>
          {snap.data.sites.map((s) => (
            <tr key={s.site}><td>{mem(s.bytes)}</td><td>{s.count}</td><td><code><Outside text={s.site} /></code></td></tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>Largest allocations</summary>
        <ul class="measured-top">
          {snap.data.top.map((a) => (
            <li key={a.address}>
              {mem(a.bytes)} {a.before_recording ? '(before the window)' : ''} <code><Outside text={a.frames.join(' < ') || 'no frames recorded'} /></code>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

/** (estimated − measured) / measured, signed: + when memest estimates more. */
export function errorText(estimated, measured) {
  return estimated > 0 && measured > 0 ? signedPercent((estimated - measured) / measured) : '—';
}

/** "one step read (step 3)", "12 steps read (3–14)": what the log gave. */
export function stepsText(log) {
  const n = log.steps.length;
  if (n === 1) return `one step read (step ${log.first_step})`;
  return `${count(n)} steps read (${log.first_step}–${log.last_step})`;
}

/**
 * Whether a snapshot's fragmentation can be real: it has segments, and its
 * reserved peak is at least its allocated peak. Only then is it offered
 * as the estimate's input.
 */
export function fragmentationReal(snap) {
  const d = snap.data;
  return d.segments > 0 && d.peak_reserved_bytes >= d.peak_allocated_bytes && Number.isFinite(d.fragmentation);
}

/**
 * The comparison of the run with the answer shown: each snapshot's
 * allocated peak against its pipeline rank's tensors, the log's figure
 * against the tensors of the worst rank, and the run's fragmentation.
 * Props: measured, ranks (the answer's ranks), tensorPeak (the tensors
 * over every rank), fragmentation (the estimate's input), update(patch),
 * answerFor (Card's: the cards read their note from StaleNote), time and
 * timeNote (the answer's step time, or null and why).
 */
function Comparison({ measured, ranks, tensorPeak, fragmentation, update, answerFor, time, timeNote }) {
  const { snapshots, log } = measured;
  const byRank = new Map((ranks ?? []).map((r) => [r.pp_rank, r]));
  const top = largest(snapshots);
  const real = top ? fragmentationReal(top) : false;
  const frag = top && real ? fragmentationInput(top.data) : null;
  return (
    <Card answerFor={answerFor} class="measured-comparison" aria-labelledby="measured-comparison-title"
      data-testid="measured-comparison">
      <h3 id="measured-comparison-title">Against the estimate</h3>
      <p class="help" data-testid="measured-like-for-like">
        Like for like: the run’s allocated bytes (<code>max_memory_allocated</code>, PyTorch’s tensors only) against the
        estimate’s tensor peak of the same pipeline rank, not the headline peak, which adds non-PyTorch memory and
        fragmentation. Error = (estimated − measured) ÷ measured: + means memest estimates more.
      </p>
      {snapshots.length > 0 && (
        <table data-testid="measured-ranks">
          <caption>Each snapshot’s allocated peak over the recorded step against the estimate’s tensors of its pipeline rank</caption>
          <thead><tr><th scope="col">Snapshot</th><th scope="col">Global rank</th><th scope="col">PP rank</th><th scope="col">Measured</th><th scope="col">Estimated tensors</th><th scope="col">Error</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
          <tbody>
            {snapshots.map((s) => {
              const est = byRank.get(s.ppRank)?.tensor_peak_bytes;
              const meas = s.data.peak_allocated_bytes;
              return (
                <tr key={s.name}>
                  <th scope="row"><Outside text={s.name} /></th><td>{s.rank >= 0 ? s.rank : '?'}</td><td>{s.ppRank >= 0 ? s.ppRank : '?'}</td>
                  <td>{gib(meas)}</td><td>{est ? gib(est) : '—'}</td>
                  <td data-testid="measured-error">{est ? errorText(est, meas) : '—'}</td>
                  <td><button type="button" class="link-button" onClick={() => measured.remove(s.name)}>Remove</button></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {log && (
        <p data-testid="measured-log-summary">
          Log (<Outside text={log.source} />): {stepsText(log)}; compared: {log.compared}, {gib(log.compared_bytes)} allocated, the
          largest over every rank (largest of all {log.max_gib.toFixed(2)} GiB at step {log.max_step}). Against the
          estimate’s tensors of the worst rank, {gib(tensorPeak)}:{' '}
          <strong data-testid="measured-log-error">{errorText(tensorPeak, log.compared_bytes)}</strong>.
        </p>
      )}
      {log && <MeasuredTime logged={log.step_time ?? null} time={time} note={timeNote} />}
      {log && (log.refused_count > 0 || log.restart_count > 0) && (
        <ul class="measured-log-notes" data-testid="measured-log-notes">
          {log.refused.map((r) => <li key={`r${r.line}`}>Not compared: <Outside text={r.text} /></li>)}
          {log.refused_count > log.refused.length && <li>and {log.refused_count - log.refused.length} more readings not compared</li>}
          {log.restarts.map((r) => <li key={`s${r.line}`}>Line {r.line}: step {r.step} after step {r.after}, a new run; its first step is left out.</li>)}
        </ul>
      )}
      {top && real && (
        <p class="measured-frag" data-testid="measured-frag">
          Your run’s fragmentation is {percent(top.data.fragmentation)}: {gib(top.data.peak_reserved_bytes)} reserved at most
          {' '}against {gib(top.data.peak_allocated_bytes)} allocated at the peak (<Outside text={top.name} />).{' '}
          {frag !== fragmentation && (
            <button type="button" onClick={() => update({ fragmentation: frag })} data-testid="use-fragmentation">
              Use {percent(frag)} fragmentation
            </button>
          )}
        </p>
      )}
      {top && !real && (
        <p class="help" data-testid="measured-frag-unknown">
          <Outside text={top.name} /> gives no fragmentation to use: {top.data.segments > 0
            ? `its reserved peak, ${gib(top.data.peak_reserved_bytes)}, is below its allocated peak, ${gib(top.data.peak_allocated_bytes)}, which a caching allocator cannot do`
            : 'it carries no segment data, so its reserved bytes are not known'}.
        </p>
      )}
    </Card>
  );
}

/**
 * The measured run: its own drop zone (what is dropped here goes to the
 * comparison only, never to the model: page-drop.js leaves it alone), the
 * files read, and the comparison with the answer shown.
 * Props: measured (useMeasured), ranks (the answer's ranks, or null),
 * tensorPeak, fragmentation (the estimate's input), update(patch),
 * answerFor (Card's: the cards read their note from StaleNote), time and
 * timeNote (the answer's step time, or null and the engine's note).
 */
export function MeasuredPanel({ measured, ranks, tensorPeak, fragmentation, update, answerFor, state = null, time = null, timeNote = '' }) {
  const [text, setText] = useState('');
  const [over, setOver] = useState(false);
  const { snapshots, log, problems, busy } = measured;
  const top = largest(snapshots);
  const onDrop = (e) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer?.files?.length) measured.addFiles([...e.dataTransfer.files]);
  };
  // The whole card is the drop zone: its title and notes too.
  return (
    <section class={`measured chart${over ? ' drop-over' : ''}`} aria-labelledby="measured-title" data-testid="measured"
      data-drop-zone="measured"
      onDragOver={(e) => { e.preventDefault(); setOver(true); }}
      onDragLeave={(e) => { if (!e.currentTarget.contains(/** @type {Node} */ (e.relatedTarget))) setOver(false); }}
      onDrop={onDrop}>
      <h2 id="measured-title">Measured run</h2>
      <div class="drop-zone">
        <p>
          Drop the trainer’s <code>snapshot-rankNNNNN.pickle</code> files (written with
          {' '}<code>training.memory_profile_start=N</code>, <code>memory_profile_stop=N+1</code>) or its log here, or
          {' '}<label class="file-pick">choose files<input type="file" multiple data-testid="measured-files"
            onChange={(e) => { measured.addFiles([...e.currentTarget.files]); e.currentTarget.value = ''; }} /></label>.
          They are compared with the estimate; they never change the model.
        </p>
        <label class="paste-log">
          Or paste log lines with <code>peak-gpu-memory X GB</code> (and <code>step-time S sec</code>):
          <textarea rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} data-testid="measured-log" />
        </label>
        <button type="button" onClick={() => measured.pasteLog(text)} disabled={!text.trim()}>Read the log lines</button>
        {(snapshots.length > 0 || log) && <button type="button" onClick={measured.clear}>Clear</button>}
      </div>
      <p class="help">
        Snapshots and logs are read in this browser and never leave it. A shared link does not carry them: whoever
        opens the link sees the estimate only.
      </p>
      {busy && <p role="status">Reading…</p>}
      {log && <OtherRun launch={measured.launch} state={state} update={update} />}
      {problems.map((p) => <p key={p.source + p.message} class="notice notice-error" role="alert"><Outside text={`${p.source}: ${p.message}`} /></p>)}
      {(snapshots.length > 0 || log) && ranks && (
        <Comparison measured={measured} ranks={ranks} tensorPeak={tensorPeak} fragmentation={fragmentation} update={update}
          answerFor={answerFor} time={time} timeNote={timeNote} />
      )}
      {top && <Sites snap={top} />}
    </section>
  );
}
