// plan.test.mjs — engine.plan() answers as `memest plan --json` and
// `memest compare --json` do: the same object for layouts, vary and compare
// requests (lists as comma lists) and either objective, the same message and
// fix for bad ones; and so does the same plan in pieces (engine.planBegin).
import test from 'node:test';
import assert from 'node:assert/strict';

import { cliArgs, cliError, cliObject, engine, requireBuilds, runCli, sharedModels } from './support.mjs';

const deepseek = sharedModels().find((m) => m.file.endsWith('deepseek-v2-lite.json'));

/**
 * Requests as {mode, ...inputs}, ok for the ones that succeed; config is a shared model's text (its file
 * the label) or null for the preset named by model.
 * @type {{name: string, ok?: boolean, config?: {file: string, text: string}, request: Record<string, unknown>}[]}
 */
const CASES = [
  { name: 'layouts for 32 GPUs', ok: true, request: { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096, total_gpus: 32 } },
  { name: 'layouts in nodes, lists', ok: true, request: { model: 'qwen3-30b-a3b', gpu: 'h200', global_batch_size: 512, sequence_length: [4096], nodes: [2, 4], gpus_per_node: 8, ep_size: [4, 8], micro_batch_size: 1, optimizer: 'muon' } },
  { name: 'vary pp', ok: true, request: { model: 'qwen3-235b-a22b', gpu: 'b200', gpus_per_node: 8, ep_size: 8, cp_size: 1, dp: 1, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 2048, vary: 'pp' } },
  { name: 'vary seq on a config file', ok: true, config: deepseek, request: { gpu: 'h100', pp_size: 2, ep_size: 8, cp_size: 1, total_gpus: 16, micro_batch_size: 1, global_batch_size: 256, sequence_length: [2048, 4096, 8192, 16384], vary: 'seq' } },
  { name: 'compare', ok: true, request: { mode: 'compare', model: 'qwen3-30b-a3b', gpu: 'h100', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 1024, sequence_length: [4096, 8192], optimizer: 'adamw,muon' } },
  { name: 'layouts by headroom', ok: true, request: { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 256, sequence_length: 2048, total_gpus: 16, objective: 'headroom' } },
  { name: 'throughput without a GPU kind', ok: true, request: { model: 'qwen3-30b-a3b', gpu_memory_gb: 80, global_batch_size: 256, sequence_length: 2048, total_gpus: 16 } },
  { name: 'compare by throughput', ok: true, request: { mode: 'compare', model: 'qwen3-30b-a3b', gpu: 'h100', pp_size: [4, 2], ep_size: [4, 8], cp_size: 1, total_gpus: 16, micro_batch_size: 1, global_batch_size: 256, sequence_length: 2048, objective: 'throughput' } },
  { name: 'missing inputs', request: { model: 'qwen3-30b-a3b', gpu: 'h100' } },
  { name: 'unknown objective', request: { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 256, sequence_length: 2048, total_gpus: 16, objective: 'speed' } },
  { name: 'bad list item', request: { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096, total_gpus: 32, pp_size: [1, 0, 2] } },
  { name: 'unknown vary', request: { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096, total_gpus: 32, vary: 'lr' } },
  { name: 'vary in compare', request: { mode: 'compare', model: 'qwen3-30b-a3b', gpu: 'h100', vary: 'pp' } },
  { name: 'compare lists of different lengths', request: { mode: 'compare', model: 'qwen3-30b-a3b', gpu: 'h100', pp_size: [2, 4], ep_size: [4, 8, 16], cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096 } },
];

CASES.forEach((c) => {
  test(`plan, ${c.name}: engine equals CLI`, async () => {
    requireBuilds();
    const eng = await engine();
    const { mode = 'plan', ...inputs } = c.request;
    const request = c.config ? { ...c.request, model: c.config.file } : c.request;
    const args = cliArgs(c.config ? { ...inputs, model: c.config.file } : inputs);
    const run = await runCli([String(mode), ...args, '--json']);
    const result = eng.plan(c.config?.text ?? null, request);
    assert.equal(run.status === 0, Boolean(c.ok), `the CLI: ${run.stderr.trim()}`);
    const begun = eng.planBegin(c.config?.text ?? null, request);
    if (run.status === 0) {
      assert.ok(!('error' in result), JSON.stringify(result));
      assert.deepStrictEqual(result, cliObject(run));
      assert.ok(Array.isArray(result.rows) && result.rows.length > 0);
      // In pieces of 3 rows, last piece first: the CLI's object again.
      assert.ok(!('error' in begun) && begun.rows >= result.rows.length);
      for (let from = Math.floor((begun.rows - 1) / 3) * 3; from >= 0; from -= 3) {
        assert.equal(begun.estimate(from, Math.min(begun.rows, from + 3)), null);
      }
      assert.deepStrictEqual(begun.finish(), cliObject(run));
      assert.match(begun.estimate(0, 1).error.message, /the plan is finished or freed/);
      return;
    }
    assert.deepStrictEqual(begun, result, 'pieces: the same error, at the start');
    assert.ok('error' in result, `the CLI failed (${run.stderr.trim()}), the engine did not`);
    const { message, fix } = cliError(run);
    assert.deepStrictEqual([result.error.message, result.error.fix], [message, fix]);
    assert.equal(run.status === 2, result.error.code === 'missing');
  });
});

test('plan: the glue refuses what the CLI cannot express, and frees everything', async () => {
  requireBuilds();
  const eng = await engine();
  const before = eng.heapBytes();
  const base = { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096, total_gpus: 32 };
  assert.equal(eng.plan(null, { ...base, pp_size: [[1, 2]] }).error.field, 'pp_size');
  assert.equal(eng.plan(null, { ...base, mode: 'sweep' }).error.field, 'mode');
  assert.equal(eng.plan(null, /** @type {any} */ (null)).error.code, 'missing');
  assert.equal(eng.plan(null, /** @type {any} */ ([1])).error.code, 'value');
  assert.equal(eng.plan(/** @type {any} */ (7), base).error.field, 'config');
  assert.ok(eng.plan(null, base).rows.length > 0);
  const begun = eng.planBegin(null, base);
  assert.equal(begun.estimate(0, begun.rows + 1).error.code, 'value');
  assert.equal(begun.estimate(0, 2), null);
  begun.free();
  begun.free();
  assert.equal(eng.planBegin(null, { ...base, pp_size: [[1, 2]] }).error.field, 'pp_size');
  assert.equal(eng.heapBytes(), before);
});
