// PhoneSummary.jsx — on a one-column screen (a phone) the results sit below
// the form, so this line, first in the calculator and pinned to the top of
// the screen as it scrolls, gives the peak and its verdict (status and
// headroom) before any control. CSS shows it (style.css, "phone
// summary"); on a wide screen it is never shown.

import { gib, signedGib, percent } from './format.js';
import { STATUS_CLASS } from './palette.js';
import { statusText } from './PeakCard.jsx';

/** Props: view (useEstimate), note (the cards' stale note: '' when the figures are for the inputs on screen). */
export function PhoneSummary({ view, note }) {
  const result = view.answer?.result;
  const problems = view.problems.length;
  if (!result && !problems) return null;
  return (
    <div class="phone-summary" data-testid="phone-summary" data-stale={note ? 'true' : 'false'}
      data-answer-for={result?.command ?? ''} aria-hidden="true">
      {result && (
        <p class="phone-line">
          <strong class="phone-peak">{gib(result.peak_bytes)}</strong>{' '}
          <span class={`badge badge-${STATUS_CLASS[result.status] ?? 'ok'}`}>{result.status}</span>{' '}
          <span>{statusText(result.status)}, headroom {signedGib(result.headroom_bytes)} ({percent(result.headroom_fraction)})</span>
        </p>
      )}
      {problems > 0 && note && (
        <p class="phone-stale">
          {problems === 1 ? 'One input needs a change' : `${problems} inputs need a change`}
          {result ? '; these figures are for the last valid inputs' : ''}
        </p>
      )}
    </div>
  );
}
