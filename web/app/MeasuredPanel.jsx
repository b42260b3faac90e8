// MeasuredPanel.jsx — the measured run: drop the trainer's snapshot files
// (snapshot-rankNNNNN.pickle) or its log, or paste log lines; then each
// snapshot's measured peak beside the estimate of its pipeline rank, the
// top allocation sites at the measured peak and the run's fragmentation,
// with a button that uses it. Everything stays in this browser.

import { useState } from 'preact/hooks';
import { gib, mem, percent } from './format.js';
import { fragmentationInput, largest } from './measured.js';
import { memo } from './memo.js';

function Sites({ snap }) {
  if (!snap.data.sites.length) return null;
  return (
    <div class="measured-sites">
      <h3>Top allocation sites at the measured peak ({snap.name})</h3>
      <table data-testid="measured-sites">
        <thead><tr><th scope="col">Live at the peak</th><th scope="col">Allocations</th><th scope="col">Site</th></tr></thead>
        <tbody>
          {snap.data.sites.map((s) => (
            <tr key={s.site}><td>{mem(s.bytes)}</td><td>{s.count}</td><td><code>{s.site}</code></td></tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>Largest allocations</summary>
        <ul class="measured-top">
          {snap.data.top.map((a) => (
            <li key={a.address}>
              {mem(a.bytes)} {a.before_recording ? '(before the window)' : ''} <code>{a.frames.join(' < ') || 'no frames recorded'}</code>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

/**
 * Props: measured (useMeasured), ranks (the estimate's result ranks, or
 * null: only runs shown need them), fragmentation (the estimate's input),
 * update(patch).
 */
function MeasuredPanelView({ measured, ranks, fragmentation, update }) {
  const [text, setText] = useState('');
  const [over, setOver] = useState(false);
  const { snapshots, log, problems, busy } = measured;
  const byRank = new Map((ranks ?? []).map((r) => [r.pp_rank, r]));
  const top = largest(snapshots);
  const frag = top ? fragmentationInput(top.data) : null;
  const onDrop = (e) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer?.files?.length) measured.addFiles([...e.dataTransfer.files]);
  };
  return (
    <section class="measured chart" aria-labelledby="measured-title" data-testid="measured">
      <h2 id="measured-title">Measured run</h2>
      <div class={`drop-zone${over ? ' drop-over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)} onDrop={onDrop}>
        <p>
          Drop the trainer’s <code>snapshot-rankNNNNN.pickle</code> files (written with
          {' '}<code>training.memory_profile_start=N</code>, <code>memory_profile_stop=N+1</code>) or its log here, or
          {' '}<label class="file-pick">choose files<input type="file" multiple data-testid="measured-files"
            onChange={(e) => { measured.addFiles([...e.currentTarget.files]); e.currentTarget.value = ''; }} /></label>.
        </p>
        <label class="paste-log">
          Or paste log lines with <code>peak-gpu-memory X GB</code>:
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
      {problems.map((p) => <p key={p.source + p.message} class="notice notice-error" role="alert">{p.source}: {p.message}</p>)}
      {snapshots.length > 0 && (
        <table data-testid="measured-ranks">
          <caption>Measured (max_memory_allocated over the recorded step) against the estimate’s tensors</caption>
          <thead><tr><th scope="col">Snapshot</th><th scope="col">Global rank</th><th scope="col">PP rank</th><th scope="col">Measured</th><th scope="col">Estimated</th><th scope="col">Error</th><th scope="col" /></tr></thead>
          <tbody>
            {snapshots.map((s) => {
              const est = byRank.get(s.ppRank)?.tensor_peak_bytes;
              const meas = s.data.peak_allocated_bytes;
              return (
                <tr key={s.name}>
                  <th scope="row">{s.name}</th><td>{s.rank >= 0 ? s.rank : '?'}</td><td>{s.ppRank >= 0 ? s.ppRank : '?'}</td>
                  <td>{gib(meas)}</td><td>{est ? gib(est) : '—'}</td>
                  <td>{est && meas ? `${est >= meas ? '+' : ''}${(((est - meas) / meas) * 100).toFixed(1)}%` : '—'}</td>
                  <td><button type="button" class="link-button" onClick={() => measured.remove(s.name)}>Remove</button></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {log && (
        <p data-testid="measured-log-summary">
          Log ({log.source}): {log.steps.length} step{log.steps.length === 1 ? '' : 's'} read ({log.first_step}–{log.last_step});
          compared: {log.compared}, {log.steady_gib.toFixed(2)} GiB (largest {log.max_gib.toFixed(2)} GiB at step {log.max_step}).
          The trainer logs the largest over every rank.
        </p>
      )}
      {log && (log.refused_count > 0 || log.restart_count > 0) && (
        <ul class="measured-log-notes" data-testid="measured-log-notes">
          {log.refused.map((r) => <li key={`r${r.line}`}>Not compared: {r.text}</li>)}
          {log.refused_count > log.refused.length && <li>and {log.refused_count - log.refused.length} more readings not compared</li>}
          {log.restarts.map((r) => <li key={`s${r.line}`}>Line {r.line}: step {r.step} after step {r.after}, a new run; its first step is left out.</li>)}
        </ul>
      )}
      {top && (
        <p class="measured-frag" data-testid="measured-frag">
          Your run’s fragmentation is {percent(top.data.fragmentation)}: {gib(top.data.peak_reserved_bytes)} reserved at most
          {' '}against {gib(top.data.peak_allocated_bytes)} allocated at the peak ({top.name}).{' '}
          {frag !== fragmentation && (
            <button type="button" onClick={() => update({ fragmentation: frag })} data-testid="use-fragmentation">
              Use {percent(frag)} fragmentation
            </button>
          )}
        </p>
      )}
      {top && <Sites snap={top} />}
    </section>
  );
}

/** Renders again only when one of its props changes (memo). */
export const MeasuredPanel = memo(MeasuredPanelView);
