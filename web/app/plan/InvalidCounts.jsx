// InvalidCounts.jsx — what a plan tried, in counts that add up: the
// combinations tried, the valid ones (the table's rows) and those not
// valid, counted by reason (most frequent first), each with the planner's
// example message (foldInvalid).

import { count } from '../format.js';
import { pageWords } from '../wording.js';

/** Props: plan (foldInvalid()'s). */
export function InvalidCounts({ plan }) {
  const entries = Object.entries(plan.invalid ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return (
    <section class="invalid-counts" aria-labelledby="invalid-title" data-testid="invalid-counts"
      data-tried={plan.tried} data-valid={plan.valid} data-invalid={plan.invalidTotal}>
      <h3 id="invalid-title">
        {count(plan.tried)} combination{plan.tried === 1 ? '' : 's'} tried: {count(plan.valid)} valid
        {plan.invalidTotal > 0 ? `, ${count(plan.invalidTotal)} not valid` : ''}
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
