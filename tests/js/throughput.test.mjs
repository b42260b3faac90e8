// throughput.test.mjs — the time model against the logged runs of
// tests/data/throughput (docs/accuracy.md, "Throughput"): the figures it
// reaches there must not regress, and what the CLI and the engine report is
// one answer whose tokens/s is the step's tokens over its seconds.
import test from 'node:test';
import assert from 'node:assert/strict';

import { CLI, engine, requireBuilds } from './support.mjs';
import { compareRows, pairs } from '../throughput/compare.mjs';

requireBuilds();
const rows = compareRows(CLI);
const estimated = rows.filter((r) => !r.skip);
// The one run whose attention kernel (FlexAttention) memest does not model.
const modelled = estimated.filter((r) => !r.id.endsWith('-flex'));

test('every run memest can lay out is estimated, and only those are skipped', () => {
  assert.equal(estimated.length, 15);
  assert.deepEqual(rows.filter((r) => r.skip).map((r) => r.id).sort(), [
    'dsv2-lite-32xh100-cp8-seq32768', 'dsv2-lite-32xh100-dp2-cp4-seq16384', 'qwen3-30b-b200-fsdp8-seq8192-torchtitan']);
});

test('the modelled runs stay close to what was logged', () => {
  const abs = modelled.map((r) => Math.abs(r.tps_error)).sort((a, b) => a - b);
  const within15 = modelled.filter((r) => Math.abs(r.tps_error) <= 0.15).length;
  assert.ok(within15 >= 11, `${within15} of ${modelled.length} within 15%`);
  assert.ok(abs[Math.floor(abs.length / 2)] <= 0.05, `median error ${abs[Math.floor(abs.length / 2)]}`);
  for (const r of modelled) assert.ok(Math.abs(r.tps_error) <= 0.4, `${r.id}: ${(100 * r.tps_error).toFixed(1)}%`);
});

test('FSDP to HSDP on two nodes a replica: the estimate is faster, as the run was', () => {
  const p = pairs(rows).find((x) => x.pair === 'pr40-sharding');
  assert.equal(p.order, 'right');
});

test("tokens/s is the step's tokens over its seconds, in the CLI and the engine alike", async () => {
  const e = await engine();
  for (const r of estimated.slice(0, 4)) {
    const params = {};
    for (let i = 0; i < r.flags.length; i += 2) params[r.flags[i].slice(2).replace(/-/g, '_')] = r.flags[i + 1];
    const page = JSON.parse(e.estimateJson(null, params)).time;
    assert.equal(page.step_seconds.toFixed(6), r.est_step_s.toFixed(6), r.id);
    const gbs = Number(params.global_batch_size), seq = Number(params.sequence_length);
    assert.ok(Math.abs(r.est_tps - (gbs * seq) / r.est_step_s) <= 0.05 + 1e-6 * r.est_tps, r.id);
  }
});
