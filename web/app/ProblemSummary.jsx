// ProblemSummary.jsx — at the top of the results, the list of what is wrong
// with the inputs, each with a button that moves focus to its control (on
// a narrow screen the controls are far above).

import { pageWords } from './wording.js';
import { CONTROL_FIELDS, fieldLabel } from './FieldProblems.jsx';
import { Outside } from './Outside.jsx';

/** Focuses the control of parameter `field` (the config editor for config keys). */
export function focusField(field) {
  const name = CONTROL_FIELDS.has(field) ? field : 'config';
  const host = document.querySelector(`[data-field="${name}"]`);
  if (!host) return;
  host.closest('details')?.setAttribute('open', '');
  const el = /** @type {HTMLElement | null} */ (host.matches('input, select, textarea') ? host : host.querySelector('input[type=number], input, select, textarea'));
  el?.focus();
  el?.scrollIntoView({ block: 'center' });
}

/** Props: problems (from validate). */
export function ProblemSummary({ problems }) {
  const shown = problems.filter((p) => p.field);
  if (!shown.length) return null;
  return (
    <section class="problem-summary" aria-labelledby="problem-summary-title">
      <h2 id="problem-summary-title">
        {shown.length === 1 ? 'One input needs a change' : `${shown.length} inputs need a change`}
      </h2>
      <ul>
        {shown.map((p, i) => (
          <li key={i}>
            <button type="button" class="link" onClick={() => focusField(p.field)}>{fieldLabel(p.field)}</button>
            {': '}<Outside text={pageWords(p.message)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
