// names.js — the facts the page takes from the C core instead of writing
// them again (core-tables.js): the memory components' labels, the enum
// names, the headroom percentage below which a run is TIGHT, each kind of
// file's size limit (engine.names()) and each input's label, short name
// and description (engine.parameters()). The one map from an input's name
// (or a plan column's) to the words the page shows: every control,
// message, table and summary reads its label here.

import { NAMES, PARAMETERS } from './core-tables.js';

/** @type {import('../engine.js').Names} */
const names = NAMES;
/** @type {Map<string, import('../engine.js').ParamInfo>} */
const params = new Map(PARAMETERS.map((p) => [p.name, p]));
/** The inputs' snake_case names in a text, as one pattern. */
const namePattern = new RegExp(`\\b(${PARAMETERS.map((p) => p.name).filter((name) => name.includes('_')).join('|')})\\b`, 'g');

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

/** The memory components in the result's order: {key, title, group}. */
export function components() {
  return names.components;
}

/** The label the core's reports give component `key`, or null if unknown. */
export function componentTitle(key) {
  return names.components.find((c) => c.key === key)?.title ?? null;
}

/** Headroom below this percentage of the capacity makes a fitting run TIGHT. */
export function tightPercent() {
  return names.tight_percent;
}

/**
 * The limit of one kind of file memest reads (engine.names().input_files:
 * "config", "snapshot", "log", "script", "wandb_config", "wandb_json"):
 * {noun, max_bytes, limit_name, typical, give}, or null for another kind.
 * @param {string} kind
 * @returns {{noun: string, max_bytes: number, limit_name: string, typical: string, give: string} | null}
 */
export function inputFile(kind) {
  return names.input_files?.[kind] ?? null;
}

/** The names of one enum, in the core's order ("optimizer", "sharding", "fp8_training", "routing", "status"; another enum input, "schedule", by its parameter's choices). */
export function enumNames(which) {
  return names[which] ?? params.get(which)?.choices ?? [];
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

/** Every input's description, in the core's order. */
export function parameters() {
  return PARAMETERS;
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
