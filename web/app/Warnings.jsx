// Warnings.jsx — what the engine warns about (CP, FP8, imbalance, …), in the
// page's own terms.

import { pageWords } from './wording.js';

/** Props: warnings (strings). */
export function Warnings({ warnings }) {
  if (!warnings?.length) return null;
  return (
    <section class="warnings" aria-labelledby="warnings-title">
      <h2 id="warnings-title">Warnings</h2>
      <ul>
        {warnings.map((w, i) => <li key={i}>{pageWords(w)}</li>)}
      </ul>
    </section>
  );
}
