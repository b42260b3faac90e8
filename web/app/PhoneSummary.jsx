// PhoneSummary.jsx — on a narrow screen the results sit far below the form,
// so while a control of the form has focus this one-line summary (peak,
// status, headroom) stays pinned to the bottom of the screen. CSS shows it
// (style.css, "phone summary"); on a wide screen it is never shown.

import { gib, signedGib, percent } from './format.js';
import { STATUS_CLASS } from './palette.js';

/** Props: view (useEstimate). */
export function PhoneSummary({ view }) {
  const { result, stale } = view;
  if (!result && !stale) return null;
  const problems = stale ? view.problems.length : 0;
  return (
    <div class="phone-summary" aria-hidden="true" data-testid="phone-summary">
      {result && (
        <p class="phone-line">
          <strong class="phone-peak">{gib(result.peak_bytes)}</strong>{' '}
          <span class={`badge badge-${STATUS_CLASS[result.status] ?? 'ok'}`}>{result.status}</span>{' '}
          <span>headroom {signedGib(result.headroom_bytes)} ({percent(result.headroom_fraction)})</span>
        </p>
      )}
      {stale && (
        <p class="phone-stale">
          {problems === 1 ? 'One input needs a change' : `${problems} inputs need a change`}
          {result ? '; these figures are for the last valid inputs' : ''}
        </p>
      )}
    </div>
  );
}
