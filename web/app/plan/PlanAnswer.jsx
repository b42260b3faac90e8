// PlanAnswer.jsx — the plan's answer in one card: the best layout (or the
// smallest / largest value that fits), its figures, and Load.

import { gib, signedGib, percent } from '../format.js';
import { STATUS_CLASS } from '../palette.js';
import { tightPercent } from '../names.js';
import { layoutText } from './columns.js';

const NAMES = {
  pp_size: 'pp', ep_size: 'ep', cp_size: 'cp', dp: 'dp', total_gpus: 'GPUs', nodes: 'nodes',
  micro_batch_size: 'micro batch', sequence_length: 'sequence length', global_batch_size: 'global batch',
};

/** Props: plan (the planner's JSON), onLoad(row), goal (what "best" means, in words). */
export function PlanAnswer({ plan, onLoad, goal = 'the most headroom' }) {
  const a = plan.answer;
  const vary = plan.mode === 'vary' ? plan.vary : null;
  if (!a) {
    return (
      <p class="plan-answer-card none" data-testid="plan-answer">
        {vary ? `No ${NAMES[vary] ?? vary} tried fits with at least ${tightPercent()}% of the GPU free.` : 'No valid layout fits for these inputs.'}
      </p>
    );
  }
  const cls = STATUS_CLASS[a.status] ?? 'ok';
  const title = vary ? `Answer (${plan.answer_rule}): ${NAMES[vary] ?? vary} ${a[vary]}` : `Best layout (${goal})`;
  return (
    <section class={`plan-answer-card status-${cls}`} aria-labelledby="plan-answer-title" data-testid="plan-answer"
      data-value={vary ? a[vary] : undefined} data-peak={a.peak_bytes}>
      <h3 id="plan-answer-title">{title}</h3>
      <p>
        <strong>{layoutText(a)}</strong>: peak {gib(a.peak_bytes)} <span class={`badge badge-${cls}`}>{a.status}</span>,
        headroom {signedGib(a.headroom_bytes)}, bubble {percent(a.bubble_fraction, 2)}.
      </p>
      <button type="button" onClick={() => onLoad(a)} data-testid="plan-answer-load">Load into the calculator</button>
    </section>
  );
}
