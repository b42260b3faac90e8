// The page's panels, charts, keys and words (Debian's Chromium through
// playwright-core, and the drawing and request code under Node): a log's
// launch line of another run named and offered, the Measured run card a
// drop zone whole; the Plan tab on the calculator's nodes; Compare's B
// with its warnings, its name and the calculator's fields; the hub field's
// ids, presets and model page addresses; the charts' labels clear of the
// capacity line and a legend with every component drawn; the Plan tab's
// answer above the fold on a phone; focus on file choosers, keys and a
// table for the routing chart, whose margin names its rank; and the words
// a user reads.
// node --test tests/page/panels.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, fileSession, stateLink, waitForResult, seqOf, drop } from './support.mjs';
import { DEFAULTS } from '../../web/app/state.js';
import { planRequest, wholeNodes } from '../../web/app/plan/requests.js';
import { sideWords } from '../../web/app/plan/compare-warnings.js';
import { launchDifferences } from '../../web/app/measured.js';
import { folderExample } from '../../web/app/trainer-files.js';
import { plotBox, xRange, yMax, drawTimeline } from '../../web/app/timeline-plot.js';
import { timelineData } from '../../web/app/timeline-data.js';
import { inputRange } from '../../web/app/input-ranges.js';

const session = fileSession();
const GIB = 2 ** 30;
const T = path.join(ROOT, 'tests', 'trainer');
const read = (rel) => readFileSync(path.join(T, rel), 'utf8');
const BENCH = 'benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py';
const SETUP = 'benchmarks/pretraining/tiny/setup.py';

/** A page at the state `patch`, its first answer shown. */
async function open(patch = {}, size = {}) {
  const page = await session.newPage(size);
  await page.goto(stateLink(session.url, patch));
  await waitForResult(page);
  return page;
}

/** Whether two client rects share a horizontal band (their y ranges overlap). */
const overlapY = (a, b) => a.y < b.y + b.height && b.y < a.y + a.height;

// ---- the Measured run panel ----

test('a log of another run is said to differ, input by input, and its inputs fill the calculator on a click', async () => {
  const page = await open();
  // The benchmark log's launch line: Muon, force-balanced routing; the calculator: AdamW, measured.
  await drop(page, '[data-testid=measured] .paste-log', [{ name: 'benchmark.log', text: read('logs/benchmark.log') }]);
  await page.getByTestId('measured-other-run').waitFor();
  const fields = await page.locator('[data-testid=measured-differences] li').evaluateAll((els) => els.map((e) => e.dataset.field));
  assert.deepEqual(fields.sort(), ['optimizer', 'routing']);
  assert.match(await page.getByTestId('measured-other-run').textContent(), /describes another run than the calculator’s/);
  // The comparison is still shown, and nothing entered the calculator.
  await page.getByTestId('measured-log-summary').waitFor();
  assert.equal(await page.locator('[data-field=optimizer] select').inputValue(), 'adamw');
  assert.equal(await page.getByTestId('trainer-source').count(), 0, 'the Measured run panel keeps its files');
  const seq = await seqOf(page);
  await page.getByTestId('use-log-inputs').click();
  await waitForResult(page, seq);
  assert.equal(await page.locator('[data-field=optimizer] select').inputValue(), 'muon');
  assert.equal(await page.locator('[data-field=routing] select').inputValue(), 'balanced');
  await page.getByTestId('measured-other-run').waitFor({ state: 'detached' });
  await page.close();
});

test('a drop on the Measured run card\'s title is the card\'s, not the calculator\'s', async () => {
  const page = await open({ pp_size: 2, total_gpus: 16 });
  await drop(page, '#measured-title', [{ name: 'benchmark.log', text: read('logs/benchmark.log') }]);
  await page.getByTestId('measured-log-summary').waitFor();
  // The log's launch line (pp 4) did not fill the calculator.
  assert.equal(await page.locator('[data-field=pp_size] input[type=number]').inputValue(), '2');
  assert.equal(await page.getByTestId('trainer-source').count(), 0);
  const diff = await page.locator('[data-testid=measured-differences] li').evaluateAll((els) => els.map((e) => e.dataset.field));
  assert.ok(diff.includes('pp_size') && diff.includes('total_gpus') === false, diff.join());
  await page.close();
});

