// The page's handling of the trainer's files without a browser: the table
// of file kinds (page-drop.js FILE_KINDS), a dropped folder walked into
// paths, the launch script picked among .py files, a benchmark folder's
// name handed to the core, and a read run applied to the page's state
// (trainer-files.js) with the real engine. The browser side is
// trainer-drop.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../../web/engine.js';
import { FILE_KINDS, droppedFiles, kindOf, sortByKind } from '../../web/app/page-drop.js';
import { launchScript, readRun, runRequest, tooLarge } from '../../web/app/trainer-files.js';
import { DEFAULTS } from '../../web/app/state.js';
import { ROOT } from './support.mjs';

const T = path.join(ROOT, 'tests', 'trainer');
const read = (rel) => readFileSync(path.join(T, rel), 'utf8');

test('each kind is one row; W&B files come before configs, scripts and logs by name or content', () => {
  assert.deepEqual(FILE_KINDS.map((k) => k.kind), ['wandb', 'script', 'log', 'config']);
  assert.equal(kindOf('wandb-metadata.json', '{"gpu": "H100"}'), 'wandb');
  assert.equal(kindOf('config.yaml', 'distributed:\n  value:'), 'wandb');
  assert.equal(kindOf('renamed.yaml', 'wandb_version: 1\n'), 'wandb');
  assert.equal(kindOf('run.py', ''), 'script');
  assert.equal(kindOf('launch', '#!/usr/bin/env python3\n'), 'script');
  assert.equal(kindOf('node0.txt', '2026 | INFO | launch(cfg=PretrainLMCfg(distributed=DistributedCfg('), 'log');
  assert.equal(kindOf('train.log', 'step 1 | peak-gpu-memory 3 GB'), 'log');
  assert.equal(kindOf('config.json', '{"model_type": "qwen3_moe"}'), 'config');
  assert.equal(kindOf('snapshot-rank00000.pickle', '\u0080\u0004'), null);
  // Inside a dropped folder a log needs its launch line: W&B's debug logs are left aside.
  assert.equal(kindOf('run-x/logs/debug.log', '2026 INFO MainThread', true), null);
});

test('a kind takes the configs dropped with it; what a folder holds besides is left aside, not refused', () => {
  const e = (p, head = '', inFolder = false) => ({ path: p, head, inFolder });
  const { byKind, refused, aside } = sortByKind([
    e('run.py'), e('setup.py'), e('tiny-moe.json', '{"model_type": "x"}'), e('notes.md', '# notes'),
    e('run-x/logs/debug.log', 'INFO', true), e('run-x/run-x.wandb', '\u0000', true),
  ]);
  assert.deepEqual([...byKind.keys()], ['script']);
  assert.deepEqual(byKind.get('script').map((x) => x.path), ['run.py', 'setup.py', 'tiny-moe.json']);
  assert.deepEqual(refused, ['notes.md']);
  assert.deepEqual(aside, ['run-x/logs/debug.log', 'run-x/run-x.wandb']);
  // A config alone is the model's.
  assert.deepEqual([...sortByKind([e('config.json', '{}')]).byKind.keys()], ['config']);
});

/** A dropped folder as the browser's FileSystemEntry API gives it. */
function folder(name, children, at = '') {
  const full = `${at}/${name}`;
  return {
    isFile: false, isDirectory: true, fullPath: full,
    createReader() {
      let given = false;
      return { readEntries: (ok) => { ok(given ? [] : children.map((c) => c(full))); given = true; } };
    },
  };
}
const file = (name, text) => (at) => ({ isFile: true, isDirectory: false, fullPath: `${at}/${name}`, file: (ok) => ok(new File([text], name)) });
const sub = (name, children) => (at) => folder(name, children, at);

test('a dropped folder is walked into the paths of its files', async () => {
  const run = folder('run-20260723_100000-core', [
    sub('files', [file('config.yaml', 'a'), file('wandb-metadata.json', '{}'), file('output.log', 'step')]),
    sub('logs', [file('debug.log', 'INFO')]),
  ]);
  const dt = { items: [{ kind: 'file', webkitGetAsEntry: () => run }], files: [] };
  const { files, over } = await droppedFiles(/** @type {any} */ (dt));
  assert.equal(over, 0);
  assert.deepEqual(files.map((f) => [f.path, f.inFolder]), [
    ['run-20260723_100000-core/files/config.yaml', true], ['run-20260723_100000-core/files/wandb-metadata.json', true],
    ['run-20260723_100000-core/files/output.log', true], ['run-20260723_100000-core/logs/debug.log', true],
  ]);
  // Without entries (a synthetic drop), the files as they are.
  const plain = await droppedFiles(/** @type {any} */ ({ items: [], files: [new File(['x'], 'a.py')] }));
  assert.deepEqual(plain.files.map((f) => [f.path, f.inFolder]), [['a.py', false]]);
});

test('the launch script is the .py that is not a module; several are a choice; a folder gives its name', () => {
  assert.deepEqual(launchScript(['setup.py', 'h100-2n8g/run.py']), { script: 'h100-2n8g/run.py', choices: [] });
  assert.deepEqual(launchScript(['setup.py']), { script: 'setup.py', choices: [] });
  assert.deepEqual(launchScript(['setup.py', 'a.py', 'b.py']), { script: null, choices: ['a.py', 'b.py'] });
  const r = runRequest('script', { 'tiny/h100-2n8g/run.py': 'x', 'tiny/setup.py': 'y' });
  assert.deepEqual(r.request, { kind: 'script', files: { 'tiny/h100-2n8g/run.py': 'x', 'tiny/setup.py': 'y' }, script: 'tiny/h100-2n8g/run.py', folder: 'h100-2n8g' });
  assert.deepEqual(runRequest('script', { 'a.py': '', 'b.py': '' }).choices, ['a.py', 'b.py']);
  // A log is read first, whatever came with it.
  assert.deepEqual(Object.keys(runRequest('log', { 'm.json': '{}', 'run.log': 'x' }).request.files), ['run.log', 'm.json']);
});

test('a benchmark folder dropped with its setup.py fills the GPU and count too, as `memest --script` reads them', async () => {
  const engine = await createEngine();
  const client = { readTrainerFiles: async (r) => engine.readTrainerFiles(r) };
  const BENCH = 'benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py';
  const entries = [
    { path: `h100-2n8g/${path.basename(BENCH)}`, file: new File([read(`checkout/${BENCH}`)], path.basename(BENCH)) },
    { path: 'setup.py', file: new File([read('checkout/benchmarks/pretraining/tiny/setup.py')], 'setup.py') },
    { path: 'models/tiny-moe.json', file: new File([read('checkout/models/tiny-moe.json')], 'tiny-moe.json') },
  ];
  const r = /** @type {any} */ (await readRun(client, 'script', entries, DEFAULTS));
  assert.equal(r.patch.total_gpus, 16);
  assert.equal(r.patch.gpu, 'h100');
  assert.equal(r.patch.pp_size, 2);
  assert.equal(r.patch.routing, 'balanced');
  assert.equal(r.patch.model, 'tiny-moe');
  assert.equal(r.record.read.total_gpus, 'h100-2n8g');
  assert.deepEqual(r.record.kept, []);
  // A file over its kind's limit is refused as the CLI refuses it.
  const big = { size: 2 * 1024 * 1024 };
  assert.match(tooLarge('script', 'run.py', big.size), /^launch script 'run\.py' is 2,097,152 bytes \(2\.0 MiB\), over MEMEST_MAX_SCRIPT_BYTES = 1048576 bytes; /);
});
