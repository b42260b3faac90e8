// PlanGoal.jsx — how the plan's rows are ranked and which are listed: the
// goal that picks the best layout, and "OK only".

import { goalsFor } from './goals.js';

/** Props: plan (the planner's JSON), goal, okOnly, update(patch). */
export function PlanGoal({ plan, goal, okOnly, update }) {
  const layouts = plan.mode !== 'vary';
  const goals = goalsFor(plan);
  return (
    <div class="plan-goal" data-testid="plan-goal">
      {layouts && (
        <div class="field">
          <label for="plan-goal">Best means</label>
          <select id="plan-goal" data-field="plan_goal" value={goal} onChange={(e) => update({ plan_goal: e.currentTarget.value })}>
            {goals.map(([k, text]) => <option key={k} value={k}>{text}</option>)}
          </select>
        </div>
      )}
      <label class="check">
        <input type="checkbox" data-field="plan_ok_only" checked={okOnly}
          onChange={(e) => update({ plan_ok_only: e.currentTarget.checked })} />
        OK only (hide TIGHT and OOM rows)
      </label>
    </div>
  );
}