test('launchDifferences names each input the launch line sets otherwise, the model included', () => {
  const state = { ...DEFAULTS };
  assert.deepEqual(launchDifferences({ pp_size: 4, ep_size: 8 }, state), []);
  assert.deepEqual(launchDifferences({ pp_size: 2, model: 'mixtral-8x7b', config: '' }, state), [
    { field: 'pp_size', log: 2, page: 4 }, { field: 'model', log: 'mixtral-8x7b', page: 'qwen3-30b-a3b' },
  ]);
  assert.deepEqual(launchDifferences({ gpu: 'h200', gpu_memory_gb: 80 }, state), [{ field: 'gpu', log: 'h200', page: 'h100' }]);
});

// ---- the Plan tab on the calculator's nodes ----

test('the plan request takes the calculator\'s GPUs per node for a budget of whole nodes', () => {
  const s = { ...DEFAULTS, view: 'plan' };
  assert.equal(planRequest(s).request.gpus_per_node, 8);
  assert.equal(planRequest({ ...s, gpus_per_node: 4 }).request.gpus_per_node, 4);
  assert.equal('gpus_per_node' in planRequest({ ...s, plan_total_gpus: 4 }).request, false, 'part of a node counts GPUs alone');
  assert.equal('gpus_per_node' in planRequest({ ...s, plan_total_gpus: 12 }).request, false);
  const vary = { ...s, plan_question: 'vary', plan_vary: 'pp', plan_hold: 'gpus' };
  assert.equal(planRequest(vary).request.gpus_per_node, 8);
  assert.equal('gpus_per_node' in planRequest({ ...vary, plan_hold: 'dp' }).request, false, 'dp held: the totals vary');
  assert.equal(wholeNodes(16, 8), true);
  assert.equal(wholeNodes(8, 16), false);
});

test('the Plan tab lays out the calculator\'s nodes: rows count them, and expert parallelism across nodes is marked', async () => {
  const page = await session.newPage();
  await page.goto(stateLink(session.url, { view: 'plan', plan_ep: 16 }));
  await page.getByTestId('plan-answer').waitFor({ timeout: 20000 });
  // The CLI with the calculator's 8 GPUs per node.
  const cli = JSON.parse(execFileSync(CLI, ['plan', '--json', '--model', 'qwen3-30b-a3b', '--gpu', 'h100', '--global-batch-size', '1024',
    '--sequence-length', '4096', '--total-gpus', '32', '--gpus-per-node', '8', '--ep-size', '16', '--micro-batch-size', '1,2,4'], { encoding: 'utf8' }));
  assert.equal(cli.rows[0].ep_across_nodes, true);
  assert.match(await page.getByTestId('plan-answer').textContent(), /4 nodes/);
  // ep 16 over nodes of 8 spans two: each such row is marked, as the CLI marks it.
  const marked = await page.getByTestId('across-nodes').count();
  assert.equal(marked, cli.rows.filter((r) => r.ep_across_nodes === true && r.status !== 'INVALID').length);
  assert.ok(marked > 0);
  await page.close();
});

// ---- Compare ----

