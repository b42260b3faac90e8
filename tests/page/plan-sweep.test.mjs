// The Plan tab's engine side, without a browser: a sweep in pieces
// (web/engine-sweep.js over engine.planBegin) gives exactly what one
// engine.plan() call gives, for any piece size,
// the worker reports its progress, stops it when asked and answers other
// calls between its pieces; and the requests the tabs build from the page
// state (web/app/plan/requests.js). Needs public/memest.wasm.
// node --test tests/page/plan-sweep.test.mjs
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../../web/engine.js';
import { createEngineClient } from '../../web/engine-client.js';
import { runSweep, PIECE_ROWS } from '../../web/engine-sweep.js';
import { DEFAULTS, toParams } from '../../web/app/state.js';
import {
  compareRequest, compareState, loadB, mbsList, planRequest, rowPatch, sameAsA,
} from '../../web/app/plan/requests.js';
import { sortRows } from '../../web/app/plan/columns.js';
import { requireBuilds } from './support.mjs';

let engine;
before(async () => {
  requireBuilds();
  engine = await createEngine();
});

const Q30 = { model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096 };
const LAYOUT = { ...Q30, pp_size: 4, ep_size: 8, cp_size: 1, micro_batch_size: 1 };

/** Requests of every shape the page sends, and some it does not. */
const REQUESTS = {
  'layouts, 32 GPUs': { ...Q30, total_gpus: 32 },
  'layouts, 4 nodes of 8, mbs 1 and 2': { ...Q30, gpu: 'h200', global_batch_size: 512, nodes: 4, gpus_per_node: 8, micro_batch_size: [1, 2] },
  'layouts, pp pinned (cut on ep)': { ...Q30, total_gpus: 64, pp_size: 4 },
  'layouts, pp, ep, cp pinned (cut on mbs)': { ...Q30, total_gpus: 64, pp_size: 4, ep_size: 8, cp_size: 1 },
  'layouts, dp list': { ...Q30, total_gpus: 64, dp: [1, 2, 4] },
  'layouts, muon with FP8': { ...Q30, total_gpus: 32, optimizer: 'muon', fp8_training: 'deep-gemm' },
  'vary pp, dp held, in nodes': {
    model: 'qwen3-235b-a22b', gpu: 'b200', gpus_per_node: 8, ep_size: 8, cp_size: 1, dp: 1, micro_batch_size: 1,
    global_batch_size: 1024, sequence_length: 2048, vary: 'pp',
  },
  'vary pp, GPUs held': { ...LAYOUT, pp_size: undefined, total_gpus: 64, vary: 'pp' },
  'vary mbs': { ...LAYOUT, total_gpus: 32, micro_batch_size: [1, 2, 4, 8], vary: 'mbs' },
  'vary seq': { ...LAYOUT, total_gpus: 32, sequence_length: undefined, vary: 'seq' },
  'vary dp': { ...LAYOUT, vary: 'dp' },
  'vary gpus': { ...LAYOUT, vary: 'gpus' },
  'vary nodes': { ...LAYOUT, gpus_per_node: 8, vary: 'nodes' },
  'missing inputs': { model: 'qwen3-30b-a3b', gpu: 'h100', total_gpus: 32 },
  'a bad list item': { ...Q30, total_gpus: 32, pp_size: [1, 0, 2] },
  'an unknown model': { ...Q30, model: 'no-such-model', total_gpus: 32 },
  'an option list (one call)': { ...Q30, total_gpus: 32, optimizer: 'adamw,muon' },
  'a compare (one call)': { ...LAYOUT, total_gpus: 32, sequence_length: [4096, 8192], mode: 'compare' },
};

for (const [name, request] of Object.entries(REQUESTS)) {
  test(`sweep in pieces equals one plan: ${name}`, async () => {
    const whole = engine.plan(null, request);
    const begun = engine.planBegin(null, request);
    if (whole.error) {
      assert.deepStrictEqual(begun, whole, 'the error comes before any estimate');
    } else {
      begun.free();
    }
    for (const pieceRows of [1, 7, PIECE_ROWS, 100000]) {
      const progress = [];
      const got = await runSweep(engine, null, request, { pieceRows, onProgress: (p) => progress.push(p) });
      assert.deepStrictEqual(got, whole, `pieces of ${pieceRows} rows`);
      if (whole.error) continue;
      assert.deepEqual(progress.map((p) => p.done), progress.map((_, i) => i + 1));
      const last = progress.at(-1);
      assert.equal(last.done, last.total);
      assert.equal(last.total, Math.max(1, Math.ceil(begun.rows / pieceRows)), 'one piece per range of rows');
      assert.equal(last.rows, begun.rows);
    }
  });
}

