// PlanAnswer.jsx — the plan's answer in one card: the best layout (or the
// smallest / largest value that fits), its figures, and Load.

import { gib, signedGib, percent } from '../format.js';
import { STATUS_CLASS } from '../palette.js';
import { shortName, tightPercent } from '../names.js';
import { pageWords } from '../wording.js';
import { layoutText } from './columns.js';
import { ACROSS_NODES } from './PlanTable.jsx';

/** What the planner says of its answer beside the rule, when it says more (why it differs from another question's). */
function answerNote(plan) {
  const note = plan.answer_note ?? plan.answer_by?.note;
  return typeof note === 'string' && note ? pageWords(note) : '';
}

/** Props: plan (the planner's JSON), onLoad(row), goal (what "best" means, in words). */
export function PlanAnswer({ plan, onLoad, goal = 'the most headroom' }) {
  const a = plan.answer;
  const vary = plan.mode === 'vary' ? plan.vary : null;
  if (!a) {
    return (
      <p class="plan-answer-card none" data-testid="plan-answer">
        {vary ? `No ${shortName(vary)} tried fits with at least ${tightPercent()}% of the GPU free.` : 'No valid layout fits for these inputs.'}
      </p>
    );
  }
  const cls = STATUS_CLASS[a.status] ?? 'ok';
  const title = vary ? `Answer (${pageWords(plan.answer_rule)}): ${shortName(vary)} ${a[vary]}` : `Best layout (${goal})`;
  const note = answerNote(plan);
  return (
    <section class={`plan-answer-card status-${cls}`} aria-labelledby="plan-answer-title" data-testid="plan-answer"
      data-value={vary ? a[vary] : undefined} data-peak={a.peak_bytes}>
      <h3 id="plan-answer-title">{title}</h3>
      <p>
        <strong>{layoutText(a)}</strong>: peak {gib(a.peak_bytes)} <span class={`badge badge-${cls}`}>{a.status}</span>,
        headroom {signedGib(a.headroom_bytes)}, bubble {percent(a.bubble_fraction, 2)}.
      </p>
      {a.ep_across_nodes === true && <p class="help">Its {ACROSS_NODES}.</p>}
      {note && <p class="help" data-testid="plan-answer-note">{note}</p>}
      <button type="button" onClick={() => onLoad(a)} data-testid="plan-answer-load">Load into the calculator</button>
    </section>
  );
}
