// parity.test.mjs — the wasm engine and the native CLI give the same answer:
// every real config (presets/, and ../shared/models when present) crossed with a grid of layouts
// (valid and invalid), and every preset by name, compared field for field
// with `build/memest --json`, errors by message; validate() agrees.
import test from 'node:test';
import assert from 'node:assert/strict';

import { assertSameOutcome, cliArgs, engine, requireBuilds, runCli, sharedModels } from './support.mjs';

const PP = [1, 2, 4, 8];
const EP = [1, 2, 4, 8, 16];
const CP = [1, 2];
const DP = [1, 2];
const MBS = [1, 2];
const SEQ = [1024, 2048, 4096, 8192, 16384];
const OPTIMIZER = ['adamw', 'muon'];
const SHARDING = ['fsdp', 'hsdp'];
// Micro-batches per step as a multiple of pp: 2 is DualPipeV's minimum,
// 1 is one short of it.
const CHUNKS_PER_PP = [2, 4, 8, 1, 16];
const GPUS = [{ gpu: 'h100' }, { gpu: 'h200' }, { gpu: 'b200' }, { gpu_memory_gb: 96 }];

/**
 * A deterministic grid of 36 parameter sets. Strides coprime to each list's
 * length walk every value of every dimension; every seventh set has a
 * global batch that does not divide, and some add the optional inputs.
 * @returns {Record<string, unknown>[]}
 */
function grid() {
  const sets = [];
  for (let i = 0; i < 36; i++) {
    const pp = PP[i % 4];
    const ep = EP[(3 * i + 1) % 5];
    const cp = CP[Math.floor(i / 4) % 2];
    const dp = DP[Math.floor(i / 2) % 2];
    const mbs = MBS[Math.floor(i / 3) % 2];
    const chunks = pp * CHUNKS_PER_PP[i % 5];
    let gbs = mbs * dp * ep * chunks;
    if (i % 7 === 6) gbs += 1;
    /** @type {Record<string, unknown>} */
    const p = {
      pp_size: pp, ep_size: ep, cp_size: cp, total_gpus: pp * ep * cp * dp,
      micro_batch_size: mbs, global_batch_size: gbs, sequence_length: SEQ[(7 * i) % 5],
      ...GPUS[i % 4],
      optimizer: OPTIMIZER[Math.floor(i / 5) % 2], sharding: SHARDING[Math.floor(i / 6) % 2],
    };
    if (i % 9 === 4) p.pp_rank = pp - 1;
    if (i % 11 === 3) p.ep_imbalance = 1.25;
    if (i % 13 === 5) p.fragmentation = 0.05;
    if (i % 10 === 8) p.fp8_training = 'deep-gemm';
    if (i % 12 === 7) Object.assign(p, { timeline: true, timeline_limit: 40 });
    if (i % 17 === 2) p.detail = true;
    sets.push(p);
  }
  return sets;
}

test('the grid spans every value of every dimension', () => {
  const sets = grid();
  assert.ok(sets.length >= 30);
  for (const [key, values] of [['pp_size', PP], ['ep_size', EP], ['cp_size', CP], ['micro_batch_size', MBS],
    ['sequence_length', SEQ], ['optimizer', OPTIMIZER], ['sharding', SHARDING]]) {
    assert.deepStrictEqual(new Set(sets.map((p) => p[key])), new Set(values), key);
  }
  const dps = new Set(sets.map((p) => /** @type {number} */ (p.total_gpus) /
    (/** @type {number} */ (p.pp_size) * /** @type {number} */ (p.ep_size) * /** @type {number} */ (p.cp_size))));
  assert.deepStrictEqual(dps, new Set(DP));
});

test('every shared config x the grid: engine equals CLI', async () => {
  requireBuilds();
  const eng = await engine();
  const counts = { ok: 0, error: 0 };
  const jobs = [];
  for (const model of sharedModels()) {
    for (const params of grid()) {
      const full = { model: model.file, ...params };
      jobs.push(runCli([...cliArgs(full), '--json']).then((run) => {
        const result = eng.estimate(model.text, full);
        const what = `${model.file} ${JSON.stringify(params)}`;
        assertSameOutcome(run, result, what);
        const problems = eng.validate(model.text, full);
        assert.equal(problems.length === 0, run.status === 0, `${what}: validate gave ${JSON.stringify(problems)}`);
        if (run.status !== 0) {
          assert.ok(problems.some((p) => p.message === result.error.message), `${what}: validate lacks the error`);
        }
        counts[run.status === 0 ? 'ok' : 'error']++;
      }));
    }
  }
  await Promise.all(jobs);
  // Both outcomes must be exercised, or the comparison proves little.
  assert.ok(counts.ok >= 40, `only ${counts.ok} successful runs`);
  assert.ok(counts.error >= 40, `only ${counts.error} failed runs`);
  console.log(`parity: ${counts.ok} results and ${counts.error} errors identical`);
});

test('every preset by name: engine equals CLI', async () => {
  requireBuilds();
  const eng = await engine();
  const { models } = eng.presets();
  assert.ok(models.length > 0);
  const sets = grid().filter((_, i) => i % 6 === 0);
  const jobs = [];
  for (const { name } of models) {
    for (const params of sets) {
      const full = { model: name, ...params };
      jobs.push(runCli([...cliArgs(full), '--json']).then((run) => {
        assertSameOutcome(run, eng.estimate(null, full), `${name} ${JSON.stringify(params)}`);
      }));
    }
  }
  await Promise.all(jobs);
});