test('a sweep stops before its next piece when asked, and frees what it began', async () => {
  const request = REQUESTS['layouts, 32 GPUs'];
  const heap = engine.heapBytes();
  let pieces = 0;
  const stopped = await runSweep(engine, null, request, { onProgress: () => pieces++, shouldStop: () => pieces >= 2 });
  assert.deepStrictEqual(stopped, { cancelled: true });
  assert.equal(pieces, 2);
  assert.equal(engine.heapBytes(), heap);
  // Over the work limit: the planner's own message, before any piece. A
  // 1,024-layer model at pp 512 over 27 sequence lengths would take over 2 s.
  const deep = JSON.stringify({ ...JSON.parse(String(engine.modelConfig('qwen3-30b-a3b'))), num_hidden_layers: 1024 });
  const big = {
    ...Q30, model: 'deep.json', total_gpus: 512, pp_size: 512, ep_size: 1, cp_size: 1, micro_batch_size: 1,
    sequence_length: Array.from({ length: 27 }, (_, i) => 64 * (i + 1)),
  };
  const limited = await runSweep(engine, deep, big, { onProgress: () => assert.fail('no piece runs') });
  assert.equal(limited.error.code, 'limit');
  assert.match(limited.error.message, /MEMEST_MAX_PLAN_WORK/);
  assert.deepStrictEqual(limited, engine.plan(deep, big));
});

test('the worker sweeps with progress, answers estimates between pieces, and cancels', async (t) => {
  const client = await createEngineClient();
  t.after(() => client.close());
  const request = { model: 'qwen3-235b-a22b', gpu: 'b200', total_gpus: 256, global_batch_size: 1024, sequence_length: 4096 };
  const progress = [];
  const sweeping = client.sweep(null, request, { onProgress: (p) => progress.push(p) });
  let sweepDone = false;
  sweeping.then(() => { sweepDone = true; });
  // An estimate sent after the sweep started is answered before it ends.
  await new Promise((r) => setTimeout(r, 20));
  const est = await client.estimate(null, { ...LAYOUT, total_gpus: 32 });
  assert.equal(est.peak_bytes, engine.estimate(null, { ...LAYOUT, total_gpus: 32 }).peak_bytes);
  assert.equal(sweepDone, false, 'the estimate did not wait for the whole sweep');
  const got = await sweeping;
  assert.deepStrictEqual(got, engine.plan(null, request));
  assert.ok(progress.length > 5);
  assert.deepEqual(progress.map((p) => p.done), progress.map((_, i) => i + 1));

  // Aborting stops the sweep after the piece that is running when the
  // worker hears of it. The worker keeps going while the abort is on its
  // way, as many pieces (of 5 ms or so) as the page is late in reading the
  // progress, so the bound is a quarter of the sweep rather than one piece.
  const controller = new AbortController();
  const seen = [];
  const cancelled = client.sweep(null, request, {
    signal: controller.signal,
    onProgress: (p) => {
      seen.push(p);
      if (p.done === 2) controller.abort();
    },
  });
  assert.deepStrictEqual(await cancelled, { cancelled: true });
  const total = progress.at(-1).total;
  assert.ok(seen.length <= total / 4, `${seen.length} of ${total} pieces ran; the abort came after the second`);
  assert.deepStrictEqual(await client.sweep(null, request, { signal: controller.signal }), { cancelled: true });
  // The worker still works, and plan() is as before.
  assert.deepStrictEqual(await client.plan(null, REQUESTS['vary dp']), engine.plan(null, REQUESTS['vary dp']));
});

