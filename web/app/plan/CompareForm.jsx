// CompareForm.jsx — the second configuration (B) of the Compare tab: the
// calculator's inputs (A) with any of them changed, as the calculator's
// own fields (their labels, sliders and ranges: input-ranges.js). A field
// left at A's value follows A; a changed one says what A has. An input the
// calculator does not show (EP imbalance, which only older links set) is
// shown only while B's differs from A's, to set back.

import { SliderField } from '../SliderField.jsx';
import { inputRange } from '../input-ranges.js';
import { CompareGpu } from './CompareGpu.jsx';
import { sameAsA } from './requests.js';
import { DEFAULTS, INTERLEAVED, LAYOUT_INPUTS, OPTION_INPUTS } from '../state.js';
import { enumOptions, enumTitle } from '../enum-titles.js';
import { inputLabel } from '../names.js';
import { modelTitle } from '../config-name.js';

/** B's whole-number inputs (the layout and the batches); their labels are the engine's (names.js). */
const NUMBERS = LAYOUT_INPUTS;
/** The enum inputs but the routing (above, with its factor); their values and titles come from enumOptions(). */
const CHOICES = OPTION_INPUTS;

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
            <SliderField label={inputLabel('routing_factor')} name="cmp_routing_factor" value={b.routing_factor} {...inputRange('routing_factor')}
              onChange={(v) => update(change(a, 'routing_factor', v))} help={changed('routing_factor') ? `A: ${a.routing_factor}` : undefined} />
          </div>
        )}
        {NUMBERS.map((key) => (
          <div key={key} class={changed(key) ? 'changed' : undefined}>
            <SliderField label={inputLabel(key)} name={`cmp_${key}`} value={b[key]} {...inputRange(key)} onChange={(v) => update(change(a, key, v))}
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
        {b.schedule === INTERLEAVED && (
          <div class={changed('virtual_stages') ? 'changed' : undefined}>
            <SliderField label={inputLabel('virtual_stages')} name="cmp_virtual_stages" value={b.virtual_stages} {...inputRange('virtual_stages')}
              onChange={(v) => update(change(a, 'virtual_stages', v))}
              help={a.schedule !== INTERLEAVED ? `A: ${enumTitle('schedule', a.schedule)}, which has none` : changed('virtual_stages') ? `A: ${a.virtual_stages}` : undefined} />
          </div>
        )}
        <div class={changed('fragmentation') ? 'changed' : undefined}>
          <SliderField label={inputLabel('fragmentation')} name="cmp_fragmentation" value={b.fragmentation} {...inputRange('fragmentation')}
            onChange={(v) => update(change(a, 'fragmentation', v))} help={changed('fragmentation') ? `A: ${a.fragmentation}` : undefined} />
        </div>
        {changed('ep_imbalance') && (
          <p class="help changed" data-field="cmp_ep_imbalance">
            B’s {inputLabel('ep_imbalance')} is {String(b.ep_imbalance)} (A: {String(a.ep_imbalance)}), from the link; the calculator has no such input.{' '}
            <button type="button" class="link" onClick={() => update({ cmp_ep_imbalance: DEFAULTS.cmp_ep_imbalance })}>Use A’s</button>
          </p>
        )}
      </div>
      <button type="button" onClick={() => update(sameAsA())}>Make B the same as A</button>
    </form>
  );
}
