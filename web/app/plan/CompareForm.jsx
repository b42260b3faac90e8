// CompareForm.jsx — the second configuration (B) of the Compare tab: the
// calculator's inputs (A) with any of them changed. A field left at A's
// value follows A; a changed one says what A has.

import { NumberField } from './NumberField.jsx';
import { CompareGpu } from './CompareGpu.jsx';
import { sameAsA } from './requests.js';
import { DEFAULTS } from '../state.js';
import { enumOptions, enumTitle } from '../enum-titles.js';
import { inputLabel } from '../names.js';
import { modelTitle } from '../config-name.js';

/** B's number inputs; their labels are the engine's (names.js). */
const NUMBERS = ['pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'global_batch_size', 'sequence_length'];
/** The enum inputs; their values and titles come from enumOptions(). */
const CHOICES = ['optimizer', 'sharding', 'fp8_training'];

/** The patch that gives B the value `v` for `key` (the same as A: none). */
function change(a, key, v) {
  return { [`cmp_${key}`]: Object.is(v, a[key]) ? DEFAULTS[`cmp_${key}`] : v };
}

/**
 * Props: a (the calculator's state), b (compareState), update(patch), gpus
 * and models (engine presets).
 */
export function CompareForm({ a, b, update, gpus, models = [] }) {
  const changed = (key) => !Object.is(a[key], b[key]);
  const ownModel = a.cmp_model;
  const routingOptions = enumOptions('routing');
  return (
    <form class="compare-form panel-like" aria-label="Configuration B" onSubmit={(e) => e.preventDefault()}>
      <h2>B: what changes</h2>
      <p class="help">B starts as the calculator’s configuration (A); change any input here, its model too.</p>
      <div class="compare-fields">
        <div class={`field compare-model${ownModel ? ' changed' : ''}`} data-field="cmp_model">
          <label for="cmp-model">{inputLabel('model')}</label>
          <select id="cmp-model" value={ownModel} onChange={(e) => update({ cmp_model: e.currentTarget.value === a.model && !a.config ? '' : e.currentTarget.value })}>
            <option value="">A’s: {modelTitle(a, models)}</option>
            {models.map((m) => <option key={m.name} value={m.name}>{m.title}</option>)}
          </select>
          {ownModel && <p class="help">A: {modelTitle(a, models)}</p>}
        </div>
        <div class={`field${changed('routing') ? ' changed' : ''}`} data-field="cmp_routing">
          <label for="cmp-routing">{inputLabel('routing')}</label>
          <select id="cmp-routing" value={b.routing} onChange={(e) => update(change(a, 'routing', e.currentTarget.value))}>
            {routingOptions.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
          </select>
          {changed('routing') && <p class="help">A: {enumTitle('routing', a.routing)}</p>}
        </div>
        {b.routing === 'factor' && (
          <div class={changed('routing_factor') ? 'changed' : undefined}>
            <NumberField label={inputLabel('routing_factor')} name="cmp_routing_factor" value={b.routing_factor} integer={false} min={1}
              onChange={(v) => update(change(a, 'routing_factor', v))} help={changed('routing_factor') ? `A: ${a.routing_factor}` : undefined} />
          </div>
        )}
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
