// FixedInputs.jsx — the calculator's inputs that a plan or a comparison
// takes as they are, in one line, with a way back to change them.

import { count } from '../format.js';
import { enumTitle } from '../enum-titles.js';

/** The GPU as a reader names it: the preset's title, or its capacity. */
export function gpuText(state, gpus) {
  if (state.gpu) return gpus.find((g) => g.name === state.gpu)?.title ?? state.gpu;
  const same = gpus.find((g) => g.bytes / 2 ** 30 === state.gpu_memory_gb);
  return same ? same.title : `${+state.gpu_memory_gb.toFixed(2)} GiB GPU`;
}

/** Props: state, gpus (engine presets), extra (more items), onEdit() (to the calculator). */
export function FixedInputs({ state, gpus, extra = [], onEdit }) {
  const items = [
    state.config ? `${state.model} (pasted config)` : state.model,
    gpuText(state, gpus),
    `global batch ${count(state.global_batch_size)}`,
    `sequence ${count(state.sequence_length)}`,
    enumTitle('optimizer', state.optimizer),
    enumTitle('sharding', state.sharding),
    enumTitle('fp8_training', state.fp8_training),
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
