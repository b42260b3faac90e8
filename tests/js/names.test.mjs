// names.test.mjs — what the engine reads from the C tables instead of
// writing it again: every parameter's bounds and limit name (enforced by
// the engine and the CLI alike at max and max+1), the enum names, the
// component labels of the text report, the TIGHT threshold and the reason
// codes of problems.
import test from 'node:test';
import assert from 'node:assert/strict';

import { engine, requireBuilds, runCli, cliArgs, cliError } from './support.mjs';

const BASE = {
  model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
  global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};

test('parameters() carry each int and number bound, and the engine and CLI enforce it', async () => {
  requireBuilds();
  const eng = await engine();
  const bounded = eng.parameters().filter((p) => p.kind === 'int' || p.kind === 'number');
  assert.deepStrictEqual(bounded.map((p) => p.name), [
    'pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'global_batch_size',
    'sequence_length', 'gpu_memory_gb', 'pp_rank', 'ep_imbalance', 'fragmentation', 'timeline_limit', 'routing_factor',
    'nvlink_gb_per_s', 'network_gbit_per_s', 'virtual_stages',
  ]);
  const pp = bounded.find((p) => p.name === 'pp_size');
  assert.deepStrictEqual([pp.min, pp.max, pp.limit], [1, 512, 'MEMEST_MAX_PP']);
  const rank = bounded.find((p) => p.name === 'pp_rank');
  assert.deepStrictEqual([rank.min, rank.max, rank.limit], [-1, 511, 'MEMEST_MAX_PP - 1']);
  for (const p of bounded) {
    assert.ok(p.max > p.min, p.name);
    const over = p.kind === 'int' ? p.max + 1 : p.max * (1 + 1e-12);
    const params = { ...BASE, [p.name]: over };
    if (p.name === 'gpu_memory_gb') delete params.gpu;
    // Only interleaved 1F1B reads virtual_stages; another schedule refuses it given at all.
    if (p.name === 'virtual_stages') params.schedule = 'interleaved-1f1b';
    const out = eng.validate(null, params);
    assert.equal(out[0]?.code, 'limit', `${p.name}=${over}`);
    assert.equal(out[0].field, p.name);
    if (p.kind === 'int') assert.ok(out[0].message.includes(p.limit), out[0].message);
    const run = await runCli(cliArgs(params));
    assert.equal(run.status, 1, p.name);
    assert.equal(cliError(run).message, out[0].message, p.name);
    // The maximum itself passes the parameter's own check (the layout may
    // still refuse the run it makes).
    const atMax = eng.validate(null, { ...params, [p.name]: p.max });
    assert.ok(!atMax.some((e) => /supported maximum|and at most/.test(e.message)), p.name);
  }
  assert.ok(!eng.parameters().find((p) => p.name === 'optimizer').limit);
});

test('names() gives the enum names the core parses, in the order of its enums', async () => {
  requireBuilds();
  const eng = await engine();
  const names = eng.names();
  const choices = Object.fromEntries(eng.parameters().map((p) => [p.name, p.choices]));
  assert.deepStrictEqual(names.optimizer, ['adamw', 'muon']);
  assert.deepStrictEqual(names.sharding, ['fsdp', 'hsdp']);
  assert.deepStrictEqual(names.fp8_training, ['disabled', 'deep-gemm']);
  assert.deepStrictEqual(names.routing, ['measured', 'balanced', 'factor']);
  assert.deepStrictEqual(choices.schedule, ['dualpipev', '1f1b', 'interleaved-1f1b', 'zb-h1', 'dualpipe']);
  for (const key of ['optimizer', 'sharding', 'fp8_training', 'routing']) assert.deepStrictEqual(names[key], choices[key]);
  assert.deepStrictEqual(names.status, ['OK', 'TIGHT', 'OOM']);
  assert.equal(names.tight_percent, 5);
  // Each name round-trips through an estimate's inputs.
  const r = eng.estimate(null, { ...BASE, optimizer: names.optimizer[1], sharding: names.sharding[1] });
  assert.equal(r.inputs.optimizer, 'muon');
  assert.equal(r.inputs.sharding, 'hsdp');
  assert.ok(names.status.includes(r.status));
});

test('names().components are the result keys and the text report labels', async () => {
  requireBuilds();
  const eng = await engine();
  const { components } = eng.names();
  const r = eng.estimate(null, BASE);
  const rank = r.ranks[r.worst_rank];
  assert.deepStrictEqual(components.map((c) => c.key), [...Object.keys(rank.static), ...Object.keys(rank.dynamic)]);
  assert.equal(components[0].title, 'fp32 master weights (sharded)');
  const text = (await runCli(cliArgs(BASE))).stdout;
  for (const c of components) {
    const bytes = rank.static[c.key] ?? rank.dynamic[c.key];
    if (bytes > 0) assert.ok(text.includes(`  ${c.title} `), `${c.title} in the text report`);
  }
});

test('the TIGHT threshold separates OK and TIGHT results as the core classifies them', async () => {
  requireBuilds();
  const eng = await engine();
  const { tight_percent: tight } = eng.names();
  const peak = eng.estimate(null, BASE).peak_bytes;
  // Capacities just above and below peak / (1 - tight%) fall on either side.
  const edge = peak / (1 - tight / 100) / 2 ** 30;
  const above = eng.estimate(null, { ...BASE, gpu: undefined, gpu_memory_gb: edge * 1.001 });
  const below = eng.estimate(null, { ...BASE, gpu: undefined, gpu_memory_gb: edge * 0.999 });
  assert.equal(above.status, 'OK');
  assert.equal(below.status, 'TIGHT');
});

test('problems carry a reason code, whatever their wording', async () => {
  requireBuilds();
  const eng = await engine();
  const reasons = eng.names().reasons;
  assert.equal(reasons[0], 'none');
  const cases = [
    [{ pp_size: 25, total_gpus: 200 }, 'pp_layers'],
    [{ ep_size: 3, total_gpus: 12 }, 'ep_experts'],
    [{ total_gpus: 33 }, 'gpus_group'],
    [{ global_batch_size: 56 }, 'chunks_min'],
    [{ global_batch_size: 1020 }, 'gbs_unit'],
    [{ pp_rank: 4 }, 'pp_rank'],
  ];
  for (const [change, reason] of cases) {
    const out = eng.validate(null, { ...BASE, ...change });
    assert.equal(out[0]?.reason, reason, JSON.stringify(change));
    assert.ok(reasons.includes(reason));
    assert.equal(eng.estimate(null, { ...BASE, ...change }).error.reason, reason);
  }
  assert.equal(eng.validate(null, { ...BASE, model: undefined })[0].reason, 'missing');
  assert.equal(eng.estimate('{"a":1,,}', BASE).error.reason, 'none');
});
