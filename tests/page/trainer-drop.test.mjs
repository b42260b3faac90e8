// The trainer's own files dropped on the page (Debian's Chromium,
// playwright-core): a launch script with its setup.py (dropped together,
// or the page asking for the missing setup.py by name), a log's launch
// line and a W&B run's files fill the calculator's inputs, with the model
// from a preset, a config dropped with them or a hub id left for the hub
// field; beside each input, the file and line it came from; what could not
// be read, and what the page kept of its own, said next to them. The
// estimate is the CLI's for the same files (`memest --script`, `check
// --log`, `check --wandb`). Files dropped on the Measured run panel stay
// there. The fixtures are the repository's own, written in the trainer's
// forms (tests/trainer/). Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, fileSession, waitForResult, seqOf, drop } from './support.mjs';

const session = fileSession();
const T = path.join(ROOT, 'tests', 'trainer');
const CHECKOUT = path.join(T, 'checkout');
const BENCH = 'benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py';
const SETUP = 'benchmarks/pretraining/tiny/setup.py';
const read = (rel) => readFileSync(path.join(T, rel), 'utf8');

/** The CLI's JSON for `args`, run from the trainer's stand-in checkout. */
function cliJson(args) {
  return JSON.parse(execFileSync(CLI, [...args, '--json'], { cwd: CHECKOUT, encoding: 'utf8' }));
}

/** The CLI's estimate of the inputs a source object's `values` give, with `extra` flags. */
function estimateOf(values, extra) {
  const flags = { ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.value])), ...extra };
  return JSON.parse(execFileSync(CLI, ['--json', ...Object.entries(flags).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)])], { encoding: 'utf8' }));
}

/** Each input's "from …" note beside it: {field: "file:line"}. */
function fromNotes(page) {
  return page.locator('.from-file[data-from]').evaluateAll((els) => Object.fromEntries(els.map((el) => [el.dataset.testid.replace(/^from-/, ''), el.dataset.from])));
}

/** The value of the number box of input `field`. */
const box = (page, field) => page.locator(`[data-field=${field}] input[type=number]`).inputValue();

test('a benchmark script with its setup.py and model config fills the inputs, each saying its file and line', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const seq = await seqOf(page);
  await drop(page, 'main', [
    { name: path.basename(BENCH), text: read(`checkout/${BENCH}`) },
    { name: 'setup.py', text: read(`checkout/${SETUP}`) },
    { name: 'tiny-moe.json', text: read('checkout/models/tiny-moe.json') },
  ]);
  await page.getByTestId('trainer-source').waitFor();
  await waitForResult(page, seq);
  // The CLI reads the same script (its folder gives 16 H100s; the page,
  // given the files alone, keeps its own 32).
  const cli = cliJson(['--script', BENCH, '--total-gpus', '32']);
  const values = cli.source.values;
  for (const f of ['pp_size', 'ep_size', 'cp_size', 'micro_batch_size', 'global_batch_size', 'sequence_length']) {
    assert.equal(await box(page, f), values[f].value, f);
  }
  assert.equal(await page.locator('[data-field=optimizer] select').inputValue(), values.optimizer.value);
  assert.equal(await page.locator('[data-field=routing] select').inputValue(), values.routing.value);
  assert.equal(await page.locator('[data-field=model] select option:checked').textContent(), 'Pasted config: tiny-moe');
  // Beside each input: the file and line, as the CLI's source names them (by the dropped names).
  const notes = await fromNotes(page);
  const byName = (at) => at.replace(/^.*\//, '');
  for (const [f, at] of Object.entries(cli.source.read)) {
    if (f === 'total_gpus' || f === 'gpu') continue;
    assert.equal(notes[f], byName(at), f);
  }
  assert.equal(notes.pp_size, 'pp2-dp2-cp1-ep4-seq2048-bf16.py:8');
  assert.equal(notes.routing, 'setup.py:40');
  // What the files do not say stays the page's, and the panel says so.
  assert.equal(await box(page, 'total_gpus'), '32');
  assert.match(await page.getByTestId('trainer-kept').textContent(), /The files do not say total GPUs or GPU: the page keeps its own/);
  assert.match(await page.getByTestId('trainer-regime').textContent(), /a benchmark run: the trainer’s force-balanced routing \(setup\.py:40\)/);
  // The estimate is the CLI's for the script.
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), cli.peak_bytes);
  // Once an input is changed by hand, it no longer claims the file.
  await page.locator('[data-field=pp_size] input[type=number]').fill('1');
  await page.waitForFunction(() => !document.querySelector('[data-testid=from-pp_size]'));
  assert.ok(await page.getByTestId('from-ep_size').count());
  await page.close();
});

test('a script dropped alone asks for its setup.py by name; dropping it then fills the inputs', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await drop(page, '.outputs', [{ name: 'run.py', text: read(`checkout/${BENCH}`) }]);
  const missing = page.getByTestId('trainer-missing');
  await missing.waitFor();
  assert.equal(await missing.getAttribute('data-module'), 'setup');
  assert.match(await missing.textContent(), /run\.py imports setup: drop setup\.py too/);
  assert.equal(await box(page, 'pp_size'), '4', 'nothing changed yet');
  const seq = await seqOf(page);
  await drop(page, 'main', [{ name: 'setup.py', text: read(`checkout/${SETUP}`) }]);
  await page.getByTestId('trainer-files').waitFor();
  await waitForResult(page, seq);
  assert.equal(await missing.count(), 0);
  assert.equal(await box(page, 'pp_size'), '2');
  assert.equal(await box(page, 'global_batch_size'), '256');
  // Its model, models/tiny-moe.json, was not dropped: said beside the model, which stays.
  assert.match(await page.getByTestId('not-read-model').textContent(), /training\.model is models\/tiny-moe\.json \(setup\.py:32\), which is not among the files: drop that config\.json with them, or pick a preset/);
  assert.equal(await page.locator('[data-field=model] select').inputValue(), 'qwen3-30b-a3b');
  await page.close();
});

