// Warnings.jsx — what the engine warns about (CP, FP8, the config, …), in
// the page's own terms; in the embed, each shortened (shortWarning), the
// whole text in its title.

import { pageWords } from './wording.js';
import { Card } from './Card.jsx';
import { Outside, visible } from './Outside.jsx';

/** The longest a shortened warning is, in characters. */
const SHORT_CHARS = 110;

/**
 * A warning shortened: "topic: detail; caveat" as "topic: caveat" (the
 * engine's option warnings end on what they mean for the figures), else
 * its first clause; cut at a word under SHORT_CHARS with "…".
 */
export function shortWarning(text) {
  const topic = /^([^:;]{1,40}): /.exec(text);
  const clauses = text.split('; ');
  let short = topic && clauses.length > 1 ? `${topic[1]}: ${clauses.at(-1)}` : clauses[0];
  if (short.length > SHORT_CHARS) short = `${short.slice(0, short.lastIndexOf(' ', SHORT_CHARS - 1))}…`;
  return short;
}

/**
 * Props: warnings (strings), compact (embed: each shortened), answerFor
 * (Card's: the cards read their note from StaleNote), title and idBase
 * (its heading, and the id and test id it is known by: "Warnings",
 * "warnings"; the Compare tab's B has its own).
 */
export function Warnings({ warnings, compact = false, answerFor, title = 'Warnings', idBase = 'warnings' }) {
  if (!warnings?.length) return null;
  return (
    <Card answerFor={answerFor} class="warnings" aria-labelledby={`${idBase}-title`} data-testid={idBase}>
      <h2 id={`${idBase}-title`}>{title}</h2>
      <ul>
        {warnings.map((w, i) => {
          const text = pageWords(w);
          return compact ? <li key={i} title={visible(text)}><Outside text={shortWarning(text)} /></li> : <li key={i}><Outside text={text} /></li>;
        })}
      </ul>
    </Card>
  );
}
