// wording.js — the engine's messages in the page's own terms: the CLI's
// flags (--total-gpus), the inputs' snake_case names (micro_batch_size) and
// the limits' names (MEMEST_MAX_GPUS) become what the controls say (total
// GPUs, micro batch, 16384), products read with a middle dot, and a config
// position is said once. The words are names.js's, from the engine.

import { flagShortName, inputNamePattern, limitValue, shortName } from './names.js';

/** Flags of the CLI that are not inputs, as the page speaks of them. */
const OTHER_FLAGS = { '--list-models': 'the model list', '--list-gpus': 'the GPU list' };

/**
 * Values a control names in words: the shown rank's -1 is the rank
 * control's "Worst rank" (the CLI keeps the number); an empty efficiency
 * text is none.
 */
const VALUE_WORDS = { pp_rank: { '-1': 'Worst rank' }, efficiency: { '': 'no efficiency overrides' } };

/** Value `value` of input `field` as its control names it ("Worst rank" for pp_rank -1), else null. */
export function valueWords(field, value) {
  return VALUE_WORDS[field]?.[String(value).trim()] ?? null;
}

/** "pp_rank=-1" (an input and a value) as the page says it: "Worst rank", "pp 2". */
export function settingWords(field, value) {
  return valueWords(field, value) ?? `${shortName(field)} ${value ?? ''}`.trim();
}

/** `message` in the page's words. */
export function pageWords(message) {
  if (!message) return '';
  return String(message)
    // The shown rank's -1, with its flag or in the rank's message, is the control's "Worst rank".
    .replace(/--pp-rank -1\b/g, () => valueWords('pp_rank', -1))
    .replace(/, or -1 for every rank\b/g, () => `, or ${valueWords('pp_rank', -1)}`)
    .replace(/--[a-z0-9]+(?:-[a-z0-9]+)*/g, (flag) => flagShortName(flag) ?? OTHER_FLAGS[flag] ?? flag)
    .replace(/\bMEMEST_MAX_[A-Z_]+(?: = (\d+))?/g, (m, given) => given ?? String(limitValue(m) ?? 'its limit'))
    .replace(inputNamePattern(), (n) => shortName(n))
    // A product of names or numbers: "pp*cp*ep", "2*cp", "micro batch*dp*ep".
    .replace(/(\w)\*(?=\w)/g, '$1·');
}

/** " (line 25, column 2)" for a problem whose message does not say where already. */
export function wherePart(problem) {
  if (!problem?.line) return '';
  if (new RegExp(`line ${problem.line}\\b`).test(problem.message ?? '')) return '';
  return ` (line ${problem.line}, column ${problem.column})`;
}
