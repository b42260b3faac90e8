// CompareForm.jsx — the second configuration (B) of the Compare tab: the
// calculator's inputs (A) with any of them changed. A field left at A's
// value follows A; a changed one says what A has.

import { NumberField } from './NumberField.jsx';
import { CompareGpu } from './CompareGpu.jsx';
import { sameAsA } from './requests.js';
import { DEFAULTS } from '../state.js';
import { enumOptions, enumTitle } from '../enum-titles.js';

const NUMBERS = [
  ['pp_size', 'Pipeline parallel (pp)'], ['ep_size', 'Expert parallel (ep)'], ['cp_size', 'Context parallel (cp)'],
  ['total_gpus', 'Total GPUs'], ['micro_batch_size', 'Micro batch size'], ['global_batch_size', 'Global batch size'],
  ['sequence_length', 'Sequence length'],
];
/** The enum inputs: [name, label]; their values and titles come from enumOptions(). */
const CHOICES = [['optimizer', 'Optimizer'], ['sharding', 'Sharding'], ['fp8_training', 'FP8 training']];

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
        {NUMBERS.map(([key, label]) => (
          <div key={key} class={changed(key) ? 'changed' : undefined}>
            <NumberField label={label} name={`cmp_${key}`} value={b[key]} onChange={(v) => update(change(a, key, v))}
              help={changed(key) ? `A: ${a[key]}` : undefined} />
          </div>
        ))}
        <CompareGpu a={a} b={b} update={update} gpus={gpus} />
        {CHOICES.map(([key, label]) => (
          <div key={key} class={`field${changed(key) ? ' changed' : ''}`} data-field={`cmp_${key}`}>
            <label for={`cmp-${key}`}>{label}</label>
            <select id={`cmp-${key}`} value={b[key]} onChange={(e) => update(change(a, key, e.currentTarget.value))}>
              {enumOptions(key).map(([v, text]) => <option key={v} value={v}>{text}</option>)}
            </select>
            {changed(key) && <p class="help">A: {enumTitle(key, a[key])}</p>}
          </div>
        ))}
        {/** @type {[string, string, number][]} */ ([['ep_imbalance', 'EP imbalance', 1], ['fragmentation', 'Fragmentation', 0]]).map(([key, label, min]) => (
          <div key={key} class={changed(key) ? 'changed' : undefined}>
            <NumberField label={label} name={`cmp_${key}`} value={b[key]} integer={false} min={min}
              onChange={(v) => update(change(a, key, v))} help={changed(key) ? `A: ${a[key]}` : undefined} />
          </div>
        ))}
      </div>
      <button type="button" onClick={() => update(sameAsA())}>Make B the same as A</button>
    </form>
  );
}
