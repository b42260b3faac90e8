// PlanForm.jsx — the Plan tab's question and its inputs: a GPU budget and
// pins for "best layouts", or the input to vary and what stays fixed for
// "smallest value that fits". The rest comes from the calculator.

import { Choice } from './Choice.jsx';
import { PlanBudget } from './PlanBudget.jsx';
import { PlanPins } from './PlanPins.jsx';
import { PlanVary } from './PlanVary.jsx';
import { FixedInputs } from './FixedInputs.jsx';

const QUESTIONS = [['layouts', 'Best layouts for a GPU budget'], ['vary', 'Smallest value that fits']];

/** Props: state, update(patch), gpus (engine presets). */
export function PlanForm({ state, update, gpus }) {
  return (
    <form class="plan-form" aria-label="Plan inputs" onSubmit={(e) => e.preventDefault()}>
      <Choice legend="Question" name="plan_question" value={state.plan_question} options={QUESTIONS}
        onChange={(v) => update({ plan_question: v })} />
      {state.plan_question === 'layouts'
        ? <><PlanBudget state={state} update={update} /><PlanPins state={state} update={update} /></>
        : <PlanVary state={state} update={update} />}
      <FixedInputs state={state} gpus={gpus} onEdit={() => update({ view: 'calculator' })} />
    </form>
  );
}
