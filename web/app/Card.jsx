// Card.jsx — one card of the results, and the note every card shows while
// its answer is not the one for the inputs on screen. A card names the
// answer it shows (data-answer-for: that answer's equivalent command) and,
// while the inputs on screen are other (invalid, or their estimate on its
// way), carries data-stale="true" at once and, once that has lasted
// NOTE_DELAY_MS, the note and a dashed frame: a slider's move, answered
// within a frame or two, flips an attribute and flashes nothing.

import { createContext, h } from 'preact';
import { useContext } from 'preact/hooks';
import { configOf, toParams } from './state.js';
import { shortName } from './names.js';
import { enumTitle } from './enum-titles.js';

/** How long a card is stale before its note shows. */
export const NOTE_DELAY_MS = 300;

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
    if (key in a) continue;
    if (key === 'gpu_memory_gb') said.push(`GPU ${asked.gpu}`);
    // An empty text is not given (toParams): the answer had none.
    else if (asked[key] === '') said.push(`${shortName(key)} none`);
  }
  if (!said.length) return '';
  const shown = said.length > NOTE_ITEMS ? [...said.slice(0, NOTE_ITEMS), '…'] : said;
  return `For the last valid inputs: ${shown.join(', ')}.`;
}

/**
 * The note of the answer on screen against the inputs on screen (staleNote:
 * '' when they are its own), which every card reads, and whether it has
 * lasted long enough to show, and whether an estimate is on its way:
 * {note, shown, pending}. The cards take it from here
 * rather than as a prop, so that an input's render, which changes the
 * note alone, renders the cards' frames and not their bodies.
 */
export const StaleNote = createContext({ note: '', shown: false, pending: false });

/**
 * Props: answerFor (the command of the answer shown), note (to override
 * StaleNote's: '' for a card that is current whatever the inputs), as
 * ('section' by default), and the element's own attributes and children.
 * @param {{answerFor: string, note?: string, as?: string, class?: string, children?: any} & Record<string, any>} props
 */
export function Card({ answerFor, note, as = 'section', class: cls = '', children, ...rest }) {
  const shared = useContext(StaleNote);
  const text = note ?? shared.note;
  const shown = note === undefined ? shared.shown : text !== '';
  const noted = text !== '' && shown;
  return h(as, { class: `card${cls ? ` ${cls}` : ''}${noted ? ' stale-shown' : ''}`, 'data-answer-for': answerFor, 'data-stale': text ? 'true' : 'false', ...rest },
    noted ? <p class="stale-note" data-testid="stale-note">{text}</p> : null, children);
}

/**
 * The results' frame: data-stale as the cards have it, and aria-busy while
 * an estimate is on its way, for what reads the results whole (assistive
 * technology, the tests).
 * @param {{children?: any} & Record<string, any>} props
 */
export function ResultsFrame({ children, ...rest }) {
  const { note, pending } = useContext(StaleNote);
  return (
    <div class="results" data-testid="results" data-stale={note ? 'true' : 'false'} aria-busy={pending ? 'true' : 'false'} {...rest}>
      {children}
    </div>
  );
}
