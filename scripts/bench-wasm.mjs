#!/usr/bin/env node
// bench-wasm.mjs — times the WebAssembly engine in Node next to the native
// build: the median of one estimate of the default example (Qwen3-30B-A3B
// preset, pp 4, ep 8, cp 1, 32 GPUs, mbs 1, gbs 1024, seq 4096, H100, all
// ranks) through engine.estimate(), which includes writing and parsing the
// result JSON, against the median build/memest-bench prints for the same
// example (memest_estimate() alone, timeline kept). Target: ratio <= 3.
// Usage: node scripts/bench-wasm.mjs [runs]   (default 300)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { createEngine } from '../web/engine.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = `${ROOT}build/memest-bench`;
const TARGET_RATIO = 3;
const runs = Math.max(5, Number(process.argv[2] ?? 300) || 300);

const EXAMPLE = {
  model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
  global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};

/**
 * Median and p90 milliseconds of n calls of fn.
 * @param {() => void} fn
 * @param {number} n
 */
function time(fn, n) {
  const t = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { median: t[Math.floor(n / 2)], p90: t[Math.floor((n * 9) / 10)] };
}

const engine = await createEngine();
const check = engine.estimate(null, EXAMPLE);
if ('error' in check) {
  console.error(`bench-wasm: the example failed: ${check.error.message}`);
  process.exit(1);
}
time(() => engine.estimate(null, EXAMPLE), 30);   // warm the JIT and the heap
const wasm = time(() => engine.estimate(null, EXAMPLE), runs);
console.log(`wasm (Node ${process.versions.node}), engine.estimate(): median ${wasm.median.toFixed(3)} ms, ` +
  `p90 ${wasm.p90.toFixed(3)} ms over ${runs} runs`);

if (!existsSync(NATIVE)) {
  console.log(`native: ${NATIVE} is missing (cmake --build build builds it); no ratio`);
  process.exit(0);
}
const out = execFileSync(NATIVE, [String(runs)], { encoding: 'utf8' });
const m = /^default estimate[^\n]*whole timeline kept: median ([0-9.]+) ms/m.exec(out);
if (!m) {
  console.error(`bench-wasm: cannot read the default example's median from memest-bench:\n${out}`);
  process.exit(1);
}
const native = Number(m[1]);
const ratio = wasm.median / native;
console.log(`native, memest-bench: median ${native.toFixed(3)} ms`);
console.log(`ratio wasm/native: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x)`);
if (ratio > TARGET_RATIO) process.exitCode = 1;
