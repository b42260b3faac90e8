// InvalidCounts.jsx — what a plan tried, in the planner's own counts, which
// add up (`counts`: tried = valid + not valid, valid = OK + TIGHT + OOM):
// the combinations tried, the valid ones by status, and those not valid by
// reason (most frequent first), each with the planner's example message
// and the values of the varied input that had it (validRows).

import { count } from '../format.js';
import { pageWords } from '../wording.js';

/** "3 OK, 1 TIGHT, 2 OOM", leaving out a status no row has. */
function byStatus(c) {
  const parts = [[c.ok, 'OK'], [c.tight, 'TIGHT'], [c.oom, 'OOM']].filter(([n]) => n > 0).map(([n, s]) => `${count(n)} ${s}`);
  return parts.length > 1 ? ` (${parts.join(', ')})` : parts.length ? ` (all ${parts[0].split(' ')[1]})` : '';
}

/** Props: plan (validRows()'s: the planner's JSON, its table's rows valid ones). */
export function InvalidCounts({ plan }) {
  const c = plan.counts ?? { tried: 0, valid: 0, invalid: 0, ok: 0, tight: 0, oom: 0 };
  const entries = Object.entries(plan.invalid ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return (
    <section class="invalid-counts" aria-labelledby="invalid-title" data-testid="invalid-counts"
      data-tried={c.tried} data-valid={c.valid} data-invalid={c.invalid} data-ok={c.ok} data-tight={c.tight} data-oom={c.oom}>
      <h3 id="invalid-title">
        {count(c.tried)} combination{c.tried === 1 ? '' : 's'} tried: {count(c.valid)} valid{byStatus(c)}
        {c.invalid > 0 ? `, ${count(c.invalid)} not valid` : ''}
      </h3>
      {entries.length > 0 && (
        <ul>
          {entries.map(([reason, n]) => (
            <li key={reason} data-reason={reason} data-count={n}>
              <strong>{count(n)}</strong> {pageWords(reason)}
              {plan.invalid_values?.[reason] && <span class="values"> ({plan.invalid_values[reason].slice(0, 12).join(', ')}{plan.invalid_values[reason].length > 12 ? ', …' : ''})</span>}
              {plan.invalid_examples?.[reason] && <span class="example">, e.g. {pageWords(plan.invalid_examples[reason])}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
