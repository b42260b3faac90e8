// PlanBudget.jsx — the GPU budget of a layouts plan: total GPUs, or nodes
// × GPUs per node.

import { Choice } from './Choice.jsx';
import { NumberField } from './NumberField.jsx';

const BUDGETS = [['gpus', 'Total GPUs'], ['nodes', 'Nodes × GPUs per node']];

/** Props: state, update(patch). */
export function PlanBudget({ state, update }) {
  return (
    <fieldset class="panel">
      <legend>GPU budget</legend>
      <Choice legend="Count GPUs as" name="plan_budget" value={state.plan_budget} options={BUDGETS}
        onChange={(v) => update({ plan_budget: v })} />
      {state.plan_budget === 'gpus'
        ? <NumberField label="Total GPUs" name="plan_total_gpus" value={state.plan_total_gpus} onChange={(v) => update({ plan_total_gpus: v })} />
        : (
          <div class="row">
            <NumberField label="Nodes" name="plan_nodes" value={state.plan_nodes} onChange={(v) => update({ plan_nodes: v })} />
            <NumberField label="GPUs per node" name="gpus_per_node" value={state.gpus_per_node} onChange={(v) => update({ gpus_per_node: v })} />
          </div>
        )}
    </fieldset>
  );
}
