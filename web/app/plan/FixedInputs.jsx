// FixedInputs.jsx — the calculator's inputs that a plan or a comparison
// takes as they are, in one line, with a way back to change them.

import { count } from '../format.js';
import { enumTitle, scheduleTitle } from '../enum-titles.js';
import { shortName } from '../names.js';
import { LAYOUT_INPUTS, OPTION_INPUTS } from '../state.js';
import { PER_ROW } from './requests.js';

/** The GPU as a reader names it: the preset's title, or its capacity. */
export function gpuText(state, gpus) {
  if (state.gpu) return gpus.find((g) => g.name === state.gpu)?.title ?? state.gpu;
  const same = gpus.find((g) => g.bytes / 2 ** 30 === state.gpu_memory_gb);
  return same ? same.title : `${+state.gpu_memory_gb.toFixed(2)} GiB GPU`;
}

/** "global batch 1,024" for each whole-number input `keys` of `state`, by its short name (names.js). */
export function numberWords(state, keys) {
  return keys.map((key) => `${shortName(key)} ${count(state[key])}`);
}

/** The titles of `state`'s optimizer, sharding, FP8 and schedule, as the controls title them. */
export function optionWords(state) {
  return OPTION_INPUTS.map((key) => (key === 'schedule' ? scheduleTitle(state.schedule, state.virtual_stages) : enumTitle(key, state[key])));
}

/** Props: state, gpus (engine presets), extra (more items), onEdit() (to the calculator). */
export function FixedInputs({ state, gpus, extra = [], onEdit }) {
  const items = [
    state.config ? `${state.model} (pasted config)` : state.model,
    gpuText(state, gpus),
    ...numberWords(state, LAYOUT_INPUTS.filter((key) => !PER_ROW.includes(key))),
    ...optionWords(state),
    ...extra,
  ];
  return (
    <p class="fixed-inputs" data-testid="fixed-inputs">
      <span class="fixed-title">From the calculator:</span>{' '}
      {items.map((t, i) => <span key={i} class="fixed-item">{t}</span>)}{' '}
      <button type="button" class="link" onClick={onEdit}>Change in the calculator</button>
    </p>
  );
}
