// PlanPins.jsx — the pins of a layouts plan: pp, ep, cp and dp (empty: every
// valid value) and the micro batch sizes to try.

import { NumberField } from './NumberField.jsx';
import { MbsChoice } from './MbsChoice.jsx';

/** Props: state, update(patch). */
export function PlanPins({ state, update }) {
  const pin = (key, label) => (
    <NumberField label={label} name={key} value={state[key]} blank={0} placeholder="all" onChange={(v) => update({ [key]: v })} />
  );
  return (
    <fieldset class="panel">
      <legend>Pins</legend>
      <p class="help">Leave a box empty to try every valid value.</p>
      <div class="pins">
        {pin('plan_pp', 'pp')}
        {pin('plan_ep', 'ep')}
        {pin('plan_cp', 'cp')}
        {pin('plan_dp', 'dp')}
      </div>
      <MbsChoice mask={state.plan_mbs} onChange={(v) => update({ plan_mbs: v })} />
    </fieldset>
  );
}
