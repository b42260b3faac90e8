// Suggestions.jsx — the engine's suggestions: which knob to turn, what the
// peak would become, and a button that applies it; when no single change is
// OK, the nearest layout that is (nearest_layout) with a button for its
// fix. They cost several estimates each time, so the engine computes them
// only while this section is on screen (or near it): the section tells the
// page through onShown. Suggestions computed stay while it is away; an
// answer for other inputs, estimated meanwhile, has none, and the card
// says they are not computed for these inputs rather than show nothing or
// another answer's.

import { useEffect, useRef } from 'preact/hooks';
import { canApplyFix, suggestionFix } from './state.js';
import { fixLabel } from './FieldProblems.jsx';
import { count, gib, signedGib } from './format.js';
import { STATUS_CLASS } from './palette.js';
import { shortName } from './names.js';
import { pageWords } from './wording.js';
import { enumTitle } from './enum-titles.js';
import { Card } from './Card.jsx';

/**
 * The nearest layout that is OK when no single change is (the engine's
 * nearest_layout, searched only then), with its fix as a button.
 */
function NearestLayout({ nearest: n, applyFix }) {
  if (!n.found) {
    return (
      <p class="help" data-testid="nearest-layout" data-found="false">
        No single change is OK, and no layout of up to {count(n.gpus_searched)} GPUs is OK for this model, batch and sequence.
      </p>
    );
  }
  const fix = canApplyFix(n.fix) ? n.fix : null;
  const layout = ['pp_size', 'ep_size', 'cp_size', 'dp', 'micro_batch_size'].map((k) => `${shortName(k)} ${n[k]}`).join(', ');
  const cls = STATUS_CLASS[n.status] ?? 'ok';
  return (
    <div class="nearest-layout" data-testid="nearest-layout" data-found="true" data-fix={n.fix}>
      <p>
        No single change is OK. The nearest layout that is: <strong>{layout}, {count(n.total_gpus)} GPUs</strong>
        {n.gpus_added > 0 ? ` (${count(n.gpus_added)} more)` : ''}: peak {gib(n.peak_bytes)}{' '}
        <span class={`badge badge-${cls}`}>{n.status}</span>, headroom {signedGib(n.headroom_bytes)}.
      </p>
      {fix && <button type="button" onClick={() => applyFix(fix)} data-testid="nearest-layout-fix">Use {fixLabel(fix)}</button>}
    </div>
  );
}

/**
 * Props: suggestions (result.suggestions), nearest (result.nearest_layout),
 * computed (the estimate was asked for them), shown (the card is on screen,
 * so that an answer without them is being asked with them), applyFix(fix),
 * onShown(visible) (called as the section comes into view and leaves it),
 * answerFor (Card's: the cards read their note from StaleNote).
 */
export function Suggestions({ suggestions, nearest = null, computed = true, shown = false, applyFix, onShown, answerFor }) {
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
      aria-busy={computed ? 'false' : 'true'} data-computed={computed ? 'true' : 'false'} data-testid="suggestions">
      <h2 id="suggestions-title" ref={ref}>Suggestions</h2>
      {!computed && (
        <p class="help not-computed" data-testid="suggestions-not-computed">
          {shown
            ? 'Estimating the suggestions for these inputs…'
            : 'Not computed for these inputs: each suggestion is a full estimate, made while this card is on screen.'}
        </p>
      )}
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
      {computed && nearest && <NearestLayout nearest={nearest} applyFix={applyFix} />}
    </Card>
  );
}

/** A suggestion's value as the controls title it ("muon" as "Muon"). */
function valueText(knob, value) {
  return enumTitle(knob, String(value));
}
