// Unit tests of the Plan tab's goals (no browser): node --test tests/page/goals.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bestRow, goalsFor, orderByGoal, validRows } from '../../web/app/plan/goals.js';

const GIB = 2 ** 30;
const row = (pp, cp, status, headroom, bubble, gpus = 32, extra = {}) => ({
  pp_size: pp, cp_size: cp, ep_size: 8, dp: 32 / (pp * cp * 8), total_gpus: gpus, micro_batch_size: 1, status,
  headroom_bytes: headroom * GIB, bubble_fraction: bubble, ...extra,
});

// The planner's order: most headroom first (CP 8 with 134 GiB unused).
const rows = [
  row(1, 4, 'OK', 134, 0),
  row(4, 1, 'OK', 20, 0.02),
  row(2, 1, 'TIGHT', 2, 0.01),
  row(1, 1, 'OOM', -5, 0, 16),
  { ...row(3, 1, 'INVALID', 0, 0), headroom_bytes: null, bubble_fraction: null },
];

test('each goal picks its best layout among those that fit', () => {
  assert.equal(bestRow(rows, 'headroom'), rows[0]);
  assert.equal(bestRow(rows, 'bubble'), rows[0], 'bubble 0 and more headroom');
  assert.equal(bestRow(rows, 'gpus'), rows[0], 'the OOM row on 16 GPUs does not fit');
  const fewer = [...rows, row(1, 2, 'OK', 40, 0, 16)];
  assert.equal(bestRow(fewer, 'gpus').total_gpus, 16);
  assert.equal(bestRow([rows[3]], 'gpus'), null);
  const order = orderByGoal(rows, 'bubble').map((r) => r.status);
  assert.deepEqual(order, ['OK', 'OK', 'TIGHT', 'OOM', 'INVALID']);
});

test('with EP inside a node first, a layout whose EP spans nodes follows the others of its status', () => {
  // The 16-H100 question on two nodes: pp 1, ep 16 has no bubble but spans both nodes.
  const across = { ...row(1, 1, 'OK', 10, 0, 16), ep_size: 16, ep_across_nodes: true };
  const inside = [{ ...row(2, 1, 'OK', 11, 0.017, 16), ep_across_nodes: false },
    { ...row(2, 2, 'TIGHT', 3, 0.008, 16), ep_across_nodes: false }];
  const all = [across, ...inside];
  assert.equal(bestRow(all, 'bubble'), across, 'ranked by figures alone (allow)');
  assert.equal(bestRow(all, 'bubble', true), inside[0]);
  assert.deepEqual(orderByGoal(all, 'bubble', true), [inside[0], across, inside[1]], 'OK before TIGHT still');
  assert.equal(bestRow([across, inside[1]], 'headroom', true), across, 'an OK one before a TIGHT one inside');
});

test('the routing margin is a goal only when rows carry it', () => {
  assert.deepEqual(goalsFor({ rows }).map(([k]) => k), ['gpus', 'headroom', 'bubble']);
  const withMargin = rows.map((r, i) => ({ ...r, routing_margin: [1.2, 1.9, 1.5, 1.0, null][i] }));
  assert.deepEqual(goalsFor({ rows: withMargin }).map(([k]) => k), ['gpus', 'headroom', 'bubble', 'routing']);
  assert.equal(bestRow(withMargin, 'routing').pp_size, 4);
});

test('a vary plan\'s invalid rows leave its table; the counts stay the planner\'s', () => {
  const counts = { tried: 4, valid: 2, invalid: 2, rows: 4, invalid_rows: 2, ok: 1, tight: 0, oom: 1 };
  const plan = {
    mode: 'vary', vary: 'pp_size', counts, invalid: { 'pp*ep*cp does not divide total GPUs': 2 }, invalid_examples: {},
    rows: [
      row(1, 1, 'OOM', -3, 0),
      { ...row(3, 1, 'INVALID', 0, 0), dp: 0, reason: 'pp*ep*cp does not divide total GPUs', message: 'not a multiple' },
      row(4, 1, 'OK', 20, 0.02),
      { ...row(5, 1, 'INVALID', 0, 0), dp: 0, reason: 'pp*ep*cp does not divide total GPUs', message: 'again' },
    ],
  };
  const v = validRows(plan);
  assert.deepEqual(v.rows.map((r) => r.pp_size), [1, 4]);
  assert.equal(v.counts, counts, 'the planner\'s counts, untouched');
  assert.deepEqual(v.invalid, { 'pp*ep*cp does not divide total GPUs': 2 });
  assert.deepEqual(v.invalid_values, { 'pp*ep*cp does not divide total GPUs': [3, 5] });
  assert.ok(v.rows.every((r) => r.dp !== 0));
});

test('parameter counts read in T, B and M', async () => {
  const { paramCount } = await import('../../web/app/format.js');
  assert.equal(paramCount(1026408209408), '1.03 T');
  assert.equal(paramCount(30532122624), '30.53 B');
  assert.equal(paramCount(2661150208), '2.66 B');
  assert.equal(paramCount(934.7e6), '934.7 M');
  assert.equal(paramCount(78144), '78,144');
  assert.equal(paramCount(Number.NaN), '—');
});

test('a pasted config named by its model_type alone takes its size', async () => {
  const { sizedName, sizeText } = await import('../../web/app/config-name.js');
  assert.equal(sizeText(1026408209408), '1.03T');
  assert.equal(sizeText(999e9), '999B');
  assert.equal(sizeText(235093634560), '235B');
  assert.equal(sizeText(30532122624), '30.5B');
  assert.equal(sizeText(6919161856), '6.92B');
  assert.equal(sizeText(78144), '0.0781M');
  const config = JSON.stringify({ model_type: 'qwen3_moe', hidden_size: 4096 });
  assert.equal(sizedName({ config, model: 'qwen3_moe' }, { total_parameters: 235093634560 }), 'qwen3_moe-235B');
  assert.equal(sizedName({ config, model: 'my-run' }, { total_parameters: 235093634560 }), null, 'a chosen name stays');
  assert.equal(sizedName({ config, model: 'qwen3_moe-235B' }, { total_parameters: 235093634560 }), null, 'named once');
  const named = JSON.stringify({ model_type: 'qwen3_moe', _name_or_path: 'Qwen/Qwen3-30B-A3B' });
  assert.equal(sizedName({ config: named, model: 'qwen3_moe' }, { total_parameters: 1e9 }), null);
  assert.equal(sizedName({ config: '', model: 'qwen3-30b-a3b' }, { total_parameters: 1e9 }), null);
});
