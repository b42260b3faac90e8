// time-parts.js — the estimate's `time` (docs/result-json.md) shaped for
// the Time card: the critical rank's step in its parts, each with its
// colour and share, and the hardware row in one line. Pure; the figures
// are the engine's, the page only words and colours them.

import { count } from './format.js';

/**
 * The parts of a rank's step, in the order they stack: [key in `parts`
 * (and in each of `ranks`, without "_seconds"), label, colour].
 */
export const TIME_PARTS = Object.freeze([
  ['compute', 'Compute', '#2f6fb5'],
  ['exposed_comm', 'Exposed communication', '#d9822b'],
  ['idle', 'Pipeline idle (bubble)', '#9aa1ab'],
  ['step_end', 'Step end (gradient reduce)', '#8e5cb8'],
  ['optimizer', 'Optimizer', '#35a08d'],
]);

/**
 * The critical rank's step of `time` as [{key, label, color, seconds,
 * share}] (share of step_seconds; parts of zero seconds included, so that
 * the table always lists all five).
 */
export function stepParts(time) {
  const parts = time?.parts ?? {};
  const step = time?.step_seconds > 0 ? time.step_seconds : 1;
  return TIME_PARTS.map(([key, label, color]) => {
    const seconds = parts[`${key}_seconds`] ?? 0;
    return { key, label, color, seconds, share: seconds / step };
  });
}

/** A rank of `time.ranks` as its parts' seconds in TIME_PARTS order (the JSON's ranks name them with "_seconds"). */
export function rankSeconds(rank) {
  return TIME_PARTS.map(([key]) => rank?.[`${key}_seconds`] ?? 0);
}

/** A figure of the hardware row: "989.4", "3,350". */
function figure(v) {
  return Number.isInteger(v) ? count(v) : `${count(Math.trunc(v))}.${v.toFixed(1).split('.')[1]}`;
}

/**
 * The hardware row the model used, as [label, text] pairs: the peaks, HBM,
 * the links (with overrides applied) and the GPUs a node.
 */
export function hardwareFacts(hw) {
  if (!hw) return [];
  const out = [['BF16 peak', `${figure(hw.bf16_tflops)} TFLOP/s`]];
  if (hw.fp8_tflops > 0) out.push(['FP8 peak', `${figure(hw.fp8_tflops)} TFLOP/s`]);
  out.push(['HBM', `${figure(hw.hbm_gb_per_s)} GB/s`]);
  out.push(['NVLink', `${figure(hw.nvlink_gb_per_s)} GB/s one way`]);
  out.push(['Network', `${figure(hw.network_gbit_per_s)} Gb/s`]);
  out.push(['GPUs per node', count(hw.gpus_per_node)]);
  return out;
}
