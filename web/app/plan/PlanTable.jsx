// PlanTable.jsx — a plan's rows as a sortable table: each row's number and
// a button that loads it into the calculator, its status (coloured, and
// marked where its expert parallelism spans nodes), peak, layout,
// tokens/s and MFU (with a GPU kind), headroom, bubble and routing margin,
// the answer marked. It fits 1,280 px
// whole; on a narrow screen the number with Load, the status and the peak
// stay in view while the rest scrolls (style.css). Long plans show their
// first rows until asked for all.

import { useMemo, useState } from 'preact/hooks';
import { SortHeader } from './SortHeader.jsx';
import { cellText, layoutText, planColumns, sortRows } from './columns.js';
import { STATUS_CLASS } from '../palette.js';
import { count } from '../format.js';
import { pageWords } from '../wording.js';

/** The columns that stay in view while the table scrolls sideways, and their class. */
const STICKY = { rank: 'col-rank', status: 'col-status', peak_bytes: 'col-peak' };

/** Rows shown before "Show all". */
export const FIRST_ROWS = 100;

/** The index of `answer` among `rows` (-1: none). */
function answerIndex(rows, answer) {
  if (!answer) return -1;
  return rows.findIndex((r) => Object.keys(answer).every((k) => Object.is(r[k], answer[k])));
}

/** What the mark on a row whose expert parallelism spans nodes says. */
export const ACROSS_NODES = 'expert parallelism spans nodes: the trainer’s all-to-all crosses the network, so it ranks after the layouts that keep it inside a node';

function Cell({ row, col }) {
  if (col.key === 'status') {
    const cls = STATUS_CLASS[row.status] ?? 'invalid';
    return (
      <td class="col-status">
        <span class={`badge badge-${cls}`} title={row.message ? pageWords(row.message) : undefined}>{row.status}</span>
        {row.ep_across_nodes === true && <span class="across-nodes" title={ACROSS_NODES} data-testid="across-nodes"> across nodes</span>}
      </td>
    );
  }
  return <td class={col.key === 'peak_bytes' ? 'num col-peak' : 'num'}>{cellText(row, col.key)}</td>;
}

/**
 * Props: plan (the planner's JSON), sortKey, desc, onSort(key, desc),
 * onLoad(row), stale (the inputs changed since).
 */
export function PlanTable({ plan, sortKey, desc, onSort, onLoad, stale }) {
  const [all, setAll] = useState(false);
  const cols = useMemo(() => planColumns(plan), [plan]);
  const sorted = useMemo(() => sortRows(plan.rows, sortKey, desc), [plan, sortKey, desc]);
  const best = useMemo(() => answerIndex(plan.rows, plan.answer) + 1, [plan]);
  const vary = plan.mode === 'vary';
  const why = vary && plan.rows.some((r) => r.status === 'INVALID');
  const across = plan.rows.some((r) => r.ep_across_nodes === true);
  const shown = all ? sorted : sorted.slice(0, FIRST_ROWS);
  const header = (key, label, title, first) => (
    <SortHeader key={key} label={label} title={title} active={sortKey === key} desc={desc} cls={STICKY[key]}
      onSort={() => onSort(key, sortKey === key ? !desc : first === 'desc')} />
  );
  return (
    <div class={`plan-table${stale ? ' stale' : ''}`}>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="plan-table-caption">
        <table data-testid="plan-table" data-rows={plan.rows.length}>
          <caption id="plan-table-caption">
            {vary ? `Each value tried that is valid (${count(plan.rows.length)})` : `Valid layouts (${count(plan.rows.length)}), the best first`}
          </caption>
          <thead>
            <tr>
              {header('rank', '#', "the order of the goal chosen; Load puts the row in the calculator", 'asc')}
              {cols.map((c) => header(c.key, c.label, c.title, c.first))}
              {why && <th scope="col">Why not valid</th>}
            </tr>
          </thead>
          <tbody>
            {shown.map(({ row, rank }) => (
              <tr key={rank} class={rank === best ? 'plan-answer' : undefined} data-rank={rank}
                data-status={row.status} data-peak={row.peak_bytes ?? ''} data-tokens={row.tokens_per_second ?? ''}>
                <th scope="row" class="col-rank">
                  {rank}{rank === best && <span class="answer-mark"> ★<span class="visually-hidden"> answer</span></span>}
                  {row.status !== 'INVALID' && (
                    <button type="button" class="load" onClick={() => onLoad(row)}
                      aria-label={`Load ${layoutText(row)} into the calculator`}>Load</button>
                  )}
                </th>
                {cols.map((c) => <Cell key={c.key} row={row} col={c} />)}
                {why && <td class="reason" title={row.message ? pageWords(row.message) : undefined}>{row.reason ? pageWords(row.reason) : ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {across && <p class="help" data-testid="across-nodes-legend">“across nodes”: {ACROSS_NODES}.</p>}
      {sorted.length > shown.length && (
        <button type="button" onClick={() => setAll(true)} data-testid="plan-show-all">
          Show all {count(sorted.length)} rows
        </button>
      )}
    </div>
  );
}
