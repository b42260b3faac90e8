// enum-titles.js — how the page titles the enum values the core names
// (engine.names(), through names.js): one map for every control and
// summary. The values and their order are the core's; only the words a
// reader sees are the page's.

import { enumNames } from './names.js';

const TITLES = {
  optimizer: { adamw: 'AdamW', muon: 'Muon' },
  sharding: { fsdp: 'FSDP', hsdp: 'HSDP' },
  fp8_training: { disabled: 'Off (bf16)', 'deep-gemm': 'DeepGEMM FP8' },
  routing: { measured: 'Measured', balanced: 'Balanced', factor: 'Custom factor' },
};

/** The title of value `v` of enum `which` (the value itself if it has none). */
export function enumTitle(which, v) {
  return TITLES[which]?.[v] ?? v;
}

/**
 * [value, title] for every value of enum `which`, in the core's order;
 * `detail` adds words after some titles ({hsdp: '(shard within cp·ep)'}).
 * @param {string} which
 * @param {Record<string, string>} [detail]
 */
export function enumOptions(which, detail = {}) {
  return enumNames(which).map((v) => [v, detail[v] ? `${enumTitle(which, v)} ${detail[v]}` : enumTitle(which, v)]);
}
