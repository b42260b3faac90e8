// MbsChoice.jsx — the micro batch sizes a plan tries, as checkboxes over
// powers of two (state.plan_mbs: bit k = 2^k).

import { MBS_BITS } from './requests.js';

/** Props: mask, onChange(mask), legend. */
export function MbsChoice({ mask, onChange, legend = 'Micro batch sizes' }) {
  const sizes = Array.from({ length: MBS_BITS }, (_, k) => k);
  return (
    <fieldset class="choice-group" data-field="plan_mbs">
      <legend>{legend}</legend>
      {sizes.map((k) => (
        <label key={k} class="check">
          <input type="checkbox" checked={(mask & (1 << k)) !== 0}
            onChange={(e) => onChange(e.currentTarget.checked ? mask | (1 << k) : mask & ~(1 << k))} />
          {2 ** k}
        </label>
      ))}
      {(mask & ((1 << MBS_BITS) - 1)) === 0 && <p class="local-problem" role="alert">Choose at least one.</p>}
    </fieldset>
  );
}