test('Compare shows B\'s warnings, names B as B, and has the calculator\'s fields', async () => {
  const page = await session.newPage();
  await page.goto(stateLink(session.url, { view: 'compare', cmp_model: 'mixtral-8x7b' }));
  await page.getByTestId('compare-table').waitFor({ timeout: 20000 });
  const warn = page.getByTestId('compare-b-warnings');
  await warn.waitFor();
  assert.match(await warn.textContent(), /B’s warnings.*not one the trainer runs/s);
  // No box the calculator does not have; each number is the calculator's slider and range.
  assert.equal(await page.locator('[data-field=cmp_ep_imbalance]').count(), 0);
  for (const key of ['pp_size', 'total_gpus', 'sequence_length', 'fragmentation']) {
    const range = page.locator(`[data-field=cmp_${key}] input[type=range]`);
    const calc = inputRange(key);
    const lo = Number(await range.getAttribute('min'));
    const hi = Number(await range.getAttribute('max'));
    const log2 = calc.scale === 'log2';
    assert.deepEqual([lo, hi], log2 ? [Math.log2(calc.min), Math.log2(calc.max)] : [calc.min, calc.max], key);
  }
  // An invalid B is named B.
  await page.goto(stateLink(session.url, { view: 'compare', cmp_pp_size: 5 }));
  const error = page.getByTestId('compare-error');
  await error.waitFor({ timeout: 20000 });
  const text = await error.textContent();
  assert.match(text, /^B \(pp 5/);
  assert.doesNotMatch(text, /configuration 2/);
  await page.close();
});

test('the calculator\'s own sliders have the ranges Compare takes: the core\'s', async () => {
  const page = await open();
  for (const key of ['pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'global_batch_size', 'sequence_length', 'fragmentation']) {
    const range = page.locator(`.panel [data-field=${key}] input[type=range]`);
    const calc = inputRange(key);
    const want = calc.scale === 'log2' ? [Math.log2(calc.min), Math.log2(calc.max)] : [calc.min, calc.max];
    assert.deepEqual([Number(await range.getAttribute('min')), Number(await range.getAttribute('max'))], want, key);
  }
  await page.close();
});

test('sideWords names the planner\'s configurations as A and B', () => {
  assert.equal(sideWords('configuration 2 (pp 5, ep 8): --pp-size 5 …'), 'B (pp 5, ep 8): --pp-size 5 …');
  assert.equal(sideWords('configuration 1 (pp 4): x'), 'A (pp 4): x');
});

// ---- the hub field ----

test('the hub field: a preset\'s id and its page\'s address answer as typed; a new text clears the old message', async () => {
  const page = await open();
  const field = page.getByTestId('hub-id');
  // A refused text, then a new one: the old message goes at once.
  await field.fill('not an id');
  await field.press('Enter');
  await page.getByTestId('hub-problem').waitFor();
  await field.fill('Qwen/Qwen3');
  assert.equal(await page.getByTestId('hub-problem').count(), 0, 'the message of the old text is gone');
  // A preset's id: the preset at once, no Enter, no fetch.
  const seq = await seqOf(page);
  await field.fill('mistralai/Mixtral-8x7B-v0.1');
  await page.waitForFunction(() => document.querySelector('[data-field=model] select')?.value === 'mixtral-8x7b');
  await waitForResult(page, seq);
  assert.match(await page.getByTestId('hub-status').textContent(), /is the preset Mixtral-8x7B-v0\.1/);
  // The model page's address, as a browser shows it.
  for (const [address, preset] of [['https://huggingface.co/Qwen/Qwen3-30B-A3B', 'qwen3-30b-a3b'],
    ['http://hf.co/deepseek-ai/DeepSeek-V2-Lite/tree/main', 'deepseek-v2-lite'], ['huggingface.co/openai/gpt-oss-20b/', 'gpt-oss-20b']]) {
    await field.fill(address);
    await page.waitForFunction((w) => document.querySelector('[data-field=model] select')?.value === w, preset);
  }
  // An address of another host is refused by the core's words.
  await field.fill('https://example.com/Qwen/Qwen3-30B-A3B');
  await field.press('Enter');
  assert.match(await page.getByTestId('hub-problem').textContent(), /is not a hub id: it is an address, but not of a model's page on huggingface\.co or hf\.co/);
  await page.close();
});

test('the CLI reads a model page\'s address as the page does', () => {
  const args = ['--pp-size', '4', '--ep-size', '8', '--cp-size', '1', '--total-gpus', '32', '--micro-batch-size', '1',
    '--global-batch-size', '1024', '--sequence-length', '4096', '--gpu', 'h100', '--json'];
  const byId = JSON.parse(execFileSync(CLI, ['--model', 'Qwen/Qwen3-30B-A3B', ...args], { encoding: 'utf8' }));
  const byPage = JSON.parse(execFileSync(CLI, ['--model', 'https://huggingface.co/Qwen/Qwen3-30B-A3B/tree/main', ...args], { encoding: 'utf8' }));
  assert.equal(byPage.peak_bytes, byId.peak_bytes);
});

// ---- charts ----

test('the rank chart\'s bar values stay clear of the capacity line', async () => {
  const page = await open({ sequence_length: 6656 });
  const cap = await page.locator('.rank-capacity').boundingBox();
  const values = await page.locator('.rank-bars .bar-value').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.ok(values.length >= 4);
  for (const v of values) assert.ok(!overlapY(v, { y: cap.y - 1, height: cap.height + 2 }), `a value label at ${v.y}–${v.y + v.height} is struck by the line at ${cap.y}`);
  await page.close();
});

test('the timeline\'s "peak" label sits clear of the capacity line', () => {
  globalThis.Path2D ??= class { moveTo() {} lineTo() {} closePath() {} };
  const comps = { master_params: [2 * GIB, 2 * GIB, 2 * GIB], activations: [GIB, 70 * GIB, GIB] };
  const rank = {
    pp_rank: 0, peak_event_index: 1, events_total: 3, non_pytorch_bytes: GIB, fragmentation_bytes: GIB, tensor_peak_bytes: 72 * GIB, peak_bytes: 74 * GIB,
    events: [0, 1, 2].map((index) => ({ index, step: 1, label: `op ${index}`, total_bytes: 0, peak_bytes: 0, live_chunks: [0, 0] })),
    event_components: comps, event_steps: [1, 1, 1],
  };
  const data = timelineData(rank);
  for (const capacity of [79.2 * GIB, 76 * GIB, 200 * GIB]) {
    const texts = [];
    const ctx = new Proxy({}, {
      get: (o, k) => (k === 'fillText' ? (t, x, y) => texts.push([t, y]) : k === 'measureText' ? (t) => ({ width: String(t).length * 6 }) : k in o ? o[k] : () => {}),
      set: (o, k, v) => { o[k] = v; return true; },
    });
    const dpr = 2;
    drawTimeline(ctx, { width: 800, height: 260, dpr, data, capacity, scheme: 'light' });
    const box = plotBox(800, 260);
    const top = yMax(data, xRange(data.x), capacity);
    const capY = (box.top + box.height - (capacity / GIB / top) * box.height) * dpr;
    const peak = texts.find(([t]) => t === 'peak');
    assert.ok(peak, 'the peak is labelled');
    const [, base] = peak;
    assert.ok(capY < base - 12 * dpr || capY > base + 3 * dpr, `capacity ${capacity / GIB} GiB: the line at ${capY} crosses "peak" (baseline ${base})`);
  }
});

test('the timeline\'s key lists every component its readout can show', async () => {
  const page = await open();
  const names = (sel) => page.locator(sel).evaluateAll((els) => els.map((e) => e.textContent.trim()));
  const key = await names('[data-testid=timeline-hover] .hover-parts li');
  const plot = page.locator('.timeline-plot');
  await plot.focus();
  const seen = new Set();
  for (const k of ['End', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'PageDown', 'PageDown', 'Home', 'PageUp', 'PageUp', 'PageUp', 'PageUp', 'PageUp']) {
    await plot.press(k);
    for (const n of await names('[data-testid=timeline-hover] .hover-parts li')) seen.add(n);
  }
  const missing = [...seen].filter((n) => !key.some((k) => n.startsWith(`${k} `) || n === k));
  assert.deepEqual(missing, [], `shown on hover, missing from the key ${JSON.stringify(key)}`);
  assert.ok(key.includes('optimizer temporaries'), key.join());
  await page.close();
});

// ---- the phone ----

test('on a phone the Plan tab shows its best layout and verdict above the fold', async () => {
  const page = await session.newPage({ width: 390, height: 844, touch: true });
  await page.goto(stateLink(session.url, { view: 'plan' }));
  const answer = page.getByTestId('plan-answer');
  await answer.waitFor({ timeout: 20000 });
  const box = await answer.boundingBox();
  assert.ok(box.y + box.height <= 844, `the answer ends at ${box.y + box.height} px, below the fold`);
  assert.match(await answer.textContent(), /OK|TIGHT|OOM/);
  await page.close();
});

// ---- keys ----

test('every file chooser shows its focus', async () => {
  const page = await open();
  await page.locator('.config-editor summary').click();
  for (const input of ['[data-testid=measured-files]', '[data-testid=trainer-open]', '.config-editor input[type=file]']) {
    const el = page.locator(input);
    // Focus from the keyboard: the field before it, then Tab.
    await el.evaluate((e) => {
      const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter((x) => x.tabIndex >= 0);
      all[all.indexOf(e) - 1].focus();
    });
    await page.keyboard.press('Tab');
    assert.ok(await el.evaluate((e) => document.activeElement === e), `${input} takes the focus`);
    const ring = await el.evaluate((e) => {
      const label = e.closest('label');
      const s = getComputedStyle(label);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    assert.notEqual(ring.style, 'none', `${input}: no ring`);
    assert.ok(ring.width >= 2, `${input}: ring ${ring.width}px`);
  }
  await page.close();
});

test('the routing chart walks its points with the keys, has a table of them, and names the rank of its margin', async () => {
  const page = await open({ sequence_length: 6656, pp_rank: 2 });
  const chart = page.getByTestId('routing-chart');
  await page.waitForFunction(() => document.querySelector('[data-testid=routing-chart]')?.dataset.ready === 'true');
  assert.match(await page.getByTestId('routing-margin').textContent(), /^Pipeline rank 2 \(the rank shown\) fits up to factor/);
  const plot = page.getByTestId('routing-plot');
  await plot.focus();
  await plot.press('Home');
  assert.match(await page.getByTestId('routing-hover').textContent(), /^Factor 1\.00: peak [\d.]+ GiB of/);
  await plot.press('ArrowRight');
  const second = await page.getByTestId('routing-hover').textContent();
  assert.match(second, /^Factor 1\.\d\d: peak/);
  assert.doesNotMatch(second, /^Factor 1\.00/);
  await chart.locator('details.numbers summary').click();
  const rows = chart.getByTestId('routing-numbers').locator('tbody tr');
  assert.equal(await rows.count(), 25);
  assert.match(await rows.first().textContent(), /^1\.00[\d.]+ GiB/);
  await page.close();
  const run = await open({ sequence_length: 6656 });
  await run.waitForFunction(() => document.querySelector('[data-testid=routing-chart]')?.dataset.ready === 'true');
  assert.match(await run.getByTestId('routing-margin').textContent(), /^The run \(every pipeline rank\)/);
  await run.close();
});

// ---- words ----

test('the shown rank\'s -1 reads as the control\'s "Worst rank"', async () => {
  const page = await session.newPage();
  await page.goto(stateLink(session.url, { pp_rank: 5 }));
  const problem = page.locator('.problem[data-field=pp_rank]').first();
  await problem.waitFor();
  const text = await problem.textContent();
  assert.doesNotMatch(text, /-1|−1/, text);
  assert.match(await problem.locator('button.fix').textContent(), /^Use Worst rank$/);
  const option = await page.locator('[data-field=pp_rank] select option[value="-1"]').textContent();
  assert.equal(option, 'Worst rank');
  await problem.locator('button.fix').click();
  await waitForResult(page);
  assert.equal(await page.locator('[data-field=pp_rank] select').inputValue(), '-1');
  await page.close();
});

test('an edited preset is named by its display name', async () => {
  const page = await open({ model: 'mixtral-8x7b' });
  await page.locator('.config-editor summary').click();
  const editor = page.locator('textarea[data-field=config]');
  await editor.press('ControlOrMeta+End');
  await page.keyboard.type(' ');
  await page.waitForFunction(() => /\(edited\)/.test(document.querySelector('[data-field=model] select option:checked').textContent));
  assert.equal(await page.locator('[data-field=model] select option:checked').textContent(), 'Pasted config: Mixtral-8x7B-v0.1 (edited)');
  await page.close();
});

test('the trainer panel names the benchmark folder of the script dropped', async () => {
  const page = await open();
  await drop(page, 'main', [
    { name: path.basename(BENCH), text: read(`checkout/${BENCH}`) },
    { name: 'setup.py', text: read(`checkout/${SETUP}`) },
    { name: 'tiny-moe.json', text: read('checkout/models/tiny-moe.json') },
  ]);
  const kept = page.getByTestId('trainer-kept');
  await kept.waitFor();
  const text = await kept.textContent();
  assert.match(text, /h100-2n8g/);
  assert.doesNotMatch(text, /h100-4n8g/);
  assert.equal(folderExample('pp4-dp1-cp1-ep8-seq4096-bf16.py', { pp_size: '4' }), 'h100-4n8g');
  assert.equal(folderExample('pp1-dp1-cp1-ep4-seq2048.py', {}, 'b200'), 'b200-1n4g');
  assert.equal(folderExample('pp4-dp1-cp1-ep8-seq4096-bf16.py', { pp_size: 2 }), '', 'a name the files contradict names no folder');
  assert.equal(folderExample('run.py'), '');
  await page.close();
});

test('a GPU memory below the least gets a fix the field shows, 0.01', async () => {
  const page = await session.newPage();
  await page.goto(stateLink(session.url, { gpu: '', gpu_memory_gb: 0 }));
  const fix = page.locator('.problem[data-field=gpu_memory_gb] button.fix').first();
  await fix.waitFor();
  assert.equal(await fix.textContent(), 'Use GPU memory 0.01');
  assert.doesNotMatch(await page.locator('.problem[data-field=gpu_memory_gb]').first().textContent(), /0\.0009765625/);
  await page.close();
});

test('a stale model card is framed as the other cards are', async () => {
  const page = await open();
  const frame = (sel) => page.locator(sel).evaluate((e) => {
    const s = getComputedStyle(e);
    return { width: s.borderTopWidth, style: s.borderTopStyle, color: s.borderTopColor };
  });
  const fresh = await frame('[data-testid=model-summary]');
  assert.deepEqual(fresh, await frame('[data-testid=rank-chart]'), 'the same frame at rest');
  // Stale, as Card.jsx marks a card whose answer is not the inputs' once 300 ms have passed.
  await page.evaluate(() => {
    for (const id of ['model-summary', 'rank-chart']) document.querySelector(`[data-testid=${id}]`).classList.add('stale-shown');
  });
  const model = await frame('[data-testid=model-summary]');
  assert.deepEqual(model, await frame('[data-testid=rank-chart]'), 'the same frame stale');
  assert.equal(model.style, 'dashed');
  assert.equal(model.width, '1px');
  await page.close();
});
