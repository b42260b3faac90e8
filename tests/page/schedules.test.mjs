// The pipeline schedule on the page (Debian's Chromium, playwright-core),
// against the native CLI: the schedule's select changes the estimate (the
// peak card's figure is `memest --schedule X --json`'s), interleaved
// 1F1B's stages per GPU are a control and an engine input only with it;
// the Schedules tab sets the calculator's inputs under all five schedules
// side by side (`memest compare --schedules all --json`'s figures), a
// schedule the layout cannot take with the engine's refusal in its row,
// and each one's worst rank on one time axis; Compare's B has its own
// schedule. Without a browser: the state's engine inputs, the tab's key,
// rows and chart columns.
// Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, DEFAULT_PARAMS, cli, waitForResult, fileSession, stateLink } from './support.mjs';
import { DEFAULTS, normalize, toParams } from '../../web/app/state.js';
import { compareRequest, compareState } from '../../web/app/plan/requests.js';
import { scheduleNames, scheduleRow, schedulesKey, schedulesPlot } from '../../web/app/schedules.js';
import { pageWords } from '../../web/app/wording.js';

const session = fileSession();
const link = (patch) => stateLink(session.url, patch);

/** snake_case params as CLI flags. */
const flags = (params) => Object.entries(params).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)]);

/** `memest compare <params> --schedules all --json` of the build under test. */
function compareAll(params) {
  return JSON.parse(execFileSync(CLI, ['compare', ...flags(params), '--schedules', 'all', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

/** The Schedules tab's rows once its answers are the inputs' (data-current). */
async function scheduleRows(page) {
  await page.waitForSelector('[data-testid=schedules][data-current=true][aria-busy=false]', { timeout: 30000 });
  return page.locator('[data-testid=schedules-table] tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    schedule: tr.dataset.schedule, status: tr.dataset.status, peak: Number(tr.dataset.peak), activations: Number(tr.dataset.activations),
    pp_stages: Number(tr.dataset.ppStages), bubble_from: tr.dataset.bubbleFrom, text: tr.textContent,
  })));
}

test('the state keeps virtual_stages; the engine is given it only with interleaved 1F1B; old links open at DualPipeV', () => {
  assert.equal(DEFAULTS.schedule, 'dualpipev');
  assert.equal(DEFAULTS.virtual_stages, 2);
  assert.equal('virtual_stages' in toParams(DEFAULTS), false);
  assert.equal(toParams(DEFAULTS).schedule, 'dualpipev');
  for (const schedule of ['1f1b', 'zb-h1', 'dualpipe']) {
    assert.equal('virtual_stages' in toParams({ ...DEFAULTS, schedule, virtual_stages: 3 }), false, schedule);
  }
  assert.equal(toParams({ ...DEFAULTS, schedule: 'interleaved-1f1b', virtual_stages: 3 }).virtual_stages, 3);
  // A link from before the schedule: the default; a schedule the core does not name: refused, with a note.
  assert.equal(normalize({ pp_size: 2 }).state.schedule, 'dualpipev');
  const bad = normalize({ schedule: 'gpipe' });
  assert.equal(bad.state.schedule, 'dualpipev');
  assert.match(bad.notes[0], /schedule: "gpipe" is not one of dualpipev, 1f1b, interleaved-1f1b, zb-h1, dualpipe/);
  assert.equal(normalize({ view: 'schedules' }).state.view, 'schedules');
});

test('Compare: B may differ in schedule; one side given virtual_stages alone is two estimates', () => {
  const a = { ...DEFAULTS, view: 'compare' };
  const one = compareRequest(a, compareState({ ...a, cmp_schedule: '1f1b' }), []);
  assert.equal(one.mode, 'compare');
  assert.deepEqual(one.schedule, ['dualpipev', '1f1b']);
  const inter = compareRequest(a, compareState({ ...a, cmp_schedule: 'interleaved-1f1b', cmp_virtual_stages: 3 }), []);
  assert.equal(inter.mode, 'pair');
  assert.deepEqual([inter.a.params.virtual_stages, inter.b.params.virtual_stages], [undefined, 3]);
  const both = compareRequest({ ...a, schedule: 'interleaved-1f1b' }, compareState({ ...a, schedule: 'interleaved-1f1b', cmp_virtual_stages: 4 }), []);
  assert.equal(both.mode, 'compare');
  assert.deepEqual(both.virtual_stages, [2, 4]);
});

test('the Schedules tab\'s key, rows and one time axis', () => {
  assert.deepEqual(scheduleNames(), ['dualpipev', '1f1b', 'interleaved-1f1b', 'zb-h1', 'dualpipe']);
  // The schedule and the rank shown do not change the tab's answers; interleaved's stages do.
  assert.equal(schedulesKey({ ...DEFAULTS, schedule: '1f1b', pp_rank: 2 }), schedulesKey(DEFAULTS));
  assert.notEqual(schedulesKey({ ...DEFAULTS, virtual_stages: 3 }), schedulesKey(DEFAULTS));
  assert.notEqual(schedulesKey({ ...DEFAULTS, pp_size: 2 }), schedulesKey(DEFAULTS));
  const refused = scheduleRow({ schedule: 'dualpipe', error: { message: 'no' } });
  assert.deepEqual(refused, { schedule: 'dualpipe', error: { message: 'no' } });
  const result = {
    peak_bytes: 5, headroom_bytes: 1, status: 'OK', worst_rank: 0, command: 'memest',
    schedule: { name: '1f1b', title: '1F1B', pp_stages: 4, devices: 4, parameter_copies: 1, activation_microbatches_per_device: 4, trainer_runs: false },
  };
  assert.deepEqual([scheduleRow({ schedule: '1f1b', result, bubble: 0.02 }).bubble, scheduleRow({ schedule: '1f1b', result, bubble: 0.02 }).bubble_from], [0.02, 'formula']);
  const timed = scheduleRow({ schedule: '1f1b', result: { ...result, time: { bubble_fraction: 0.1, step_seconds: 3, tokens_per_second: 7 } } });
  assert.deepEqual([timed.bubble, timed.bubble_from, timed.step_seconds, timed.tokens_per_second, timed.activations], [0.1, 'replay', 3, 7, 4]);
  // Two ranks' events at their own times: one axis, the union of both, each null where the other has an event.
  const rank = (t, bytes) => ({
    events: t.map((s, i) => ({ index: i, t_seconds: s, step: 1, label: `op ${i}` })), events_total: t.length, peak_event_index: 1,
    event_components: { activations: bytes }, non_pytorch_bytes: 0, fragmentation_bytes: 0, tensor_peak_bytes: Math.max(...bytes),
  });
  const GIB = 2 ** 30;
  const plot = schedulesPlot([{ schedule: 'dualpipev', timeline: rank([1, 3], [GIB, 2 * GIB]) }, { schedule: '1f1b', timeline: rank([2, 3], [3 * GIB, GIB]) }]);
  assert.equal(plot.seconds, true);
  assert.deepEqual([...plot.x], [1, 2, 3]);
  assert.deepEqual(plot.series, [[1, null, 2], [null, 3, 1]]);
  assert.deepEqual(plot.names, ['dualpipev', '1f1b']);
  assert.deepEqual(plot.peaks, [3, 3]);
});

test('the schedule select changes the estimate: the peak card is the CLI\'s under 1F1B and interleaved 1F1B', async () => {
  const page = await session.newPage();
  await page.goto(link({}));
  let seq = await waitForResult(page);
  const field = page.locator('[data-field=schedule]');
  assert.equal(await field.locator('select').inputValue(), 'dualpipev');
  assert.deepEqual(await field.locator('option').allTextContents(), ['DualPipeV', '1F1B', 'Interleaved 1F1B', 'ZB-H1', 'DualPipe']);
  assert.equal(await page.locator('[data-field=virtual_stages]').count(), 0, 'no stages per GPU beside DualPipeV');
  await field.locator('select').selectOption('1f1b');
  seq = await waitForResult(page, seq);
  const want = cli({ ...DEFAULT_PARAMS, schedule: '1f1b' });
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), want.peak_bytes);
  assert.notEqual(want.peak_bytes, cli(DEFAULT_PARAMS).peak_bytes, 'the schedule moves the peak');
  assert.equal(await page.getByTestId('command').textContent(), want.command);
  assert.ok(!want.command.includes('--virtual-stages'));
  const warnings = await page.getByTestId('warnings').textContent();
  assert.ok(warnings.includes('the trainer runs DualPipeV only'), warnings);
  assert.equal(await page.locator('[data-field=virtual_stages]').count(), 0);
  await field.locator('select').selectOption('interleaved-1f1b');
  seq = await waitForResult(page, seq);
  const stages = page.locator('[data-field=virtual_stages] input[type=number]');
  await stages.fill('3');
  seq = await waitForResult(page, seq);
  const inter = cli({ ...DEFAULT_PARAMS, schedule: 'interleaved-1f1b', virtual_stages: 3 });
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), inter.peak_bytes);
  assert.equal(await page.getByTestId('command').textContent(), inter.command);
  // Back to DualPipeV: the state keeps 3 stages per GPU, which the engine is not given.
  await field.locator('select').selectOption('dualpipev');
  await waitForResult(page, seq);
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), cli(DEFAULT_PARAMS).peak_bytes);
  assert.equal(await page.getByTestId('command').textContent(), cli(DEFAULT_PARAMS).command);
  await page.close();
});

