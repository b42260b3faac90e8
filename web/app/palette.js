// palette.js — the memory components in the fixed order of the result
// object (docs/result-json.md), with the colour every chart uses: the
// keys, their order, their groups and their labels are the core's
// (names.js); the colours are the page's, by key.

import { componentTitle, components } from './names.js';

/** Each component's colour: static ones blues and greens, dynamic ones warm colours. */
const COLORS = {
  master_params: '#1f4e89',
  optimizer_states: '#2f6fb5',
  unsharded_params: '#5b93d1',
  edge_params: '#8cb6e6',
  grad_accumulators: '#1d7a6b',
  bf16_grads: '#35a08d',
  sharded_grads: '#6cc3b0',
  rotary_tables: '#9ab38a',
  data_batch: '#6f8f4e',
  fp8_weight_cache: '#4d6b2e',
  activations: '#d9822b',
  logits: '#b4521e',
  p2p_buffers: '#e0b03c',
  wgrad_queue: '#c2417b',
  layer_transients: '#e06666',
  fsdp_transients: '#8e5cb8',
  optimizer_transients: '#b48ad6',
};

/** @param {'static'|'dynamic'} group @returns {[string, string][]} */
const partsOf = (group) => components().filter((c) => c.group === group).map((c) => [c.key, COLORS[c.key] ?? '#999999']);

/** Static components: live for the whole step, as [key, colour]. */
export const STATIC_PARTS = partsOf('static');

/** Dynamic components: come and go with the schedule, as [key, colour]. */
export const DYNAMIC_PARTS = partsOf('dynamic');

/** Outside PyTorch's allocator, added on top of the tensor peak: [key, label, colour]
 * (the core reports these as figures, not as components). */
export const OVERHEAD_PARTS = [
  ['non_pytorch', 'CUDA context, NCCL, …', '#8a8f98'],
  ['fragmentation', 'Allocator fragmentation', '#b9bec6'],
];

export const ALL_PARTS = [...STATIC_PARTS, ...DYNAMIC_PARTS];

const colors = new Map(/** @type {[string, string][]} */ ([...ALL_PARTS, ...OVERHEAD_PARTS.map(([k, , color]) => [k, color])]));
const overheadLabels = new Map(OVERHEAD_PARTS.map(([k, label]) => [k, label]));

/** The label of component `key`: the core's, else the key itself. */
export function partLabel(key) {
  return componentTitle(key) ?? overheadLabels.get(key) ?? key;
}

/** The colour of component `key`. */
export function partColor(key) {
  return colors.get(key) ?? '#999999';
}

/** The colour of a status: OK, TIGHT or OOM. */
export const STATUS_CLASS = { OK: 'ok', TIGHT: 'tight', OOM: 'oom' };
