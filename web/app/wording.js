// wording.js — the engine's messages in the page's own terms: the CLI's
// flags (--total-gpus) become the controls' labels (total GPUs), and a
// config position is said once.

const LABELS = {
  '--pp-size': 'pp', '--ep-size': 'ep', '--cp-size': 'cp', '--total-gpus': 'total GPUs',
  '--micro-batch-size': 'micro batch', '--global-batch-size': 'global batch',
  '--sequence-length': 'sequence length', '--gpu-memory-gb': 'GPU memory (GiB)', '--gpu': 'GPU',
  '--optimizer': 'optimizer', '--sharding': 'sharding', '--fp8-training': 'FP8',
  '--pp-rank': 'pipeline rank', '--ep-imbalance': 'EP imbalance', '--fragmentation': 'fragmentation',
  '--timeline-limit': 'timeline events', '--model': 'model', '--detail': 'per-tensor detail',
};

/** `message` with each CLI flag replaced by its control's label. */
export function pageWords(message) {
  return String(message ?? '').replace(/--[a-z0-9]+(?:-[a-z0-9]+)*/g, (flag) => LABELS[flag] ?? flag);
}

/** " (line 25, column 2)" for a problem whose message does not say where already. */
export function wherePart(problem) {
  if (!problem?.line) return '';
  if (new RegExp(`line ${problem.line}\\b`).test(problem.message ?? '')) return '';
  return ` (line ${problem.line}, column ${problem.column})`;
}
