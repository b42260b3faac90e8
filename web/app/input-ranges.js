// input-ranges.js — the slider range of each number input of the page:
// the calculator's panels and the Compare tab's B take their sliders from
// here, so that one input moves over the same range wherever it is. A
// range is the slider's only: the number box beside it takes any value,
// and the engine explains one it refuses.

/** @type {Readonly<Record<string, {min: number, max: number, scale?: string, step?: number, integer?: boolean}>>} */
export const INPUT_RANGES = Object.freeze({
  pp_size: { min: 1, max: 32 },
  ep_size: { min: 1, max: 32, scale: 'log2' },
  cp_size: { min: 1, max: 64, scale: 'log2' },
  total_gpus: { min: 1, max: 16384, scale: 'log2' },
  micro_batch_size: { min: 1, max: 64, scale: 'log2' },
  global_batch_size: { min: 1, max: 65536, scale: 'log2' },
  sequence_length: { min: 128, max: 1048576, scale: 'log2' },
  routing_factor: { min: 1, max: 8, step: 0.01, integer: false },
  fragmentation: { min: 0, max: 0.5, step: 0.01, integer: false },
});

/** The slider props of number input `name` ({min, max, scale, step, integer}). */
export function inputRange(name) {
  const r = INPUT_RANGES[name];
  if (!r) throw new Error(`no slider range for ${name}`);
  return { scale: 'linear', step: 1, integer: true, ...r };
}
