// CompareForm.jsx — the second configuration (B) of the Compare tab: the
// calculator's inputs (A) with any of them changed. A field left at A's
// value follows A; a changed one says what A has.

import { NumberField } from './NumberField.jsx';
import { CompareGpu } from './CompareGpu.jsx';
import { sameAsA } from './requests.js';
import { DEFAULTS } from '../state.js';
import { enumOptions, enumTitle } from '../enum-titles.js';
import { inputLabel } from '../names.js';

/** B's number inputs; their labels are the engine's (names.js). */
const NUMBERS = ['pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'global_batch_size', 'sequence_length'];
/** The enum inputs; their values and titles come from enumOptions(). */
const CHOICES = ['optimizer', 'sharding', 'fp8_training'];

/** The patch that gives B the value `v` for `key` (the same as A: none). */
function change(a, key, v) {
  return { [`cmp_${key}`]: Object.is(v, a[key]) ? DEFAULTS[`cmp_${key}`] : v };
}

/** Props: a (the calculator's state), b (compareState), update(patch), gpus (engine presets). */
export function CompareForm({ a, b, update, gpus }) {
  const changed = (key) => !Object.is(a[key], b[key]);
  return (
    <form class="compare-form panel-like" aria-label="Configuration B" onSubmit={(e) => e.preventDefault()}>
      <h2>B: what changes</h2>
      <p class="help">B starts as the calculator’s configuration (A); change any input here. Both use the model {a.model}.</p>
      <div class="compare-fields">
        {NUMBERS.map((key) => (
          <div key={key} class={changed(key) ? 'changed' : undefined}>
            <NumberField label={inputLabel(key)} name={`cmp_${key}`} value={b[key]} onChange={(v) => update(change(a, key, v))}
              help={changed(key) ? `A: ${a[key]}` : undefined} />
          </div>
        ))}
        <CompareGpu a={a} b={b} update={update} gpus={gpus} />
        {CHOICES.map((key) => (
          <div key={key} class={`field${changed(key) ? ' changed' : ''}`} data-field={`cmp_${key}`}>
            <label for={`cmp-${key}`}>{inputLabel(key)}</label>
            <select id={`cmp-${key}`} value={b[key]} onChange={(e) => update(change(a, key, e.currentTarget.value))}>
              {enumOptions(key).map(([v, text]) => <option key={v} value={v}>{text}</option>)}
            </select>
            {changed(key) && <p class="help">A: {enumTitle(key, a[key])}</p>}
          </div>
        ))}
        {/** @type {[string, number][]} */ ([['ep_imbalance', 1], ['fragmentation', 0]]).map(([key, min]) => (
          <div key={key} class={changed(key) ? 'changed' : undefined}>
            <NumberField label={inputLabel(key)} name={`cmp_${key}`} value={b[key]} integer={false} min={min}
              onChange={(v) => update(change(a, key, v))} help={changed(key) ? `A: ${a[key]}` : undefined} />
          </div>
        ))}
      </div>
      <button type="button" onClick={() => update(sameAsA())}>Make B the same as A</button>
    </form>
  );
}
