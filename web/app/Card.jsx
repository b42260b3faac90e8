// Card.jsx — one card of the results, and the note every card shows while
// its answer is not the one for the inputs on screen. A card names the
// answer it shows (data-answer-for: that answer's equivalent command) and,
// while the inputs on screen are other (invalid, or their estimate on its
// way), carries data-stale="true" and the note. The note and the dashed
// frame show after a moment (style.css), so that a slider's move, answered
// within a frame or two, does not flash them.

import { h } from 'preact';
import { configOf, toParams } from './state.js';
import { shortName } from './names.js';
import { enumTitle } from './enum-titles.js';

/** Inputs the note names at most; more are "…". */
const NOTE_ITEMS = 3;

/**
 * The note for an answer to `asked` (a state) shown beside the inputs
 * `now`: "For the last valid inputs: pp 4, total GPUs 32." naming the
 * inputs that differ, or '' when none does.
 */
export function staleNote(asked, now) {
  const a = toParams(asked);
  const b = toParams(now);
  /** @type {string[]} */
  const said = [];
  if (configOf(asked) !== configOf(now) || a.model !== b.model) said.push(`the model ${asked.model}`);
  for (const key of Object.keys(a)) {
    if (key === 'model' || Object.is(a[key], b[key])) continue;
    const v = a[key];
    said.push(`${shortName(key)} ${typeof v === 'string' ? enumTitle(key, v) : v}`);
  }
  for (const key of Object.keys(b)) {
    if (!(key in a) && key === 'gpu_memory_gb') said.push(`GPU ${asked.gpu}`);
  }
  if (!said.length) return '';
  const shown = said.length > NOTE_ITEMS ? [...said.slice(0, NOTE_ITEMS), '…'] : said;
  return `For the last valid inputs: ${shown.join(', ')}.`;
}

/**
 * Props: answerFor (the command of the answer shown), note (staleNote(),
 * '' when the answer is current), as ('section' by default), and the
 * section's own attributes and children.
 * @param {{answerFor: string, note: string, as?: string, class?: string, children?: any} & Record<string, any>} props
 */
export function Card({ answerFor, note, as = 'section', class: cls = '', children, ...rest }) {
  return h(as, { class: `card ${cls}`, 'data-answer-for': answerFor, 'data-stale': note ? 'true' : 'false', ...rest },
    note ? <p class="stale-note" data-testid="stale-note">{note}</p> : null, children);
}
