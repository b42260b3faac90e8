// Suggestions.jsx — the engine's suggestions: which knob to turn, what the
// peak would become, and a button that applies it.

import { suggestionFix } from './state.js';
import { fixLabel } from './FieldProblems.jsx';
import { gib } from './format.js';
import { STATUS_CLASS } from './palette.js';

/** Props: suggestions (result.suggestions), applyFix(fix). */
export function Suggestions({ suggestions, applyFix }) {
  if (!suggestions?.length) return null;
  return (
    <section class="suggestions" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title">Suggestions</h2>
      <ul>
        {suggestions.map((s, i) => {
          const fix = suggestionFix(s);
          return (
            <li key={i} data-knob={s.knob}>
              <p>
                <strong>{s.knob} {s.from} → {s.to}</strong>: peak {gib(s.peak_bytes)}{' '}
                <span class={`badge badge-${STATUS_CLASS[s.status] ?? 'ok'}`}>{s.status}</span>
                {s.saves_bytes > 0 && <span> (saves {gib(s.saves_bytes)})</span>}
              </p>
              {s.advice && <p class="help">{s.advice}</p>}
              {fix && <button type="button" onClick={() => applyFix(fix)}>Use {fixLabel(fix)}</button>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