test('planRequest: layouts from the budget and pins, vary from the calculator', () => {
  const s = { ...DEFAULTS, view: 'plan' };
  const fixed = {
    model: 'qwen3-30b-a3b', optimizer: 'adamw', sharding: 'fsdp', fp8_training: 'disabled', ep_imbalance: 1,
    fragmentation: 0.1, global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
    nvlink_gb_per_s: 0, network_gbit_per_s: 0, // the time model's, which a plan takes as an estimate does
    schedule: 'dualpipev', // the calculator's schedule; virtual_stages only with interleaved 1F1B
  };
  // A budget of whole nodes is laid out on the calculator's nodes (8 GPUs each).
  assert.deepEqual(planRequest(s).request, { ...fixed, total_gpus: 32, gpus_per_node: 8, micro_batch_size: [1, 2, 4] });
  assert.deepEqual(planRequest({ ...s, plan_budget: 'nodes', plan_nodes: 16, plan_pp: 2, plan_mbs: 0b1010 }).request,
    { ...fixed, nodes: 16, gpus_per_node: 8, pp_size: 2, micro_batch_size: [2, 8] });
  assert.match(planRequest({ ...s, plan_mbs: 0 }).problem, /at least one micro batch/);
  const vary = { ...s, plan_question: 'vary' };
  assert.deepEqual(planRequest(vary).request, { ...fixed, vary: 'pp', ep_size: 8, cp_size: 1, micro_batch_size: 1, dp: 1 });
  assert.equal(planRequest({ ...vary, plan_hold: 'gpus' }).request.total_gpus, 32);
  assert.equal(planRequest({ ...vary, plan_hold: 'gpus' }).request.gpus_per_node, 8);
  assert.equal('sequence_length' in planRequest({ ...vary, plan_vary: 'seq' }).request, false);
  assert.deepEqual(planRequest({ ...vary, plan_vary: 'mbs' }).request.micro_batch_size, [1, 2, 4]);
  const nodes = planRequest({ ...vary, plan_vary: 'nodes' }).request;
  assert.equal(nodes.gpus_per_node, 8);
  assert.equal('total_gpus' in nodes || 'dp' in nodes, false);
  assert.match(planRequest({ ...vary, total_gpus: 48 }).problem, /dp = 1\.5, not a whole number/);
  assert.deepEqual(mbsList(0b1111111), [1, 2, 4, 8, 16, 32, 64]);
  assert.equal(planRequest({ ...s, efficiency: 'gemm=0.6' }).request.efficiency, 'gemm=0.6', 'the overrides, when set');
  const interleaved = planRequest({ ...s, schedule: 'interleaved-1f1b', virtual_stages: 3 }).request;
  assert.deepEqual([interleaved.schedule, interleaved.virtual_stages], ['interleaved-1f1b', 3]);
  assert.equal('virtual_stages' in planRequest({ ...s, schedule: '1f1b', virtual_stages: 3 }).request, false, 'kept in the state, not given');
});

test('compareRequest: lists only where A and B differ, none when they agree', () => {
  const gpus = engine.presets().gpus;
  assert.equal(compareRequest(DEFAULTS, compareState(DEFAULTS), gpus), null);
  const s = { ...DEFAULTS, cmp_sequence_length: 8192, cmp_optimizer: 'muon' };
  const r = compareRequest(s, compareState(s), gpus);
  assert.deepEqual(r.sequence_length, [4096, 8192]);
  assert.deepEqual(r.optimizer, ['adamw', 'muon']);
  assert.equal(r.pp_size, 4);
  assert.equal('pp_rank' in r, false);
  // A preset against a capacity: both by capacity, the same bytes.
  const b200 = gpus.find((g) => g.name === 'b200');
  const g = { ...DEFAULTS, cmp_gpu_memory_gb: b200.bytes / 2 ** 30 };
  const rg = compareRequest(g, compareState(g), gpus);
  assert.equal('gpu' in rg, false);
  const out = engine.plan(null, rg);
  assert.deepEqual(out.rows.map((x) => x.gpu_capacity_bytes), [gpus.find((x) => x.name === 'h100').bytes, b200.bytes]);
  // Loading B makes it the calculator's, with its preset's name.
  const loaded = { ...g, ...loadB(compareState(g), gpus) };
  assert.equal(loaded.gpu, 'b200');
  assert.deepEqual({ ...loaded, ...sameAsA() }, loaded);
  assert.deepEqual(toParams(loaded), { ...toParams(DEFAULTS), gpu: 'b200' });
});

test('rowPatch and sortRows', () => {
  const plan = engine.plan(null, REQUESTS['layouts, 32 GPUs']);
  const row = plan.rows[3];
  const s = { ...DEFAULTS, ...rowPatch(row) };
  assert.equal(engine.estimate(null, toParams(s)).peak_bytes, row.peak_bytes);
  const byPeak = sortRows(plan.rows, 'peak_bytes', false).map((x) => x.row.peak_bytes);
  assert.deepEqual(byPeak, [...byPeak].sort((a, b) => a - b));
  const rank = sortRows(plan.rows, 'rank', true);
  assert.equal(rank[0].rank, plan.rows.length);
  const vary = engine.plan(null, REQUESTS['vary gpus']);
  const invalidLast = sortRows(vary.rows, 'headroom_bytes', true);
  const firstInvalid = invalidLast.findIndex((x) => x.row.status === 'INVALID');
  assert.ok(firstInvalid < 0 || invalidLast.slice(firstInvalid).every((x) => x.row.status === 'INVALID'));
});
