// palette.js — the memory components in the fixed order of the result
// object (docs/result-json.md), with the label and colour every chart uses.

/** Static components: live for the whole step. Blues and greens. */
export const STATIC_PARTS = [
  ['master_params', 'Master parameters', '#1f4e89'],
  ['optimizer_states', 'Optimizer states', '#2f6fb5'],
  ['unsharded_params', 'Unsharded parameters', '#5b93d1'],
  ['edge_params', 'Edge parameters', '#8cb6e6'],
  ['grad_accumulators', 'Gradient accumulators', '#1d7a6b'],
  ['pending_expert_grads', 'Pending expert grads', '#35a08d'],
  ['sharded_grads', 'Sharded gradients', '#6cc3b0'],
  ['rotary_tables', 'Rotary tables', '#9ab38a'],
  ['data_batch', 'Data batch', '#6f8f4e'],
  ['fp8_weight_cache', 'FP8 weight cache', '#4d6b2e'],
];

/** Dynamic components: come and go with the schedule. Warm colours. */
export const DYNAMIC_PARTS = [
  ['activations', 'Activations', '#d9822b'],
  ['logits', 'Logits', '#b4521e'],
  ['p2p_buffers', 'P2P buffers', '#e0b03c'],
  ['wgrad_queue', 'Weight-grad queue', '#c2417b'],
  ['layer_transients', 'Layer transients', '#e06666'],
  ['fsdp_transients', 'FSDP transients', '#8e5cb8'],
  ['optimizer_transients', 'Optimizer transients', '#b48ad6'],
];

/** Outside PyTorch's allocator: added on top of the tensor peak. */
export const OVERHEAD_PARTS = [
  ['non_pytorch', 'CUDA context, NCCL, …', '#8a8f98'],
  ['fragmentation', 'Allocator fragmentation', '#b9bec6'],
];

export const ALL_PARTS = [...STATIC_PARTS, ...DYNAMIC_PARTS];

const byKey = new Map([...ALL_PARTS, ...OVERHEAD_PARTS].map(([k, label, color]) => [k, { label, color }]));

/** The label of component `key` (the key itself if unknown). */
export function partLabel(key) {
  return byKey.get(key)?.label ?? key;
}

/** The colour of component `key`. */
export function partColor(key) {
  return byKey.get(key)?.color ?? '#999999';
}

/** The colour of a status: OK, TIGHT or OOM. */
export const STATUS_CLASS = { OK: 'ok', TIGHT: 'tight', OOM: 'oom' };