test('a log\'s launch line fills the inputs; its model path is the trainer\'s own config, a preset', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.locator('[data-field=pp_size] input[type=number]').fill('2');
  await waitForResult(page);
  const seq = await seqOf(page);
  await drop(page, 'main', [{ name: 'restarted.log', text: read('logs/restarted.log') }]);
  await page.getByTestId('trainer-files').waitFor();
  await waitForResult(page, seq);
  const cli = cliJson(['check', '--log', path.join(T, 'logs', 'restarted.log'), '--total-gpus', '32', '--gpu', 'h100']);
  const notes = await fromNotes(page);
  for (const [f, at] of Object.entries(cli.source.read)) {
    if (f === 'total_gpus' || f === 'gpu') continue;
    assert.equal(notes[f], at.replace(/^.*\//, ''), f);
  }
  assert.equal(await box(page, 'pp_size'), cli.source.values.pp_size.value);
  assert.equal(await page.locator('[data-field=model] select').inputValue(), 'qwen3-30b-a3b');
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')),
    estimateOf(cli.source.values, { model: 'qwen3-30b-a3b', total_gpus: 32, gpu: 'h100' }).peak_bytes);
  // The restart is said, as the CLI says it.
  const text = await page.getByTestId('trainer-source').textContent();
  for (const n of cli.source.notes) assert.ok(text.includes(n.replace(`${path.join(T, 'logs')}/`, '')), n);
  await page.close();
});

test('a W&B run\'s files fill every input, the GPU and count too, and name the trainer commit', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const run = 'wandb/run-20260723_100000-core/files';
  const seq = await seqOf(page);
  await drop(page, 'main', ['config.yaml', 'wandb-metadata.json', 'wandb-summary.json', 'output.log']
    .map((f) => ({ name: f, text: read(`${run}/${f}`) })));
  await page.getByTestId('trainer-files').waitFor();
  await waitForResult(page, seq);
  const cli = cliJson(['check', '--wandb', path.join(T, 'wandb', 'run-20260723_100000-core')]);
  assert.equal(await box(page, 'total_gpus'), cli.source.values.total_gpus.value);
  const notes = await fromNotes(page);
  assert.equal(notes.total_gpus, 'wandb-metadata.json');
  assert.equal(notes.gpu, 'wandb-metadata.json');
  assert.equal(notes.pp_size, 'files/config.yaml:8');
  assert.equal(await page.getByTestId('trainer-kept').count(), 0, 'nothing kept: the run says it all');
  assert.match(await page.getByTestId('trainer-commit').textContent(), /^Trainer commit 287070fbcf6c \(wandb-metadata\.json git\.commit\): memest models 889a408, and \d+ later changes to memory may apply to this run\./);
  assert.match(await page.getByTestId('trainer-source').textContent(), /output\.log holds the run's steps from step 2, not its inputs: drop it on the Measured run panel/);
  // The estimate of the inputs `memest check --wandb` read.
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), estimateOf(cli.source.values, { model: 'qwen3-30b-a3b' }).peak_bytes);
  await page.close();
});

test('a hub id in training.model goes to the hub field, fetched only on a click; a refused value is said beside its input', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const before = session.requests.length;
  const setup = read(`checkout/${SETUP}`).replace('Path("models/tiny-moe.json")', '"test-org/Other-MoE"');
  const script = read('scripts/refused-expression.py');
  // setup.py alone launches no pretraining run (its own __main__ block tokenizes): the script with it.
  await drop(page, 'main', [{ name: path.basename(BENCH), text: read(`checkout/${BENCH}`) }, { name: 'setup.py', text: setup }]);
  await page.getByTestId('trainer-files').waitFor();
  assert.equal(await page.getByTestId('hub-id').inputValue(), 'test-org/Other-MoE');
  assert.match(await page.getByTestId('not-read-model').textContent(), /training\.model is the hub id test-org\/Other-MoE \(setup\.py:32\): fetch its config\.json with the Hub id field/);
  assert.deepEqual(session.requests.slice(before).filter((u) => !u.startsWith(session.url)), [], 'nothing fetched');
  // A script whose global batch is an expression: the rest is read, the batch is not, said beside it.
  await drop(page, 'main', [{ name: 'refused-expression.py', text: script }]);
  await page.locator('[data-testid=trainer-files]', { hasText: 'refused-expression.py' }).waitFor();
  assert.match(await page.getByTestId('not-read-global_batch_size').textContent(), /refused-expression\.py:11: training\.global batch is set to an arithmetic expression \(128 \* 8\)/);
  await page.close();
});

test('trainer files on the Measured run panel stay there: the inputs do not change', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await drop(page, '[data-drop-zone=measured]', [{ name: 'benchmark.log', text: read('logs/benchmark.log') }]);
  await page.getByTestId('measured-log-summary').waitFor();
  assert.equal(await page.getByTestId('trainer-source').count(), 0);
  assert.equal(await box(page, 'global_batch_size'), '1024');
  await page.close();
});
