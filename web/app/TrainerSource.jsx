// TrainerSource.jsx — where the inputs came from when the trainer's files
// filled them (trainer-files.js): a panel at the top of the form (the
// files read, what could not be read, what the page kept of its own, the
// run's regime and trainer commit, the fields read and ignored), a note
// beside each input it set ("from setup.py:40") while the input still
// holds that value, and, while a dropped launch script waits for a module
// it imports, the request to drop it by name, or the choice of script when
// several were dropped.

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { Outside } from './Outside.jsx';
import { shortName } from './names.js';
import { pageWords } from './wording.js';
import { folderExample } from './trainer-files.js';

/**
 * {record, state}: the run's record (trainer-files.js applyRun) and the
 * inputs on screen, which FieldSource reads; a null record shows nothing.
 */
export const SourceContext = createContext(/** @type {{record: any, state: any}} */ ({ record: null, state: null }));

/** Whether input `field` still holds what the files set. */
function stillFromFiles(record, state, field) {
  if (!record || !state || !(field in record.applied)) return false;
  if (field === 'model') return state.model === record.applied.model && state.config === record.applied.config;
  return Object.is(state[field], record.applied[field]);
}

/**
 * Props: fields (the inputs of one control). Beside it: where the files
 * gave its value ("from setup.py:40"), while it holds that value; or why
 * a file's value for it could not be read.
 */
export function FieldSource({ fields }) {
  const { record, state } = useContext(SourceContext);
  if (!record) return null;
  const out = [];
  for (const f of fields) {
    const at = record.read?.[f];
    if (at && stillFromFiles(record, state, f)) {
      out.push(<p class="from-file" key={`${f}-from`} data-testid={`from-${f}`} data-from={at}>from <Outside text={at} /></p>);
    }
    for (const n of record.notRead.filter((x) => x.field === f)) {
      out.push(<p class="from-file not-read" key={`${f}-${n.text}`} data-testid={`not-read-${f}`}><Outside text={pageWords(n.text)} /></p>);
    }
  }
  return out.length ? <>{out}</> : null;
}

/** The regime in words, with where it was read. */
function regimeText(r) {
  if (!r) return '';
  const words = {
    benchmark: 'a benchmark run: the trainer’s force-balanced routing',
    checkpoint: 'a run that loads a checkpoint',
    'random-init': 'a run from scratch (its router skews more than a pretrained one’s)',
    'not-stated': 'not stated',
  }[r.name] ?? r.name;
  const from = r.benchmark_from || r.init_from;
  return from ? `${words} (${from})` : words;
}

/** The run's trainer commit, and the later changes to memory that apply to it. */
function TrainerCommit({ commit: c }) {
  const later = c.differences ?? [];
  return (
    <div class="help" data-testid="trainer-commit">
      <p>
        Trainer commit <code><Outside text={String(c.commit).slice(0, 12)} /></code>
        {c.from ? <> (<Outside text={c.from} />)</> : null}
        {later.length ? `: memest models ${String(c.modelled).slice(0, 7)}, and ${later.length} later change${later.length === 1 ? '' : 's'} to memory may apply to this run.` : '.'}
      </p>
      {later.length > 0 && (
        <details class="numbers">
          <summary>The changes after this commit</summary>
          <ul>{later.map((d) => <li key={d.commit}><code>{d.commit}</code> ({d.date}): <Outside text={d.change} />; before it, <Outside text={d.before} /></li>)}</ul>
        </details>
      )}
    </div>
  );
}

/**
 * Where a script's GPU count and GPU could come from: its benchmark
 * folder, named for this script when its name gives its layout
 * (folderExample), else by the folders' pattern.
 */
function keptHint(record) {
  const script = record.files[0] ?? '';
  const folder = folderExample(script, record.applied, record.applied.gpu || 'h100');
  return folder
    ? ` (the benchmark folder this script lies in, ${folder} for its layout, gives them: drop the folder)`
    : ' (a benchmark script’s folder, named for its GPU, nodes and GPUs per node, gives them: drop the folder)';
}

/**
 * Props: record (the run's, or null), waiting ({missing, script} while a
 * script waits for a module; {choices} when several scripts were dropped;
 * or null), onChoose(script), onForget().
 */
export function TrainerSource({ record, waiting, onChoose, onForget }) {
  if (!record && !waiting) return null;
  return (
    <section class="panel trainer-source" aria-labelledby="trainer-source-title" data-testid="trainer-source">
      <h2 id="trainer-source-title">From the trainer’s files</h2>
      {waiting?.missing && (
        <p class="local-problem" role="alert" data-testid="trainer-missing" data-module={waiting.missing}>
          <Outside text={waiting.script} /> imports <code>{waiting.missing}</code>: drop <strong>{waiting.missing.replace(/^\.+/, '').replace(/\./g, '/')}.py</strong> too
          (beside the script, or in the model’s folder above it); the script waits for it.
        </p>
      )}
      {waiting?.choices && (
        <div data-testid="trainer-choices">
          <p>Several launch scripts were dropped. Which one runs?</p>
          <ul class="choices">
            {waiting.choices.map((p) => (
              <li key={p}><button type="button" onClick={() => onChoose(p)}><Outside text={p} /></button></li>
            ))}
          </ul>
        </div>
      )}
      {record && (
        <>
          <p data-testid="trainer-files">
            Read {record.kind === 'wandb' ? 'from the W&B run' : record.kind === 'log' ? 'from the log’s launch line' : 'from the launch script'}:{' '}
            {record.files.map((f, i) => <span key={f}>{i > 0 ? ', ' : ''}<Outside text={f} /></span>)}.
            {' '}Each input they set says so beside it.
          </p>
          {(record.notRead.length > 0 || record.kept.length > 0) && (
            <ul class="not-read-list" data-testid="trainer-not-read">
              {record.notRead.map((n) => <li key={n.text}><Outside text={pageWords(n.text)} /></li>)}
              {record.kept.length > 0 && (
                <li data-testid="trainer-kept">The files do not say {record.kept.map((k) => shortName(k)).join(' or ')}: the page keeps its own{record.kind === 'script' ? keptHint(record) : ''}.</li>
              )}
            </ul>
          )}
          {record.warnings.map((w) => <p class="help warning" key={w}><Outside text={w} /></p>)}
          {record.notes.map((w) => <p class="help" key={w}><Outside text={w} /></p>)}
          {record.regime && <p class="help" data-testid="trainer-regime">Regime: <Outside text={regimeText(record.regime)} />.</p>}
          {record.trainerCommit && <TrainerCommit commit={record.trainerCommit} />}
          {record.ignored.length > 0 && (
            <details class="numbers">
              <summary>{record.ignored.length} field{record.ignored.length === 1 ? '' : 's'} read and ignored (they change no memory)</summary>
              <p><Outside text={record.ignored.join(', ')} /></p>
            </details>
          )}
        </>
      )}
      <button type="button" onClick={onForget} data-testid="trainer-forget">Forget these files</button>
    </section>
  );
}
