// names.js — the facts the page takes from the C core instead of writing
// them again: the memory components' labels, the enum names, the headroom
// percentage below which a run is TIGHT, each kind of file's size limit
// (engine.names()) and each input's
// label and short name (engine.parameters()). Set once when the engine
// starts (estimator.js useEngine), before any result or plan is shown;
// constant after that. The one map from an input's name (or a plan
// column's) to the words the page shows: every control, message, table
// and summary reads its label here.

/** @type {import('../engine.js').Names | null} */
let names = null;
/** @type {Map<string, import('../engine.js').ParamInfo>} */
let params = new Map();
/** The inputs' snake_case names in a text, as one pattern (setNames builds it). */
let namePattern = /(?!)/g;

/**
 * What the page shows of things that are not the engine's parameters: the
 * derived degrees and the plan's columns. [label, short name].
 */
const PAGE_NAMES = {
  dp: ['Data parallel (dp)', 'dp'],
  num_chunks: ['Chunks per step', 'chunks'],
  nodes: ['Nodes', 'nodes'],
  gpus_per_node: ['GPUs per node', 'GPUs per node'],
  layout: ['Layout', 'layout'],
  config: ['config.json', 'config.json'],
};

/** Keeps the engine's names and parameters; useEngine calls it once. */
export function setNames(n, parameters = []) {
  names = n;
  params = new Map(parameters.map((p) => [p.name, p]));
  const snake = parameters.map((p) => p.name).filter((name) => name.includes('_'));
  namePattern = snake.length ? new RegExp(`\\b(${snake.join('|')})\\b`, 'g') : /(?!)/g;
}

/** The label the core's reports give component `key`, or null if unknown. */
export function componentTitle(key) {
  return names?.components.find((c) => c.key === key)?.title ?? null;
}

/** Headroom below this percentage of the capacity makes a fitting run TIGHT. */
export function tightPercent() {
  if (!names) throw new Error('the engine names are not loaded yet');
  return names.tight_percent;
}

/**
 * The limit of one kind of file memest reads (engine.names().input_files:
 * "config", "snapshot", "log", "script", "wandb_config", "wandb_json"):
 * {noun, max_bytes, limit_name, typical, give}, or null before the engine.
 * @param {string} kind
 * @returns {{noun: string, max_bytes: number, limit_name: string, typical: string, give: string} | null}
 */
export function inputFile(kind) {
  return /** @type {any} */ (names)?.input_files?.[kind] ?? null;
}

/** The names of one enum, in the core's order ("optimizer", "sharding", "fp8_training", "routing", "status"). */
export function enumNames(which) {
  return names?.[which] ?? [];
}

/** The label of input `name` as a control shows it ("Total GPUs"); a config key as "config key X". */
export function inputLabel(name) {
  const p = params.get(name);
  if (p?.label) return p.label;
  return PAGE_NAMES[name]?.[0] ?? `config key ${name}`;
}

/** The short name of input `name` in a sentence or a table ("total GPUs"); a config key as "config key X". */
export function shortName(name) {
  const p = params.get(name);
  if (p?.short_name) return p.short_name;
  return PAGE_NAMES[name]?.[1] ?? `config key ${name}`;
}

/** The engine's description of input `name`, or undefined. */
export function paramInfo(name) {
  return params.get(name);
}

/** The short name of the CLI flag `flag` ("--total-gpus"), or null when no input has it. */
export function flagShortName(flag) {
  for (const p of params.values()) if (p.flag === flag) return p.short_name ?? null;
  return null;
}

/** The value of the bounds.h limit `limit` ("MEMEST_MAX_GPUS"), or null. */
export function limitValue(limit) {
  for (const p of params.values()) if (p.limit === limit && typeof p.max === 'number') return p.max;
  return null;
}

/** A pattern that finds the inputs' snake_case names ("micro_batch_size") in a text. */
export function inputNamePattern() {
  return namePattern;
}
