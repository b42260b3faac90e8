// Warnings.jsx — what the engine warns about (CP, FP8, imbalance, …), in the
// page's own terms; in the embed, each cut to its first sentence.

import { pageWords } from './wording.js';
import { Card } from './Card.jsx';

/** The first sentence (or clause before a semicolon) of `text`. */
export function firstSentence(text) {
  const m = /^(.*?[.;:])(\s|$)/.exec(text);
  const cut = m ? m[1].replace(/[;:]$/, '.') : text;
  return cut.length < text.length ? cut : text;
}

/** Props: warnings (strings), compact (embed: each shortened), answerFor and note (Card's). */
export function Warnings({ warnings, compact = false, answerFor, note }) {
  if (!warnings?.length) return null;
  return (
    <Card answerFor={answerFor} note={note} class="warnings" aria-labelledby="warnings-title" data-testid="warnings">
      <h2 id="warnings-title">Warnings</h2>
      <ul>
        {warnings.map((w, i) => {
          const text = pageWords(w);
          return <li key={i}>{compact ? firstSentence(text) : text}</li>;
        })}
      </ul>
    </Card>
  );
}
