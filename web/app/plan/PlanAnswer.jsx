// PlanAnswer.jsx — the plan's answer in one card: the best layout (or the
// smallest / largest value that fits), its figures, and Load; when nothing
// fits, says so and names the planner's closest row; over nodes, whether
// pp over whole nodes agrees, and why not (the planner's pp_over_nodes).

import { gib, signedGib, percent, rate } from '../format.js';
import { STATUS_CLASS } from '../palette.js';
import { shortName, tightPercent } from '../names.js';
import { pageWords } from '../wording.js';
import { layoutText } from './columns.js';
import { ACROSS_NODES } from './PlanTable.jsx';

/**
 * A row's figures: "pp 2, ep 8, …: peak 70.1 GiB OK, headroom +9.2 GiB,
 * bubble 1.2%, 217,434 tokens/s (MFU 15.9%)." (tokens/s when the row has them).
 */
function RowFigures({ row }) {
  const cls = STATUS_CLASS[row.status] ?? 'ok';
  const timed = typeof row.tokens_per_second === 'number';
  return (
    <p>
      <strong>{layoutText(row)}</strong>: peak {gib(row.peak_bytes)} <span class={`badge badge-${cls}`}>{row.status}</span>,
      headroom {signedGib(row.headroom_bytes)}, bubble {percent(row.bubble_fraction, 2)}
      {timed && <span data-testid="plan-answer-tokens">, {rate(row.tokens_per_second)} tokens/s (MFU {percent(row.mfu)})</span>}.
    </p>
  );
}

/**
 * Over nodes, the planner's pp_over_nodes: the same question asked of pp
 * over whole nodes at its dp. Agreeing, one line; not, why (in the answer).
 */
function OverNodes({ plan }) {
  const o = plan.pp_over_nodes;
  if (!o || typeof o !== 'object') return null;
  if (o.agrees === true) {
    return <p class="help" data-testid="plan-answer-note" data-agrees="true">Varying pp over whole nodes (dp {o.dp}) gives the same answer.</p>;
  }
  const other = o.answer ? ` It answers ${shortName('pp_size')} ${o.answer.pp_size} (${o.answer.nodes ?? '?'} nodes).` : '';
  return (
    <p class="help" data-testid="plan-answer-note" data-agrees="false">
      Varying pp over whole nodes (dp {o.dp}) answers otherwise: {pageWords(o.why)}.{other}
    </p>
  );
}

/** Props: plan (the planner's JSON), onLoad(row), goal (what "best" means, in words). */
export function PlanAnswer({ plan, onLoad, goal = 'the most headroom' }) {
  const a = plan.answer;
  const vary = plan.mode === 'vary' ? plan.vary : null;
  if (!a) {
    const c = plan.closest;
    return (
      <section class="plan-answer-card none" aria-labelledby="plan-answer-title" data-testid="plan-answer" data-answer="none">
        <h3 id="plan-answer-title">
          {vary ? `No ${shortName(vary)} tried fits with at least ${tightPercent()}% of the GPU free.` : 'No valid layout fits for these inputs.'}
        </h3>
        {c ? (
          <div data-testid="plan-closest" data-peak={c.peak_bytes}>
            <p>The closest, with the most headroom:</p>
            <RowFigures row={c} />
            <button type="button" onClick={() => onLoad(c)} data-testid="plan-closest-load">Load the closest into the calculator</button>
          </div>
        ) : <p class="help">No combination tried could be estimated.</p>}
        <OverNodes plan={plan} />
      </section>
    );
  }
  const cls = STATUS_CLASS[a.status] ?? 'ok';
  const title = vary ? `Answer (${pageWords(plan.answer_rule)}): ${shortName(vary)} ${a[vary]}` : `Best layout (${goal})`;
  return (
    <section class={`plan-answer-card status-${cls}`} aria-labelledby="plan-answer-title" data-testid="plan-answer"
      data-value={vary ? a[vary] : undefined} data-peak={a.peak_bytes}>
      <h3 id="plan-answer-title">{title}</h3>
      <RowFigures row={a} />
      {a.ep_across_nodes === true && <p class="help">Its {ACROSS_NODES}.</p>}
      <OverNodes plan={plan} />
      <button type="button" onClick={() => onLoad(a)} data-testid="plan-answer-load">Load into the calculator</button>
    </section>
  );
}
