// input-ranges.js — the slider of each number input of the page, from the
// core's parameter table (its `slider`: range, step, powers of two): the
// calculator's panels and the Compare tab's B take their sliders from
// here, so that one input moves over the same range wherever it is. A
// range is the slider's only: the number box beside it takes any value,
// and the engine explains one it refuses.

import { paramInfo } from './names.js';

/**
 * The slider props of number input `name` ({min, max, scale, step, integer}).
 * @param {string} name
 * @returns {{min: number, max: number, scale: string, step: number, integer: boolean}}
 */
export function inputRange(name) {
  const p = paramInfo(name);
  if (!p?.slider) throw new Error(`no slider range for ${name}`);
  const { min, max, step, log2 } = p.slider;
  return { min, max, scale: log2 ? 'log2' : 'linear', step, integer: p.kind === 'int' };
}
