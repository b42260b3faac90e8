// PlanProgress.jsx — where the sweep is: a progress bar and Stop while it
// runs, "stopped" with Run again after a stop, the time it took once done.

import { count } from '../format.js';

/**
 * Props: plan (usePlan), current (the answer on screen is for today's
 * inputs), waiting (there is a request but no engine yet).
 */
export function PlanProgress({ plan, current, waiting }) {
  const { running, progress, stopped } = plan;
  let body = null;
  if (running) {
    const { done = 0, total = 0, rows = 0 } = progress ?? {};
    body = (
      <>
        <progress max={Math.max(total, 1)} value={done} aria-label="Sweep progress" />
        <span>{total ? `Estimating: ${done} of ${total} pieces, ${count(rows)} rows so far…` : 'Starting the sweep…'}</span>
        <button type="button" onClick={plan.stop} data-testid="plan-stop">Stop</button>
      </>
    );
  } else if (stopped) {
    body = (
      <>
        <span>Stopped before the end.</span>
        <button type="button" onClick={plan.rerun}>Run again</button>
      </>
    );
  } else if (plan.plan && current) {
    body = <span>{count(plan.plan.rows.length)} rows from {count(plan.plan.tried)} combinations in {(plan.ms / 1000).toFixed(2)} s.</span>;
  } else if (!plan.plan && !plan.error && waiting) {
    body = <span>Starting the engine…</span>;
  }
  return <div class="plan-progress" role="status" data-testid="plan-progress">{body}</div>;
}
