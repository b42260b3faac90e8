// errors.test.mjs — every class of bad input gives the same error code and
// message through the JS API as the CLI prints on stderr, validate() lists
// it, and the engine keeps working afterwards. Arguments of the wrong type
// give a result or {error}, never an exception.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createEngine } from '../../web/engine.js';
import { assertSameOutcome, cliArgs, engine, requireBuilds, runCli, sharedModels } from './support.mjs';

const models = Object.fromEntries(sharedModels().map((m) => [path.basename(m.file, '.json'), m]));
const qwen = JSON.parse(models['qwen3-30b-a3b'].text);

// The default example: Qwen3-30B-A3B on 32 H100s.
const BASE = {
  pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
  global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};

/** @param {Record<string, unknown>} obj */
const json = (obj) => JSON.stringify(obj, null, 2);
/** @param {string} key */
const without = (key) => json(Object.fromEntries(Object.entries(qwen).filter(([k]) => k !== key)));

/**
 * Bad inputs, one per class: config text (null for the Qwen3 config as
 * shipped), parameters, and the error code the header documents for it.
 * @type {{name: string, config?: string, params: Record<string, unknown>, code: string}[]}
 */
const CASES = [
  { name: 'missing required parameter', params: { ...BASE, pp_size: undefined }, code: 'missing' },
  { name: 'missing GPU capacity', params: { ...BASE, gpu: undefined }, code: 'missing' },
  { name: 'total GPUs not divisible by pp*cp*ep', params: { ...BASE, total_gpus: 48 }, code: 'layout' },
  { name: 'gbs not divisible by mbs*dp*ep', params: { ...BASE, global_batch_size: 1020 }, code: 'layout' },
  { name: 'fewer micro-batches than 2*pp', params: { ...BASE, global_batch_size: 56 }, code: 'layout' },
  { name: 'fewer layers than 2*pp', params: { ...BASE, pp_size: 32, total_gpus: 256, global_batch_size: 1024 }, code: 'layout' },
  { name: 'experts not divisible by ep', params: { ...BASE, ep_size: 6, total_gpus: 24, global_batch_size: 1032 }, code: 'layout' },
  { name: 'sequence not divisible by 2*cp', params: { ...BASE, cp_size: 2, total_gpus: 64, sequence_length: 4098 }, code: 'layout' },
  { name: 'ep above 32', params: { ...BASE, ep_size: 64, total_gpus: 256, global_batch_size: 4096 }, code: 'unsupported' },
  { name: 'cp > 1 for gpt-oss', config: models['gpt-oss-20b'].text, params: { ...BASE, cp_size: 2, total_gpus: 64 }, code: 'unsupported' },
  { name: 'cp > 1 for qwen3.5', config: models['qwen3.5-35b-a3b'].text, params: { ...BASE, cp_size: 2, total_gpus: 64 }, code: 'unsupported' },
  { name: 'malformed JSON', config: models['qwen3-30b-a3b'].text.replace('"hidden_size"', '"hidden_size" "x",'), params: BASE, code: 'json' },
  { name: 'truncated JSON', config: models['qwen3-30b-a3b'].text.slice(0, 200), params: BASE, code: 'json' },
  { name: 'empty config', config: '', params: BASE, code: 'json' },
  { name: 'config not an object', config: '[1, 2, 3]', params: BASE, code: 'config' },
  { name: 'missing config key', config: without('hidden_size'), params: BASE, code: 'config' },
  { name: 'wrong-typed config key', config: json({ ...qwen, num_hidden_layers: '48' }), params: BASE, code: 'config' },
  { name: 'zero', params: { ...BASE, pp_size: 0 }, code: 'value' },
  { name: 'negative', params: { ...BASE, ep_size: -8 }, code: 'value' },
  { name: 'non-numeric', params: { ...BASE, sequence_length: '4k' }, code: 'value' },
  { name: 'fractional integer', params: { ...BASE, micro_batch_size: 1.5 }, code: 'value' },
  { name: 'NaN', params: { ...BASE, total_gpus: NaN }, code: 'value' },
  { name: 'Infinity', params: { ...BASE, gpu: undefined, gpu_memory_gb: Infinity }, code: 'value' },
  { name: 'exponent token', params: { ...BASE, global_batch_size: 1e21 }, code: 'value' },
  { name: 'absurd GPU count', params: { ...BASE, total_gpus: 4e12 }, code: 'limit' },
  { name: 'absurd digits', params: { ...BASE, sequence_length: '99999999999999999999999' }, code: 'limit' },
  { name: 'absurd GiB', params: { ...BASE, gpu: undefined, gpu_memory_gb: 1e9 }, code: 'limit' },
  { name: 'ep imbalance below 1', params: { ...BASE, ep_imbalance: 0.5 }, code: 'value' },
  { name: 'unknown parameter', params: { ...BASE, pipeline_size: 4 }, code: 'unknown' },
  { name: 'unknown optimizer', params: { ...BASE, optimizer: 'sgd' }, code: 'unknown' },
  { name: 'unknown GPU', params: { ...BASE, gpu: 'h800' }, code: 'unknown' },
  { name: 'not a boolean', params: { ...BASE, detail: 'maybe' }, code: 'value' },
  { name: 'unknown model_type without generic keys', config: json({ model_type: 'llama', hidden_size: 4096 }), params: BASE, code: 'unsupported' },
];