test('the Schedules tab: five rows, the CLI\'s compare of every schedule, each worst rank on one time axis', async () => {
  const want = compareAll(DEFAULT_PARAMS).schedules;
  const page = await session.newPage();
  await page.goto(link({ view: 'schedules' }));
  const rows = await scheduleRows(page);
  assert.deepEqual(rows.map((r) => r.schedule), ['dualpipev', '1f1b', 'interleaved-1f1b', 'zb-h1', 'dualpipe']);
  const by = Object.fromEntries(rows.map((r) => [r.schedule, r]));
  assert.equal(by.dualpipev.activations, 9);
  assert.equal(by.dualpipev.pp_stages, 8);
  assert.equal(by.dualpipe.activations, 5);
  for (const w of want) {
    const r = by[w.schedule];
    assert.equal(r.peak, w.peak_bytes, w.schedule);
    assert.equal(r.status, w.status, w.schedule);
    assert.equal(r.activations, w.activation_microbatches_per_device, w.schedule);
    assert.equal(r.pp_stages, w.pp_stages, w.schedule);
    assert.equal(r.bubble_from, w.bubble_from, w.schedule);
    assert.ok(r.text.includes(`${(w.bubble_fraction * 100).toFixed(2)}%`), `${w.schedule}: ${r.text}`);
    assert.ok(r.text.includes(`${w.parameter_copies}x`), `${w.schedule}: ${r.text}`);
  }
  const chart = page.getByTestId('schedules-chart');
  assert.equal(await chart.locator('[role=img]').getAttribute('data-series'), 'dualpipev,1f1b,interleaved-1f1b,zb-h1,dualpipe');
  assert.equal(await chart.locator('[role=img]').getAttribute('data-axis'), 'seconds', 'one time axis: the events\' t_seconds');
  assert.equal(await chart.locator('canvas').count(), 1);
  // Use: the calculator under that schedule.
  await page.locator('[data-schedule=zb-h1] button').click();
  await waitForResult(page);
  assert.equal(await page.locator('[data-field=schedule] select').inputValue(), 'zb-h1');
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), by['zb-h1'].peak);
  await page.close();
});

