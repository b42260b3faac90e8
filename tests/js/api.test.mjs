// api.test.mjs — the engine's descriptive calls agree with the CLI and the
// files they come from: version, presets, preset configs, parameter
// descriptions; and numbers reach the core as the text JavaScript gives
// them, neither rounded nor padded.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ROOT, assertSameOutcome, cliArgs, engine, requireBuilds, runCli } from './support.mjs';

test('version equals memest --version', async () => {
  requireBuilds();
  const eng = await engine();
  const run = await runCli(['--version']);
  assert.equal(run.stdout.trim(), `memest ${eng.version}`);
});

test('presets equal memest --list-models and --list-gpus', async () => {
  requireBuilds();
  const { models, gpus } = (await engine()).presets();
  // Each line is a preset's name and its hub id, org/title.
  const listed = (await runCli(['--list-models'])).stdout.trim().split('\n')
    .map((l) => { const [name, id] = l.trim().split(/\s+/); return { name, title: id.split('/')[1], id }; });
  assert.deepStrictEqual(models, listed);

  const lines = (await runCli(['--list-gpus'])).stdout.trim().split('\n');
  assert.equal(gpus.length, lines.length);
  gpus.forEach((g, i) => {
    assert.ok(Number.isSafeInteger(g.bytes) && g.bytes > 0, g.name);
    const m = /^(\S+)\s+(.*?)\s+([0-9.]+) GiB$/.exec(lines[i]);
    assert.ok(m, lines[i]);
    assert.deepStrictEqual([g.name, g.title, (g.bytes / 2 ** 30).toFixed(2)], [m[1], m[2], m[3]]);
  });
});

test('modelConfig() returns each presets/*.json byte for byte', async () => {
  requireBuilds();
  const eng = await engine();
  const files = readdirSync(path.join(ROOT, 'presets')).filter((f) => f.endsWith('.json')).sort();
  assert.deepStrictEqual(eng.presets().models.map((m) => `${m.name}.json`), files);
  for (const f of files) {
    assert.equal(eng.modelConfig(path.basename(f, '.json')), readFileSync(path.join(ROOT, 'presets', f), 'utf8'), f);
  }
});

test('parameters() describe every flag of memest --help', async () => {
  requireBuilds();
  const params = (await engine()).parameters();
  const out = (await runCli(['--help'])).stdout;
  const help = out.slice(out.indexOf('Parameters:'));
  assert.equal(params.length, 26);
  assert.equal(new Set(params.map((p) => p.name)).size, params.length);
  for (const p of params) {
    assert.equal(p.flag, `--${p.name.replace(/_/g, '-')}`);
    assert.ok(['int', 'number', 'enum', 'bool', 'text'].includes(p.kind), p.name);
    assert.equal(typeof p.required, 'boolean');
    assert.equal(p.kind === 'enum', p.choices.length > 0, p.name);
    const line = help.split('\n').find((l) => l.trim().startsWith(`${p.flag} `));
    assert.ok(line, `${p.flag} in --help`);
    assert.ok(line.includes(p.meaning), p.name);
    if (p.choices.length) assert.ok(line.includes(`{${p.choices.join('|')}}`), p.name);
    assert.equal(line.includes('[required]'), p.required, p.name);
  }
  assert.deepStrictEqual(params.filter((p) => p.required).map((p) => p.name), [
    'model', 'pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size',
    'global_batch_size', 'sequence_length', 'gpu_memory_gb',
  ]);
});

