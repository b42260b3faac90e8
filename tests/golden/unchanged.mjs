// unchanged.mjs — the grid of answers that a change of structure must leave
// byte for byte as they were: every preset crossed with twelve layouts (pp 1
// to 8, ep, cp, FSDP and HSDP, AdamW and Muon, FP8, micro-batch sizes,
// routing, one rank or every rank, detail and timeline), each as the CLI's
// `--json` text and as the page's answer (the wasm engine's estimateJson
// with every view on), and two plans per preset (`plan --vary pp` and a
// layout sweep) from both. tests/js/unchanged.test.mjs compares their
// SHA-256 digests with tests/golden/unchanged.json; `node
// tests/golden/unchanged.mjs --record` writes that file again, which only a
// change that means to move an answer may do (say so in its commit).
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RECORD = path.join(ROOT, 'tests', 'golden', 'unchanged.json');

/** The presets, by file name (presets/NAME.json). */
export const PRESETS = readdirSync(path.join(ROOT, 'presets')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

/** Twelve layouts; a layout a model cannot take is recorded as its error. */
export const LAYOUTS = [
  { pp_size: 1, ep_size: 1, cp_size: 1, total_gpus: 8, micro_batch_size: 1, global_batch_size: 64, sequence_length: 4096, gpu: 'h100' },
  { pp_size: 2, ep_size: 2, cp_size: 1, total_gpus: 16, micro_batch_size: 2, global_batch_size: 128, sequence_length: 4096, gpu: 'h200', optimizer: 'muon' },
  { pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096, gpu: 'h100' },
  { pp_size: 8, ep_size: 8, cp_size: 2, total_gpus: 256, micro_batch_size: 1, global_batch_size: 512, sequence_length: 8192, gpu: 'b200', sharding: 'hsdp' },
  { pp_size: 4, ep_size: 4, cp_size: 2, total_gpus: 64, micro_batch_size: 1, global_batch_size: 256, sequence_length: 16384, gpu: 'h200', fp8_training: 'deep-gemm' },
  { pp_size: 2, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 64, sequence_length: 4096, gpu: 'h100', pp_rank: 1, detail: true, timeline: true, timeline_limit: 0 },
  { pp_size: 8, ep_size: 1, cp_size: 1, total_gpus: 16, micro_batch_size: 1, global_batch_size: 64, sequence_length: 4096, gpu: 'h100', sharding: 'hsdp', optimizer: 'muon', ep_imbalance: 1.3, fragmentation: 0.05 },
  { pp_size: 4, ep_size: 2, cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 128, sequence_length: 4096, gpu: 'h200', routing: 'balanced' },
  { pp_size: 4, ep_size: 4, cp_size: 1, total_gpus: 32, micro_batch_size: 2, global_batch_size: 256, sequence_length: 4096, gpu: 'h100', routing: 'factor', routing_factor: 1.5 },
  { pp_size: 2, ep_size: 4, cp_size: 4, total_gpus: 64, micro_batch_size: 1, global_batch_size: 32, sequence_length: 32768, gpu: 'b200', pp_rank: 0, timeline: true, timeline_limit: 60 },
  { pp_size: 1, ep_size: 8, cp_size: 1, total_gpus: 16, micro_batch_size: 4, global_batch_size: 256, sequence_length: 2048, gpu: 'a100-80', optimizer: 'muon', fp8_training: 'deep-gemm' },
  { pp_size: 8, ep_size: 16, cp_size: 1, total_gpus: 128, micro_batch_size: 1, global_batch_size: 256, sequence_length: 4096, gpu_memory_gb: 141, detail: true },
];

/** Two plans per preset: one input varied, and a small layout sweep. */
export const PLANS = [
  { vary: 'pp', pp_size: null, ep_size: [8], cp_size: [1], total_gpus: [64], micro_batch_size: [1], global_batch_size: [512], sequence_length: [4096], gpu: 'h100' },
  { pp_size: [2, 4], ep_size: [4, 8], cp_size: [1, 2], total_gpus: [64], micro_batch_size: [1, 2], global_batch_size: [512], sequence_length: [8192], gpu: 'h200' },
];

/** The page's view of an estimate: every part it can ask for. */
export const PAGE_VIEW = { suggestions: true, timeline_window: 120, every_rank: true, timeline_columns: true };

/** CLI arguments for an estimate's params. */
export function estimateArgs(model, layout) {
  const args = ['--model', model, '--json'];
  for (const [k, v] of Object.entries(layout)) {
    const flag = `--${k.replace(/_/g, '-')}`;
    if (v === true) args.push(flag);
    else args.push(flag, String(v));
  }
  return args;
}

/** CLI arguments for a plan. */
export function planArgs(model, plan) {
  const args = ['plan', '--model', model, '--json', '--top', '0'];
  for (const [k, v] of Object.entries(plan)) {
    if (v === null) continue;
    args.push(`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v));
  }
  return args;
}

/** The engine's plan request for a plan. */
export function planRequest(model, plan) {
  const r = { model };
  for (const [k, v] of Object.entries(plan)) if (v !== null) r[k] = v;
  return r;
}

export const digest = (text) => createHash('sha256').update(text).digest('hex');

/**
 * Every case's name and digest: `cli` from running the CLI (a function
 * (args) => Promise<{status, stdout}>) and `page` from the engine.
 */
export async function digests(runCli, engine) {
  const out = {};
  for (const model of PRESETS) {
    for (const [i, layout] of LAYOUTS.entries()) {
      const run = await runCli(estimateArgs(model, layout));
      out[`${model} layout ${i + 1} cli`] = `${run.status} ${digest(run.stdout)}`;
      const { detail, timeline, timeline_limit: limit, ...params } = layout;
      out[`${model} layout ${i + 1} page`] = digest(engine.estimateJson(null, { model, ...params }, PAGE_VIEW));
      out[`${model} layout ${i + 1} engine`] = digest(engine.estimateJson(null, { model, ...layout }));
    }
    for (const [i, plan] of PLANS.entries()) {
      const run = await runCli(planArgs(model, plan));
      out[`${model} plan ${i + 1} cli`] = `${run.status} ${digest(run.stdout)}`;
      out[`${model} plan ${i + 1} page`] = digest(JSON.stringify(engine.plan(null, planRequest(model, plan))));
    }
  }
  return out;
}

if (process.argv[2] === '--record') {
  const { runCli, engine } = await import('../js/support.mjs');
  const d = await digests(runCli, await engine());
  writeFileSync(RECORD, `${JSON.stringify(d, null, 1)}\n`);
  console.log(`unchanged: ${Object.keys(d).length} digests written to ${path.relative(ROOT, RECORD)}`);
}