test('the Schedules tab follows the inputs: other inputs mark its answers stale until theirs come; it fits 360 px', async () => {
  const page = await session.newPage({ width: 360, height: 800 });
  await page.goto(link({ view: 'schedules' }));
  await scheduleRows(page);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'no sideways scroll at 360 px');
  const table = page.getByTestId('schedules-table');
  assert.equal(await table.getAttribute('data-stale'), 'false');
  // Read the table in the render that shows the older answers, before the new
  // ones come: a MutationObserver runs right after that render, whatever the
  // engine's speed (a frame-polled read can miss it when the answers come fast).
  const seen = await page.evaluate((hash) => new Promise((done) => {
    const panel = document.querySelector('[data-testid=schedules]');
    const mo = new MutationObserver(() => {
      if (panel.dataset.current !== 'false') return;
      mo.disconnect();
      const card = panel.querySelector('[data-testid=schedules-table]');
      done({ stale: card?.dataset.stale, note: card?.querySelector('[data-testid=stale-note]')?.textContent ?? null });
    });
    mo.observe(panel, { subtree: true, attributes: true, childList: true, characterData: true });
    setTimeout(() => { mo.disconnect(); done({ stale: 'never', note: 'the tab never showed the older answers' }); }, 30000);
    location.hash = hash;
  }), new URL(link({ view: 'schedules', pp_size: 2, total_gpus: 16 })).hash);
  assert.deepEqual(seen, { stale: 'true', note: 'For the last valid inputs: pp 4, total GPUs 32.' });
  const rows = await scheduleRows(page);
  assert.equal(await table.getAttribute('data-stale'), 'false');
  const want = cli({ ...DEFAULT_PARAMS, pp_size: 2, total_gpus: 16 });
  assert.equal(rows[0].peak, want.peak_bytes);
  assert.equal(await table.getAttribute('data-answer-for'), want.command);
  await page.close();
});

