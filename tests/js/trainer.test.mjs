// trainer.test.mjs — the engine's readTrainerFiles(): the page's way to the
// trainer's launch scripts (with their setup.py), a log's launch line and a
// W&B run, read by the same C as `memest --script`, `memest check --log`
// and `memest check --wandb`. Each answer is compared with the CLI's
// source object for the same files, and with the estimate its inputs give.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT, engine, requireBuilds, runCli } from './support.mjs';

const T = path.join(ROOT, 'tests', 'trainer');
const read = (rel) => readFileSync(path.join(T, rel), 'utf8');
const BENCH = 'benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py';

test('a benchmark script and its setup.py read as the CLI reads them', async () => {
  requireBuilds();
  const eng = await engine();
  const answer = /** @type {any} */ (eng.readTrainerFiles({
    kind: 'script',
    script: BENCH,
    files: {
      [BENCH]: read(`checkout/${BENCH}`),
      'benchmarks/pretraining/tiny/setup.py': read('checkout/benchmarks/pretraining/tiny/setup.py'),
      'unrelated/setup.py': 'raise SystemExit',
    },
  }));
  assert.ok(!('error' in answer), JSON.stringify(answer));
  assert.deepEqual(answer.problems, []);
  assert.equal(answer.params.pp_size, '2');
  assert.equal(answer.params.ep_size, '4');
  assert.equal(answer.params.total_gpus, '16');
  assert.equal(answer.params.gpu, 'h100');
  assert.equal(answer.params.routing, 'balanced');
  assert.equal(answer.params.optimizer, 'muon');
  assert.equal(answer.params.model, 'models/tiny-moe.json');
  assert.equal(answer.source.read.routing, 'benchmarks/pretraining/tiny/setup.py:40');
  assert.deepEqual(answer.source.files, [BENCH, 'benchmarks/pretraining/tiny/setup.py']);
  // The CLI's reading of the same files gives the same values.
  const cli = await runCli(['--script', path.join(T, 'checkout', BENCH), '--json']);
  assert.equal(cli.status, 0, cli.stderr);
  const values = JSON.parse(cli.stdout).source.values;
  for (const [name, value] of Object.entries(answer.params)) {
    if (name !== 'model') assert.equal(values[name].value, value, name);
  }
});

test('the page\'s own inputs win over the files, and the setup module must be dropped', async () => {
  const eng = await engine();
  const answer = /** @type {any} */ (eng.readTrainerFiles({
    kind: 'script', script: 'x/h100-2n8g/run.py',
    files: { 'x/h100-2n8g/run.py': read(`checkout/${BENCH}`), 'x/setup.py': read('checkout/benchmarks/pretraining/tiny/setup.py') },
    params: { sequence_length: 8192, gpu: 'b200' },
  }));
  assert.equal(answer.params.sequence_length, undefined);
  assert.equal(answer.params.gpu, undefined);
  assert.equal(answer.source.values.sequence_length.overridden, true);
  const missing = /** @type {any} */ (eng.readTrainerFiles({
    kind: 'script', script: 'run.py', files: { 'run.py': read(`checkout/${BENCH}`) },
  }));
  assert.equal(missing.error.code, 'value');
  assert.match(missing.error.message, /no module setup among the files given/);
});

test('a refused input is a problem with file:line; the other inputs still come back', async () => {
  const eng = await engine();
  const answer = /** @type {any} */ (eng.readTrainerFiles({
    kind: 'script', script: 'refused-expression.py',
    files: { 'refused-expression.py': read('scripts/refused-expression.py') },
  }));
  assert.equal(answer.problems.length, 1);
  assert.equal(answer.problems[0].field, 'global_batch_size');
  assert.match(answer.problems[0].message, /refused-expression\.py:11: training\.global_batch_size is set to an arithmetic expression \(128 \* 8\)/);
  assert.match(answer.source.refused.global_batch_size, /refused-expression\.py:11/);
});