const dir = mkdtempSync(path.join(tmpdir(), 'memest-errors-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Writes the case's config to a file for the CLI; both sides get the file
 * name as the model label.
 * @param {{config?: string}} c
 * @param {number} i
 */
function configFile(c, i) {
  if (c.config === undefined) return { file: models['qwen3-30b-a3b'].file, text: models['qwen3-30b-a3b'].text };
  const file = path.join(dir, `case-${i}.json`);
  writeFileSync(file, c.config);
  return { file, text: c.config };
}

/** @type {Promise<{eng: import('../../web/engine.js').Engine, good: object, reference: any}> | null} */
let setup = null;
/** The engine and the good input's result, checked against the CLI once. */
function prepare() {
  setup ??= (async () => {
    requireBuilds();
    const eng = await engine();
    const good = { model: models['qwen3-30b-a3b'].file, ...BASE };
    const reference = eng.estimate(models['qwen3-30b-a3b'].text, good);
    assert.ok(!('error' in reference), JSON.stringify(reference));
    assertSameOutcome(await runCli([...cliArgs(good), '--json']), reference, 'the good input');
    return { eng, good, reference };
  })();
  return setup;
}

CASES.forEach((c, i) => {
  test(`bad input, ${c.name}: same code and message as the CLI; the engine keeps working`, async () => {
    const { eng, good, reference } = await prepare();
    const { file, text } = configFile(c, i);
    const params = { model: file, ...c.params };
    const run = await runCli([...cliArgs(params), '--json']);
    const result = eng.estimate(text, params);
    assert.notEqual(run.status, 0, `the CLI accepted it: ${run.stdout.slice(0, 200)}`);
    assert.equal(result.error?.code, c.code, JSON.stringify(result));
    assertSameOutcome(run, result, c.name, () => eng.validate(text, params));
    assert.deepStrictEqual(Object.keys(result.error).slice(0, 4), ['code', 'message', 'field', 'fix']);

    const problems = eng.validate(text, params);
    assert.ok(problems.some((p) => p.code === c.code), `validate gave ${JSON.stringify(problems)}`);
    assert.deepStrictEqual(eng.estimate(models['qwen3-30b-a3b'].text, good), reference, 'the engine broke');
  });
});

test('validate: [] for good inputs, every problem for bad ones', async () => {
  requireBuilds();
  const eng = await engine();
  assert.deepStrictEqual(eng.validate(null, { model: 'qwen3-30b-a3b', ...BASE }), []);
  const problems = eng.validate(null, { model: 'qwen3-30b-a3b', ...BASE, pp_size: 'four', optimizer: 'sgd', sequence_length: undefined });
  const fields = problems.map((p) => p.field);
  for (const f of ['pp_size', 'optimizer', 'sequence_length']) assert.ok(fields.includes(f), `${f} in ${JSON.stringify(problems)}`);
  assert.equal(fields.filter((f) => f === 'pp_size').length, 1, 'pp_size reported once');
  for (const p of problems) assert.deepStrictEqual(Object.keys(p).slice(0, 4), ['code', 'message', 'field', 'fix']);
});

test('arguments of any type give a result or {error}, never an exception', async () => {
  requireBuilds();
  const eng = await engine();
  const model = { model: 'qwen3-30b-a3b' };
  const weird = [
    null, undefined, 0, 'pp_size=4', [], [1, 2], () => 1, Symbol('x'), new Date(0),
    { ...model, ...BASE, pp_size: [4] }, { ...model, ...BASE, pp_size: { v: 4 } },
    { ...model, ...BASE, pp_size: () => 4 }, { ...model, ...BASE, pp_size: Symbol('4') },
    { ...model, ...BASE, pp_size: 4n }, { ...model, ...BASE, pp_size: null },
    { ...model, ...BASE, pp_size: -0 }, { ...model, ...BASE, '': 1 },
    JSON.parse('{"__proto__": {"pp_size": 4}}'), Object.create({ pp_size: 4 }),
    { ...model, ...BASE, ['x'.repeat(5000)]: 1 }, { ...model, ...BASE, model: 'x'.repeat(100000) },
    { ...model, ...BASE, sequence_length: '\u0000' }, { ...model, ...BASE, gpu: '\ud800' },
  ];
  const configs = [null, undefined, 42, {}, [], '', '{', '\u0000', 'null'];
  for (const params of weird) {
    for (const config of configs) {
      const label = `${String(config)} / ${typeof params === 'symbol' ? 'symbol' : String(params)}`;
      const r = eng.estimate(/** @type {any} */ (config), /** @type {any} */ (params));
      assert.equal(typeof r, 'object', label);
      assert.ok('error' in r || 'peak_bytes' in r, label);
      if ('error' in r) assert.equal(typeof r.error.message, 'string', label);
      const v = eng.validate(/** @type {any} */ (config), /** @type {any} */ (params));
      assert.ok(Array.isArray(v), label);
      assert.equal(v.length === 0, 'peak_bytes' in r, `${label}: validate and estimate disagree`);
    }
  }
  // The values a CLI flag would carry: a bigint and -0 are plain numbers.
  assert.equal(eng.estimate(null, { ...model, ...BASE, pp_size: 4n }).inputs.pp_size, 4);
  assert.equal(eng.estimate(null, { ...model, ...BASE, pp_size: [4] }).error.field, 'pp_size');
  assert.equal(eng.estimate(null, { ...model, ...BASE, pp_size: null }).error.code, 'missing');
  assert.equal(eng.modelConfig(/** @type {any} */ (42)), null);
  assert.equal(eng.modelConfig('no-such-model'), null);
});

test('the glue refuses text after the parameters JSON, as the config reader does', async () => {
  requireBuilds();
  /** @type {any} */
  let instance = null;
  const real = (await import('../../public/memest.js')).default;
  await createEngine({ factory: async (/** @type {any} */ args) => (instance = await real(args)) });
  /** @param {string} name @param {string} params */
  const call = (name, params) => {
    const size = instance.lengthBytesUTF8(params) + 1;
    const arg = instance._malloc(size);
    instance.stringToUTF8(params, arg, size);
    const out = instance[name](0, arg);
    instance._free(arg);
    try {
      return JSON.parse(instance.UTF8ToString(out));
    } finally {
      instance._memest_wasm_free(out);
    }
  };
  // The glue takes text: engine.js writes each number as String(n).
  const text = Object.fromEntries(Object.entries(BASE).map(([k, v]) => [k, String(v)]));
  const good = JSON.stringify({ model: 'qwen3-30b-a3b', ...text });
  assert.ok('peak_bytes' in call('_memest_wasm_estimate', good), 'the object alone is read');
  const number = call('_memest_wasm_estimate', JSON.stringify({ model: 'qwen3-30b-a3b', ...text, pp_size: 4 }));
  assert.equal(number.error?.code, 'value', 'a JSON number is not text');
  assert.match(number.error.message, /^--pp-size must be text \(a number as its text\) or true\/false, got a number$/);
  assert.ok('peak_bytes' in call('_memest_wasm_estimate', `${good} \n`), 'whitespace after it is fine');
  for (const tail of [' {"pp_size": 8}', ' x', ',', ' []']) {
    const r = call('_memest_wasm_estimate', good + tail);
    assert.equal(r.error?.code, 'json', `${JSON.stringify(tail)}: ${JSON.stringify(r)}`);
    assert.match(r.error.message, /with nothing after it/);
    const plan = call('_memest_wasm_plan', JSON.stringify({ model: 'qwen3-30b-a3b', gpu: 'h100' }) + tail);
    assert.equal(plan.error?.code, 'json', `plan ${JSON.stringify(tail)}: ${JSON.stringify(plan)}`);
  }
});
