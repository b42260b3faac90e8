// memory.test.mjs — the engine gives back every byte: 10,000 consecutive
// estimates (results and errors alike, with validate calls between them)
// leave the wasm heap exactly where it was after the first.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { WASM, engine, requireBuilds, sharedModels } from './support.mjs';

const BASE = {
  model: 'qwen3-30b-a3b', pp_size: 1, ep_size: 8, cp_size: 1, total_gpus: 8, micro_batch_size: 1,
  global_batch_size: 64, sequence_length: 2048, gpu: 'h100',
};

test('10,000 estimates leave heapBytes() where it was after the first', async () => {
  requireBuilds();
  const eng = await engine();
  const qwen = sharedModels().find((m) => m.file.endsWith('qwen3-30b-a3b.json'));
  assert.ok(qwen);
  /** @type {[string|null, Record<string, unknown>][]} */
  const calls = [
    [null, BASE],
    [qwen.text, { ...BASE, model: 'qwen3.json', optimizer: 'muon', sharding: 'hsdp' }],
    [null, { ...BASE, timeline: true, timeline_limit: 10, detail: true }],
    [null, { ...BASE, total_gpus: 12 }],                  // layout error
    [null, { ...BASE, pp_size: 'x' }],                    // value error
    [qwen.text.slice(0, 100), BASE],                      // JSON error
    [null, { ...BASE, sequence_length: undefined }],      // missing
  ];
  let ok = 0;
  const estimate = (/** @type {number} */ i) => {
    const [config, params] = calls[i % calls.length];
    if (!('error' in eng.estimate(config, params))) ok++;
  };
  estimate(0);
  const first = eng.heapBytes();
  assert.ok(Number.isInteger(first) && first >= 0, `heapBytes() = ${first}`);
  for (let i = 1; i < 10000; i++) {
    estimate(i);
    if (i % 1000 === 0) eng.validate(null, { ...BASE, pp_size: 0 });
  }
  assert.equal(eng.heapBytes(), first, 'after 10,000 estimates');
  // Three of the seven inputs are valid.
  assert.equal(ok, 3 * Math.floor(10000 / 7) + Math.min(3, 10000 % 7));
});

test('memest_wasm_heap_bytes counts what malloc hands out and free takes back', async () => {
  requireBuilds();
  const { default: factory } = await import('../../public/memest.js');
  const w = await factory({ wasmBinary: readFileSync(WASM) });
  const before = w._memest_wasm_heap_bytes() >>> 0;
  const p = w._malloc(100000);
  assert.ok(p);
  assert.ok((w._memest_wasm_heap_bytes() >>> 0) >= before + 100000);
  w._free(p);
  assert.equal(w._memest_wasm_heap_bytes() >>> 0, before);
});

test('modelConfig() frees its copy', async () => {
  requireBuilds();
  const eng = await engine();
  const before = eng.heapBytes();
  assert.equal(typeof eng.modelConfig('qwen3-30b-a3b'), 'string');
  assert.equal(eng.heapBytes(), before);
});
