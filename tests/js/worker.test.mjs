// worker.test.mjs — the worker wrapper, run in a Node worker thread (the
// same engine-worker.js a page starts as a module Web Worker): answers
// match the engine's own, requests are matched by id, and "latest wins"
// skips estimates that a newer one replaced.
import test from 'node:test';
import assert from 'node:assert/strict';

import { createEngineClient } from '../../web/engine-client.js';
import { cliArgs, engine, requireBuilds, runCli } from './support.mjs';

const BASE = {
  model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
  global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};

test('worker round trip', async (t) => {
  requireBuilds();
  const eng = await engine();
  const client = await createEngineClient();
  t.after(() => client.close());

  assert.equal(client.version, eng.version);
  assert.deepStrictEqual(await client.presets(), eng.presets());
  assert.deepStrictEqual(await client.parameters(), eng.parameters());
  assert.equal(await client.modelConfig('qwen3-30b-a3b'), eng.modelConfig('qwen3-30b-a3b'));

  // Answers arrive for the right request even when many are in flight.
  const seqs = [1024, 2048, 4096, 8192];
  const results = await Promise.all(seqs.map((s) => client.estimate(null, { ...BASE, sequence_length: s })));
  results.forEach((r, i) => assert.deepStrictEqual(r, eng.estimate(null, { ...BASE, sequence_length: seqs[i] })));

  const bad = { ...BASE, total_gpus: 33 };
  assert.deepStrictEqual(await client.estimate(null, bad), eng.estimate(null, bad));
  assert.deepStrictEqual(await client.validate(null, bad), eng.validate(null, bad));
  // Arguments a worker cannot receive still give an {error}, as the engine does.
  const odd = { ...BASE, pp_size: () => 4 };
  assert.deepStrictEqual(await client.estimate(null, odd), eng.estimate(null, odd));
  assert.equal(typeof (await client.heapBytes()), 'number');
});

test('a page view through the worker is the engine\'s, its shown rank\'s timeline as columns', async (t) => {
  requireBuilds();
  const eng = await engine();
  const client = await createEngineClient();
  t.after(() => client.close());
  const view = { suggestions: false, timeline_window: 1000, every_rank: true, timeline_columns: true };
  const got = await client.estimate(null, BASE, { view });
  assert.deepStrictEqual(got, eng.estimate(null, BASE, view));
  const shown = got.ranks.filter((r) => Array.isArray(r.events));
  assert.equal(shown.length, 1, 'one rank carries its timeline');
  assert.equal(shown[0].pp_rank, got.worst_rank);
  assert.ok(shown[0].events.every((e) => e.components === undefined), 'no components per event');
  assert.equal(shown[0].event_components.activations.length, shown[0].events.length);
});

test('latest wins: superseded estimates resolve {superseded: true} without running', async (t) => {
  requireBuilds();
  const eng = await engine();
  const client = await createEngineClient({ latestWins: true });
  t.after(() => client.close());

  const seqs = [1024, 2048, 3072, 4096, 8192];
  const pending = seqs.map((s) => client.estimate(null, { ...BASE, sequence_length: s }));
  const results = await Promise.all(pending);
  // The first runs at once; the next three wait and are replaced in turn.
  assert.deepStrictEqual(results[0], eng.estimate(null, { ...BASE, sequence_length: 1024 }));
  for (const r of results.slice(1, 4)) assert.deepStrictEqual(r, { superseded: true });
  assert.deepStrictEqual(results[4], eng.estimate(null, { ...BASE, sequence_length: 8192 }));

  // Per call, latest wins can be switched off.
  const a = client.estimate(null, BASE, { latestWins: false });
  const b = client.estimate(null, BASE, { latestWins: false });
  assert.deepStrictEqual(await a, await b);
  assert.equal((await a).inputs.sequence_length, 4096);
});

test('routing curve: the native peaks at each factor, in pieces an estimate can pass', async (t) => {
  requireBuilds();
  const client = await createEngineClient();
  t.after(() => client.close());
  // The estimate asked after a curve is answered before the curve ends:
  // 28 factors (14 pieces), so that the estimate's message has arrived in
  // the worker long before the last piece, however loaded the machine.
  const long = Array.from({ length: 28 }, (_, i) => 1 + i / 4);
  const longPromise = client.routingCurve(null, BASE, long);
  const estimate = client.estimate(null, { ...BASE, routing_factor: 2 });
  const order = [];
  longPromise.then(() => order.push('curve'));
  estimate.then(() => order.push('estimate'));
  const [longCurve, one] = await Promise.all([longPromise, estimate]);
  assert.deepStrictEqual(order, ['estimate', 'curve']);
  assert.deepStrictEqual(longCurve.factors, long);
  assert.equal(one.peak_bytes, longCurve.peak_bytes[long.indexOf(2)]);
  const factors = [1, 1.25, 1.5, 1.75, 2, 2.5, 3];
  const curve = await client.routingCurve(null, BASE, factors);
  assert.deepStrictEqual(curve.factors, factors);
  assert.deepStrictEqual(curve.peak_bytes, factors.map((f) => longCurve.peak_bytes[long.indexOf(f)]));
  for (let i = 0; i < factors.length; i++) {
    const { stdout } = await runCli([...cliArgs({ ...BASE, routing_factor: factors[i] }), '--json']);
    assert.equal(curve.peak_bytes[i], JSON.parse(stdout).peak_bytes, `factor ${factors[i]}`);
    if (i > 0) assert.ok(curve.peak_bytes[i] >= curve.peak_bytes[i - 1]);
  }
  assert.equal(one.peak_bytes, curve.peak_bytes[4]);
  assert.equal(one.routing.mode, 'factor');
  // Beyond the cap (min(ep, E/k) = 8) is an error naming the factor.
  const far = await client.routingCurve(null, BASE, [9]);
  assert.equal(far.error.field, 'routing_factor');
  // A long curve (64 factors, 32 pieces) stops at the next piece once aborted.
  const many = Array.from({ length: 64 }, (_, i) => 1 + (i * 6.9) / 63);
  const controller = new AbortController();
  const stopped = client.routingCurve(null, BASE, many, { signal: controller.signal });
  controller.abort();
  assert.deepStrictEqual(await stopped, { cancelled: true });
});

test('a closed client rejects', async () => {
  requireBuilds();
  const client = await createEngineClient();
  client.close();
  await assert.rejects(client.estimate(null, BASE), /closed/);
});