test('the Schedules tab: a layout a schedule cannot take is its refusal in its row; no GPU kind: the formula\'s bubble', async () => {
  const params = { ...DEFAULT_PARAMS, pp_size: 3, total_gpus: 24 };
  const page = await session.newPage();
  await page.goto(link({ view: 'schedules', pp_size: 3, total_gpus: 24, gpu: '', gpu_memory_gb: 80 }));
  const rows = await scheduleRows(page);
  assert.equal(rows.length, 5);
  const dualpipe = rows.find((r) => r.schedule === 'dualpipe');
  assert.equal(dualpipe.status, 'refused');
  let message = '';
  try {
    execFileSync(CLI, [...flags(params), '--schedule', 'dualpipe', '--gpu-memory-gb', '80', '--json'].filter((x, i, all) => !(x === '--gpu' || all[i - 1] === '--gpu')), { encoding: 'utf8' });
  } catch (e) {
    message = JSON.parse(e.stdout).error.message;
  }
  assert.match(message, /DualPipe/);
  assert.equal(await page.getByTestId('schedule-refusal').textContent(), pageWords(message));
  for (const r of rows.filter((x) => x.schedule !== 'dualpipe')) {
    assert.equal(r.bubble_from, 'formula', r.schedule);
    assert.ok(r.text.includes('(formula)'), r.text);
  }
  const chart = page.getByTestId('schedules-chart').locator('[role=img]');
  assert.equal(await chart.getAttribute('data-series'), 'dualpipev,1f1b,interleaved-1f1b,zb-h1');
  assert.equal(await chart.getAttribute('data-axis'), 'events', 'no step time: each schedule\'s events');
  await page.close();
});

test('the Schedules tab: inputs every schedule refuses alike are said once, in the engine\'s words', async () => {
  const page = await session.newPage();
  await page.goto(link({ view: 'schedules', total_gpus: 33 }));
  await page.waitForSelector('[data-testid=schedules][data-current=true][aria-busy=false]', { timeout: 30000 });
  let message = '';
  try {
    execFileSync(CLI, [...flags({ ...DEFAULT_PARAMS, total_gpus: 33 }), '--json'], { encoding: 'utf8' });
  } catch (e) {
    message = JSON.parse(e.stdout).error.message;
  }
  assert.match(message, /not a multiple of/);
  assert.equal(await page.getByTestId('schedules-error').textContent(), `Every schedule refuses these inputs: ${pageWords(message)}`);
  assert.equal(await page.getByTestId('schedules-table').count(), 0);
  assert.equal(await page.getByTestId('schedules-chart').count(), 0);
  await page.close();
});

test('Compare: B under another schedule, side by side with A', async () => {
  const page = await session.newPage();
  await page.goto(link({ view: 'compare' }));
  await page.locator('[data-field=cmp_schedule] select').selectOption('1f1b');
  await page.waitForSelector('[data-testid=compare-results][data-current=true] [data-testid=compare-table]', { timeout: 30000 });
  const row = page.locator('[data-testid=compare-table] tr[data-name=schedule]');
  assert.deepEqual(await row.locator('td').allTextContents(), ['DualPipeV', '1F1B', '']);
  const peaks = page.locator('[data-testid=compare-table] tr[data-name=peak_bytes]');
  assert.equal(Number(await peaks.getAttribute('data-b')), cli({ ...DEFAULT_PARAMS, schedule: '1f1b' }).peak_bytes);
  await page.close();
});
