// Suggestions.jsx — the engine's suggestions: which knob to turn, what the
// peak would become, and a button that applies it. They cost several
// estimates each time, so the engine computes them only while this section
// is on screen (or near it): the section tells the page through onShown.

import { useEffect, useRef } from 'preact/hooks';
import { suggestionFix } from './state.js';
import { fixLabel } from './FieldProblems.jsx';
import { gib } from './format.js';
import { STATUS_CLASS } from './palette.js';
import { shortName } from './names.js';
import { pageWords } from './wording.js';
import { enumTitle } from './enum-titles.js';
import { Card } from './Card.jsx';

/**
 * Props: suggestions (result.suggestions), computed (the estimate was asked
 * for them), applyFix(fix), onShown(visible) (called as the section comes
 * into view and leaves it), answerFor (Card's: the cards read their note from StaleNote).
 */
export function Suggestions({ suggestions, computed = true, applyFix, onShown, answerFor }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !onShown) return undefined;
    if (typeof IntersectionObserver !== 'function') {
      onShown(true);
      return undefined;
    }
    const io = new IntersectionObserver((entries) => onShown(entries.some((e) => e.isIntersecting)),
      { rootMargin: '200px 0px' });
    io.observe(el);
    return () => io.disconnect();
  }, [onShown]);
  const list = suggestions ?? [];
  return (
    <Card answerFor={answerFor} class="suggestions" aria-labelledby="suggestions-title"
      aria-busy={computed ? 'false' : 'true'} data-testid="suggestions">
      <h2 id="suggestions-title" ref={ref}>Suggestions</h2>
      {!computed && <p class="help">Each suggestion is estimated for real; they are computed while this part of the page is shown.</p>}
      {computed && !list.length && <p class="help">No change of one input lowers the peak.</p>}
      {computed && list.length > 0 && (
        <ul>
          {list.map((s, i) => {
            const fix = suggestionFix(s);
            return (
              <li key={i} data-knob={s.knob}>
                <p>
                  <strong>{shortName(s.knob)} {valueText(s.knob, s.from)} → {valueText(s.knob, s.to)}</strong>: peak {gib(s.peak_bytes)}{' '}
                  <span class={`badge badge-${STATUS_CLASS[s.status] ?? 'ok'}`}>{s.status}</span>
                  {s.saves_bytes > 0 && <span> (saves {gib(s.saves_bytes)})</span>}
                </p>
                {s.advice && <p class="help">{pageWords(s.advice)}</p>}
                {fix && <button type="button" onClick={() => applyFix(fix)}>Use {fixLabel(fix)}</button>}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** A suggestion's value as the controls title it ("muon" as "Muon"). */
function valueText(knob, value) {
  return enumTitle(knob, String(value));
}
