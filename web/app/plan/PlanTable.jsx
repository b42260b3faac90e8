// PlanTable.jsx — a plan's rows as a sortable table: the layout, status
// (coloured), peak, headroom and bubble of each, the answer marked, and a
// button that loads a row into the calculator. Long plans show their first
// rows until asked for all.

import { useMemo, useState } from 'preact/hooks';
import { SortHeader } from './SortHeader.jsx';
import { cellText, layoutText, planColumns, sortRows } from './columns.js';
import { STATUS_CLASS } from '../palette.js';
import { count } from '../format.js';
import { pageWords } from '../wording.js';

/** Rows shown before "Show all". */
export const FIRST_ROWS = 100;

/** The index of `answer` among `rows` (-1: none). */
function answerIndex(rows, answer) {
  if (!answer) return -1;
  return rows.findIndex((r) => Object.keys(answer).every((k) => Object.is(r[k], answer[k])));
}

function Cell({ row, col }) {
  if (col.key === 'status') {
    const cls = STATUS_CLASS[row.status] ?? 'invalid';
    return <td><span class={`badge badge-${cls}`} title={row.message ? pageWords(row.message) : undefined}>{row.status}</span></td>;
  }
  return <td class="num">{cellText(row, col.key)}</td>;
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
  const shown = all ? sorted : sorted.slice(0, FIRST_ROWS);
  const header = (key, label, title, first) => (
    <SortHeader key={key} label={label} title={title} active={sortKey === key} desc={desc}
      onSort={() => onSort(key, sortKey === key ? !desc : first === 'desc')} />
  );
  return (
    <div class={`plan-table${stale ? ' stale' : ''}`}>
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="plan-table-caption">
        <table data-testid="plan-table" data-rows={plan.rows.length}>
          <caption id="plan-table-caption">
            {vary ? `Each value tried (${count(plan.rows.length)})` : `Valid layouts (${count(plan.rows.length)}), the planner's best first`}
          </caption>
          <thead>
            <tr>
              {header('rank', '#', "the planner's order", 'asc')}
              {cols.map((c) => header(c.key, c.label, c.title, c.first))}
              {why && <th scope="col">Why not valid</th>}
              <th scope="col"><span class="visually-hidden">Load into the calculator</span></th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ row, rank }) => (
              <tr key={rank} class={rank === best ? 'plan-answer' : undefined} data-rank={rank}
                data-status={row.status} data-peak={row.peak_bytes ?? ''}>
                <th scope="row">{rank}{rank === best && <span class="answer-mark"> ★<span class="visually-hidden"> answer</span></span>}</th>
                {cols.map((c) => <Cell key={c.key} row={row} col={c} />)}
                {why && <td class="reason" title={row.message ? pageWords(row.message) : undefined}>{row.reason ?? ''}</td>}
                <td>
                  {row.status !== 'INVALID' && (
                    <button type="button" class="load" onClick={() => onLoad(row)}
                      aria-label={`Load ${layoutText(row)} into the calculator`}>Load</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sorted.length > shown.length && (
        <button type="button" onClick={() => setAll(true)} data-testid="plan-show-all">
          Show all {count(sorted.length)} rows
        </button>
      )}
    </div>
  );
}
