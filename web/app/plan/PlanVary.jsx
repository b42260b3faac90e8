// PlanVary.jsx — a vary plan's inputs: which input to sweep, and what stays
// fixed (dp or the GPUs; whole nodes only); the rest is the calculator's.

import { Choice } from './Choice.jsx';
import { NumberField } from './NumberField.jsx';
import { MbsChoice } from './MbsChoice.jsx';
import { holds } from './requests.js';
import { VARY_INPUTS, derive } from '../state.js';
import { count, degree } from '../format.js';
import { inputLabel, shortName } from '../names.js';

/** The inputs whose answer is the largest value that fits (more of them costs memory); the others' is the smallest. */
const LARGEST = ['mbs', 'seq'];

/** Props: state, update(patch). */
export function PlanVary({ state, update }) {
  const d = derive(state);
  const v = state.plan_vary;
  const kept = ['pp', 'ep', 'cp'].filter((k) => k !== v).map((k) => `${shortName(`${k}_size`)} ${state[`${k}_size`]}`);
  if (v !== 'mbs') kept.push(`${shortName('micro_batch_size')} ${state.micro_batch_size}`);
  return (
    <fieldset class="panel">
      <legend>Vary one input</legend>
      <div class="field">
        <label for="plan-vary">Input</label>
        <select id="plan-vary" data-field="plan_vary" value={v} onChange={(e) => update({ plan_vary: e.currentTarget.value })}>
          {VARY_INPUTS.map(([k, input]) => <option key={k} value={k}>{inputLabel(input)}{LARGEST.includes(k) ? ' (largest that fits)' : ''}</option>)}
        </select>
      </div>
      <p class="help">Kept from the calculator: {kept.join(', ')}.</p>
      {holds(v) && (
        <Choice legend="Keep fixed" name="plan_hold" value={state.plan_hold} onChange={(x) => update({ plan_hold: x })}
          options={[['dp', `dp = ${degree(d.dp)} (the GPUs grow)`], ['gpus', `${count(state.total_gpus)} GPUs (dp shrinks)`]]} />
      )}
      {LARGEST.includes(v) && <p class="help">On {count(state.total_gpus)} GPUs, as in the calculator.</p>}
      {v === 'mbs' && <MbsChoice mask={state.plan_mbs} onChange={(x) => update({ plan_mbs: x })} legend="Micro batch sizes to try" />}
      {v !== 'nodes' && (
        <label class="check">
          <input type="checkbox" checked={state.plan_budget === 'nodes'}
            onChange={(e) => update({ plan_budget: e.currentTarget.checked ? 'nodes' : 'gpus' })} />
          Whole nodes of {state.gpus_per_node} GPUs only
        </label>
      )}
      {v === 'nodes' && (
        <p class="help" data-testid="nodes-note">
          More nodes add data parallelism only: pp stays {state.pp_size} (and ep {state.ep_size}, cp {state.cp_size}), so each
          GPU keeps its layers and memory falls only through sharding.{' '}
          <button type="button" class="link" onClick={() => update({ plan_vary: 'pp', plan_hold: 'dp' })}>Vary pp instead</button>
        </p>
      )}
      {v === 'nodes' && (
        <NumberField label="GPUs per node" name="gpus_per_node" value={state.gpus_per_node} onChange={(x) => update({ gpus_per_node: x })} />
      )}
    </fieldset>
  );
}