test('parameters() give a form what it needs: the example, sliders inside the accepted range, each choice titled', async () => {
  requireBuilds();
  const eng = await engine();
  for (const p of eng.parameters()) {
    if (p.required) assert.notEqual(p.example, '', `${p.name}: a required input has an example value`);
    if (p.example && p.kind === 'enum') assert.ok(p.choices.length === 0 || p.choices.includes(p.example), p.name);
    if (p.example && (p.kind === 'int' || p.kind === 'number')) {
      assert.ok(Number(p.example) >= p.min && Number(p.example) <= p.max, `${p.name} example ${p.example}`);
    }
    if (p.slider) {
      assert.ok(p.kind === 'int' || p.kind === 'number', `${p.name} has a slider`);
      assert.ok(p.slider.min >= p.min && p.slider.max <= p.max && p.slider.min < p.slider.max, `${p.name} slider`);
      assert.ok(p.slider.step > 0 && (p.kind !== 'int' || Number.isInteger(p.slider.step)), `${p.name} step`);
    }
    assert.ok(p.choice_titles.length === 0 || p.choice_titles.length === p.choices.length, `${p.name} titles`);
  }
  // The example estimates, and is the command the CLI gives as its example.
  const example = Object.fromEntries(eng.parameters().filter((p) => p.example).map((p) => [p.name, p.example]));
  delete example.gpu_memory_gb; // the example names its GPU
  const r = eng.estimate(null, example);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  const missing = await runCli([]);
  assert.ok(missing.stderr.includes(`Example: ${r.command}\n`), `${r.command}\n${missing.stderr}`);
  // The components: the static ones first, then the dynamic ones.
  const groups = eng.names().components.map((c) => c.group);
  assert.deepEqual(groups, [...groups].sort((a, b) => (a === b ? 0 : a === 'static' ? -1 : 1)));
  assert.deepEqual([...new Set(groups)], ['static', 'dynamic']);
});

test('numbers reach the core as JavaScript writes them', async () => {
  requireBuilds();
  const eng = await engine();
  const base = {
    model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
    global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
  };
  // Each value's text shows in the core's message or the command line.
  const cases = [
    [{ ep_imbalance: 0.3 }, 'got 0.3'],
    [{ fragmentation: 1.0000000000000002 }, 'got 1.0000000000000002'],
    [{ pp_size: 1e21 }, "got '1e+21'"],
    [{ pp_size: 4.000000000000001 }, "got '4.000000000000001'"],
    [{ gpu: undefined, gpu_memory_gb: -79.19000000000001 }, 'got -79.19000000000001'],
    [{ ep_imbalance: 1.1 }, '--ep-imbalance 1.1'],
  ];
  for (const [extra, text] of cases) {
    const params = { ...base, ...extra };
    const r = eng.estimate(null, params);
    assert.ok((r.error?.message ?? r.command).includes(text), `${JSON.stringify(extra)}: ${JSON.stringify(r.error ?? r.command)}`);
    assertSameOutcome(await runCli([...cliArgs(params), '--json']), r, JSON.stringify(extra));
  }
  // Any double: the core's message quotes the value as String(v) writes it.
  const bits = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 2000; i++) {
    bits.setUint32(0, (Math.random() * 2 ** 32) >>> 0);
    bits.setUint32(4, (Math.random() * 2 ** 32) >>> 0);
    const v = -Math.abs(bits.getFloat64(0));
    if (!Number.isFinite(v) || v === 0) continue;
    const r = eng.estimate(null, { ...base, gpu: undefined, gpu_memory_gb: v });
    assert.ok(r.error?.message.includes(`got ${String(v)}`), `${String(v)}: ${JSON.stringify(r.error)}`);
  }
});

test('hubIdProblem() is the CLI\'s rule for a hub id; configProblem() its reading of a config', async () => {
  requireBuilds();
  const eng = await engine();
  assert.equal(eng.hubIdProblem('Qwen/Qwen3-30B-A3B'), '');
  assert.equal(eng.hubIdProblem('org/name.with-dots_1'), '');
  for (const bad of ['noslash', 'a/b/c', 'org/', '-org/name', 'org/na--me', 'org/name.git', `org/${'x'.repeat(100)}`, 'org/na me', '']) {
    const why = eng.hubIdProblem(bad);
    assert.notEqual(why, '', bad);
    // The CLI says the same of a --model value that is no file.
    const cli = await runCli(['--model', bad, '--pp-size', '1', '--ep-size', '1', '--cp-size', '1',
      '--total-gpus', '1', '--micro-batch-size', '1', '--global-batch-size', '2', '--sequence-length', '4096', '--gpu', 'h100']);
    if (bad.includes('/')) assert.ok(cli.stderr.includes(`nor is it a hub id: ${why}`), `${bad}: ${cli.stderr}`);
  }
  assert.equal(eng.configProblem(eng.modelConfig('qwen3-30b-a3b')), '');
  assert.match(eng.configProblem('<html>'), /not valid JSON/);
  assert.match(eng.configProblem('{"model_type": 5}'), /./);
});