test('a log\'s launch line and a W&B run give the CLI\'s inputs and estimate', async () => {
  const eng = await engine();
  const log = /** @type {any} */ (eng.readTrainerFiles({ kind: 'log', files: { 'run.log': read('logs/restarted.log') } }));
  assert.deepEqual(log.source.launch_lines, [1, 6]);
  assert.equal(log.params.global_batch_size, '512');
  const files = {};
  for (const f of ['config.yaml', 'wandb-metadata.json', 'wandb-summary.json']) {
    files[`files/${f}`] = read(`wandb/run-20260723_100000-core/files/${f}`);
  }
  const wandb = /** @type {any} */ (eng.readTrainerFiles({ kind: 'wandb', files }));
  assert.deepEqual(wandb.problems, []);
  assert.equal(wandb.params.total_gpus, '32');
  assert.equal(wandb.source.trainer_commit.commit.slice(0, 7), '287070f');
  // The W&B run names a trainer path; the page resolves it, here to the preset.
  const params = { ...wandb.params, model: 'qwen3-30b-a3b' };
  const est = /** @type {any} */ (eng.estimate(null, params));
  const cli = await runCli(['check', '--wandb', path.join(T, 'wandb/run-20260723_100000-core'), '--json']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(est.tensor_peak_bytes, JSON.parse(cli.stdout).max.estimated_peak_bytes);
});

test('bad requests are errors, never throws', async () => {
  const eng = await engine();
  for (const bad of [null, 5, [], { kind: 'script', files: 3 }, { kind: 'nope', files: {} },
    { kind: 'script', files: {}, script: 'none.py' }, { kind: 'log', files: {} },
    { kind: 'wandb', files: { 'config.yaml': ': : :' } }, { kind: 'script', files: { 'a.py': 1 } }]) {
    const answer = /** @type {any} */ (eng.readTrainerFiles(/** @type {any} */ (bad)));
    assert.ok('error' in answer, JSON.stringify(bad));
    assert.equal(typeof answer.error.message, 'string');
  }
});

test('training.model resolves among the files, to a preset, or to a hub id to fetch', async () => {
  const eng = await engine();
  const setup = read('checkout/benchmarks/pretraining/tiny/setup.py');
  const script = read(`checkout/${BENCH}`);
  const ask = (extra) => /** @type {any} */ (eng.readTrainerFiles({ kind: 'script', script: 'run.py', files: { 'run.py': script, 'setup.py': setup, ...extra } }));
  // models/tiny-moe.json: not among the files, then dropped with them (by its name, or a folder's path).
  assert.deepEqual(ask({}).model, { missing: 'models/tiny-moe.json' });
  const tiny = read('checkout/models/tiny-moe.json');
  for (const name of ['tiny-moe.json', 'checkout/models/tiny-moe.json']) {
    const a = ask({ [name]: tiny });
    assert.deepEqual(a.model, { file: name });
    assert.equal(a.params.model, name);
    assert.equal(a.source.model.resolved, name);
    assert.equal(a.source.model.how, 'dropped with the files');
  }
  assert.deepEqual(ask({ 'other.json': tiny }).model, { missing: 'models/tiny-moe.json' });
  // A trainer's own config path: the preset; a preset's hub id: the preset; another id: to fetch.
  const withModel = (value) => setup.replace('Path("models/tiny-moe.json")', value);
  const as = (value) => /** @type {any} */ (eng.readTrainerFiles({ kind: 'script', script: 'run.py', files: { 'run.py': script, 'setup.py': withModel(value) } }));
  const own = as('Path("benchmarks/pretraining/qwen3-30b-a3b/model.json")');
  assert.deepEqual(own.model, { preset: 'qwen3-30b-a3b' });
  assert.equal(own.params.model, 'qwen3-30b-a3b');
  assert.deepEqual(as('"openai/gpt-oss-20b"').model, { preset: 'gpt-oss-20b' });
  assert.deepEqual(as('"test-org/Other-MoE"').model, { hub_id: 'test-org/Other-MoE' });
  assert.deepEqual(as('"not/a/hub/id"').model, { missing: 'not/a/hub/id' });
  // The log and the W&B run name a trainer path: the preset.
  assert.deepEqual(/** @type {any} */ (eng.readTrainerFiles({ kind: 'log', files: { 'run.log': read('logs/benchmark.log') } })).model, { preset: 'qwen3-30b-a3b' });
});
