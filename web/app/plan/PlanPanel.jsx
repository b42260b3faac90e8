// PlanPanel.jsx — the Plan tab: the question and its inputs beside the
// sweep's progress, answer, invalid counts and table of rows.

import { useMemo } from 'preact/hooks';
import { PlanForm } from './PlanForm.jsx';
import { PlanProgress } from './PlanProgress.jsx';
import { PlanAnswer } from './PlanAnswer.jsx';
import { InvalidCounts } from './InvalidCounts.jsx';
import { PlanTable } from './PlanTable.jsx';
import { PlanGoal } from './PlanGoal.jsx';
import { GOALS, bestRow, orderByGoal, plannerGoal, shownGoal, validRows } from './goals.js';
import { pageWords } from '../wording.js';

/**
 * Props: state, update(patch), gpus (engine presets), plan (usePlan),
 * requestKey (the key of today's request; '' when there is none), problem
 * (why there is no request), onLoad(row).
 */
export function PlanPanel({ state, update, gpus, plan, requestKey, problem, onLoad }) {
  const current = requestKey !== '' && plan.key === requestKey;
  const shown = plan.plan;
  // Progress re-renders the panel after every piece; the rows only change
  // with a new answer or a new order.
  const sortKey = state.plan_sort;
  const desc = state.plan_desc;
  const okOnly = state.plan_ok_only;
  // The goal the user chose (tokens/s and the routing margin only when rows
  // carry them; else the planner's own).
  const goal = shown ? shownGoal(shown, state.plan_goal) : state.plan_goal;
  // The goal's label inside a sentence: "fewest GPUs that fit", its first letter lowered only.
  const label = (GOALS.find(([k]) => k === goal) ?? GOALS[0])[1];
  const goalText = label.charAt(0).toLowerCase() + label.slice(1);
  const view = useMemo(() => {
    if (!shown) return null;
    let v = validRows(shown);
    if (v.mode !== 'vary') {
      const inNodeFirst = v.answer_by?.ep_inside_node_first === true;
      const ordered = orderByGoal(v.rows, goal, inNodeFirst);
      // The planner's own goal: its answer, as its JSON gives it.
      const answer = goal === plannerGoal(v) ? v.answer ?? null : bestRow(ordered, goal, inNodeFirst);
      v = { ...v, rows: ordered, answer };
    }
    return okOnly ? { ...v, rows: v.rows.filter((r) => r.status === 'OK') } : v;
  }, [shown, goal, okOnly]);
  const rows = useMemo(() => view && (
    <>
      {!current && <p class="stale-note">These rows are for earlier inputs.</p>}
      <PlanGoal plan={view} goal={goal} okOnly={okOnly} update={update} />
      <PlanAnswer plan={view} onLoad={onLoad} goal={goalText} />
      <InvalidCounts plan={view} />
      <PlanTable key={plan.key} plan={view} sortKey={sortKey} desc={desc} stale={!current}
        onSort={(key, d) => update({ plan_sort: key, plan_desc: d })} onLoad={onLoad} />
    </>
  ), [view, current, sortKey, desc, plan.key, onLoad, update, goal, goalText, okOnly]);
  return (
    <div class="planner-body">
      <PlanForm state={state} update={update} gpus={gpus} />
      <section class="plan-results" aria-labelledby="plan-results-title" data-testid="plan-results"
        aria-busy={plan.running ? 'true' : 'false'} data-current={current ? 'true' : 'false'}
        data-ms={current && plan.ms !== null ? Math.round(plan.ms) : undefined}>
        <h2 id="plan-results-title">{state.plan_question === 'layouts' ? 'Layouts' : 'Values tried'}</h2>
        {problem && <p class="local-problem" role="alert">{problem}</p>}
        <PlanProgress plan={plan} current={current} waiting={!problem && requestKey !== ''} />
        {plan.error && current && <p class="problem" role="alert" data-testid="plan-error">{pageWords(plan.error.message)}</p>}
        {rows}
      </section>
    </div>
  );
}
