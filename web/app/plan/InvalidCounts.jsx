// InvalidCounts.jsx — the combinations a plan dropped, counted by reason
// (most frequent first), each with the planner's example message.

import { count } from '../format.js';
import { pageWords } from '../wording.js';

/** Props: plan (the planner's JSON). */
export function InvalidCounts({ plan }) {
  const entries = Object.entries(plan.invalid ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (!entries.length) return null;
  const total = entries.reduce((s, [, n]) => s + n, 0);
  return (
    <section class="invalid-counts" aria-labelledby="invalid-title" data-testid="invalid-counts">
      <h3 id="invalid-title">Not valid: {count(total)} of {count(plan.tried)} combinations</h3>
      <ul>
        {entries.map(([reason, n]) => (
          <li key={reason} data-reason={reason} data-count={n}>
            <strong>{count(n)}</strong> {reason}
            {plan.invalid_values?.[reason] && <span class="values"> ({plan.invalid_values[reason].slice(0, 12).join(', ')}{plan.invalid_values[reason].length > 12 ? ', …' : ''})</span>}
            {plan.invalid_examples?.[reason] && <span class="example">, e.g. {pageWords(plan.invalid_examples[reason])}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
