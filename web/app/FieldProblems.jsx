// FieldProblems.jsx — the engine's explanation of invalid inputs, shown next
// to the control that can fix them, with each suggested fix as a button.

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { CORE_INPUTS, DEFAULTS, canApplyFix } from './state.js';
import { shortName } from './names.js';
import { pageWords, settingWords, wherePart } from './wording.js';
import { Outside } from './Outside.jsx';

/** { problems: [{code, message, field, fix}], applyFix(fix) } for the page. */
export const ProblemsContext = createContext(/** @type {{problems: any[], applyFix: (fix: any) => void}} */ ({ problems: [], applyFix: () => {} }));

/** The fields a control of the page shows problems for (see the panels): the config and the core's inputs. */
export const CONTROL_FIELDS = new Set(['config', ...CORE_INPUTS]);

/** The short name of a parameter or config key, e.g. "global batch". */
export function fieldLabel(field) {
  return shortName(field);
}

/** "global_batch_size=1024,pp_size=2" as "global batch 1024, pp 2". */
export function fixLabel(fix) {
  return fix
    .split(',')
    .map((part) => {
      const [k, v] = part.split('=');
      return settingWords(k, v);
    })
    .join(', ');
}

/**
 * The fix a button offers for `problem`: the engine's nearest valid inputs
 * when it gives them, else, for an input the page has (a value out of
 * range, say from a link), its default; null when the page can apply
 * neither.
 */
export function fixFor(problem) {
  if (canApplyFix(problem.fix)) return problem.fix;
  const field = problem.field;
  if (!field || !(field in DEFAULTS) || !CONTROL_FIELDS.has(field)) return null;
  const fallback = `${field}=${DEFAULTS[field]}`;
  return canApplyFix(fallback) ? fallback : null;
}

/** One problem: its sentence and, when the page can apply it, the fix. */
export function Problem({ problem, applyFix }) {
  const where = wherePart(problem);
  const fix = fixFor(problem);
  return (
    <li class="problem" data-code={problem.code} data-field={problem.field}>
      <span><Outside text={pageWords(problem.message)} />{where}</span>
      {fix && (
        <button type="button" class="fix" onClick={() => applyFix(fix)}>
          Use {fixLabel(fix)}{fix === problem.fix ? '' : ' (the default)'}
        </button>
      )}
    </li>
  );
}

/**
 * The problems whose field is one of `fields`, or, with `match`, those for
 * which match(field) is true. Renders nothing when there are none.
 * @param {{fields?: string[], match?: (field: string) => boolean, id?: string}} props
 */
export function FieldProblems({ fields = [], match, id }) {
  const { problems, applyFix } = useContext(ProblemsContext);
  const mine = problems.filter((p) => (match ? match(p.field) : fields.includes(p.field)));
  if (!mine.length) return null;
  return (
    <div role="alert" id={id}>
      <ul class="problems">
        {mine.map((p, i) => <Problem key={`${p.field}-${i}`} problem={p} applyFix={applyFix} />)}
      </ul>
    </div>
  );
}
