// The time model on the page (Debian's Chromium, playwright-core), against
// the native CLI: the Time card shows the estimate's `time` as the page
// formats it, or the engine's note without a GPU kind; the time inputs go
// through the link and their bad values are refused beside them in the
// engine's words; the Plan table's default order is the planner's (the
// fastest first) with its answer marked; the timeline's x axis is the time
// in the step when the estimate has one (the events' t_seconds); a pasted log's step time is set
// against the estimate's, signed, as `memest check` sets them.
// Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, DEFAULT_PARAMS, cli, waitForResult, waitForLink, fileSession, stateLink } from './support.mjs';
import { decodeFragment } from '../../web/app/url.js';
import { duration, percent, rate, signedPercent } from '../../web/app/format.js';
import { pageWords } from '../../web/app/wording.js';

const session = fileSession();
const link = (patch) => stateLink(session.url, patch);
/** The opening view with a capacity of its own in place of the H100 preset. */
const CUSTOM = { gpu: '', gpu_memory_gb: 80 };

/** `memest <args> --json` of the build under test (an error's object too, whatever the exit status). */
function cliJson(args) {
  try {
    return JSON.parse(execFileSync(CLI, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (e) {
    if (typeof e.stdout === 'string' && e.stdout.startsWith('{')) return JSON.parse(e.stdout);
    throw e;
  }
}

/** snake_case params as CLI flags. */
const flags = (params) => Object.entries(params).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);

test('the Time card shows the engine\'s step time, tokens/s, MFU, shares, critical rank, parts and hardware', async () => {
  const want = cli(DEFAULT_PARAMS).time;
  assert.ok(want && want.step_seconds > 0, 'the CLI has a time for an H100 preset');
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const card = page.getByTestId('time-card');
  assert.equal(await card.getAttribute('data-known'), 'true');
  assert.equal(Number(await card.getAttribute('data-seconds')), want.step_seconds);
  assert.equal(await page.getByTestId('time-step').textContent(), duration(want.step_seconds));
  assert.equal(await page.getByTestId('time-tokens').textContent(), rate(want.tokens_per_second));
  assert.equal(await page.getByTestId('time-tokens-gpu').textContent(), rate(want.tokens_per_second_per_gpu));
  assert.equal(await page.getByTestId('time-mfu').textContent(), percent(want.mfu));
  assert.equal(await page.getByTestId('time-bubble').textContent(), percent(want.bubble_fraction, 2));
  assert.equal(await page.getByTestId('time-exposed').textContent(), percent(want.exposed_comm_fraction, 2));
  assert.equal(await page.getByTestId('time-critical').textContent(), String(want.critical_rank));
  const parts = await page.locator('[data-testid=time-parts] tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.part, tr.cells[1].textContent]));
  assert.deepEqual(parts, ['compute', 'exposed_comm', 'idle', 'step_end', 'optimizer'].map((k) => [k, duration(want.parts[`${k}_seconds`])]));
  const hw = await page.getByTestId('time-hardware').textContent();
  assert.ok(hw.startsWith(`${want.hardware.title}:`), hw);
  assert.ok(hw.includes(`NVLink ${want.hardware.nvlink_gb_per_s} GB/s`), hw);
  assert.ok((await page.getByTestId('time-uncertainty').textContent()).includes(pageWords(want.uncertainty)));
  // Every rank's step and the efficiencies, behind their disclosure.
  await card.locator('details.numbers summary').click();
  assert.equal(await page.locator('[data-testid=time-ranks] tbody tr').count(), want.ranks.length);
  assert.equal(await page.locator('[data-testid=time-efficiency] tbody tr').count(), Object.keys(want.efficiency).length);
  // The card names its answer and goes stale with the others.
  assert.equal(await card.getAttribute('data-answer-for'), cli(DEFAULT_PARAMS).command);
  await page.locator('[data-field=pp_size] input[type=number]').fill('2.5');
  await page.waitForFunction(() => document.querySelector('[data-testid=time-card]').dataset.stale === 'true');
  await page.close();
});

test('without a GPU kind the Time card says the engine\'s note, and the embed leaves it out', async () => {
  const { gpu, ...rest } = DEFAULT_PARAMS;
  const want = cli({ ...rest, gpu_memory_gb: 80 });
  assert.equal(gpu, 'h100');
  assert.equal(want.time, null);
  for (const embed of [false, true]) {
    const page = await session.newPage();
    await page.goto(link(CUSTOM) + (embed ? '&embed=1' : ''));
    await waitForResult(page);
    if (embed) assert.equal(await page.getByTestId('time-card').count(), 0);
    else {
      assert.equal(await page.getByTestId('time-card').getAttribute('data-known'), 'false');
      assert.equal(await page.getByTestId('time-note').textContent(), pageWords(want.time_note));
    }
    await page.close();
  }
});

test('the time inputs go through the link, change the time and not the memory, and bad values are refused beside them', async () => {
  const base = cli(DEFAULT_PARAMS);
  const set = { nvlink_gb_per_s: 300, network_gbit_per_s: 200, efficiency: 'gemm=0.5' };
  const want = cli({ ...DEFAULT_PARAMS, ...set });
  assert.equal(want.peak_bytes, base.peak_bytes, 'memory does not move');
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const group = page.getByTestId('time-inputs');
  assert.equal(await group.locator('details').getAttribute('open'), null, 'closed at the defaults');
  await group.locator('summary').click();
  await page.locator('[data-field=nvlink_gb_per_s] input[type=number]').fill('300');
  await page.locator('[data-field=network_gbit_per_s] input[type=number]').fill('200');
  await page.locator('[data-field=efficiency] input').fill('gemm=0.5');
  await page.waitForFunction((s) => document.querySelector('[data-testid=time-card]')?.dataset.seconds === s, String(want.time.step_seconds));
  await waitForLink(page);
  const linked = decodeFragment(new URL(page.url()).hash).state;
  for (const [k, v] of Object.entries(set)) assert.equal(linked[k], v, k);
  // The link opens with them, the group open, and the engine's answer for them.
  const again = await session.newPage();
  await again.goto(page.url());
  await waitForResult(again);
  assert.notEqual(await again.getByTestId('time-inputs').locator('details').getAttribute('open'), null);
  assert.equal(await again.locator('[data-field=efficiency] input').inputValue(), 'gemm=0.5');
  assert.equal(await again.getByTestId('time-step').textContent(), duration(want.time.step_seconds));
  assert.equal(await again.getByTestId('time-card').getAttribute('data-answer-for'), want.command);
  await again.close();
  // Bad values: the engine's message beside the input, the cards stale with the
  // last valid inputs named (no overrides: "efficiency overrides none").
  await page.locator('[data-field=efficiency] input').fill('');
  await page.waitForFunction((c) => document.querySelector('[data-testid=time-card]')?.dataset.answerFor === c,
    cli({ ...DEFAULT_PARAMS, nvlink_gb_per_s: 300, network_gbit_per_s: 200 }).command);
  for (const [field, value, flag] of [['nvlink_gb_per_s', '-1', '--nvlink-gb-per-s'], ['efficiency', 'gemm=2', '--efficiency']]) {
    const refused = cliJson([...flags(DEFAULT_PARAMS), flag, value]).error;
    assert.equal(refused.field, field);
    const box = page.locator(`[data-field=${field}] input:not([type=range])`);
    await box.fill(value);
    const problem = page.locator(`[data-field=${field}] .problem`);
    await problem.waitFor();
    assert.ok((await problem.textContent()).includes(pageWords(refused.message)), await problem.textContent());
    assert.equal(await page.getByTestId('time-card').getAttribute('data-stale'), 'true');
    const said = await page.getByTestId('time-card').getByTestId('stale-note').textContent();
    assert.ok(said.includes(field === 'efficiency' ? 'efficiency overrides none' : 'NVLink bandwidth 300'), said);
    // The fix: the nearest valid value the engine gives, or the default (no overrides).
    const fix = problem.locator('button.fix');
    assert.equal(await fix.textContent(), field === 'efficiency' ? 'Use no efficiency overrides (the default)' : 'Use NVLink bandwidth 0');
    await fix.click();
    await problem.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), field === 'efficiency' ? '' : '0');
  }
  await page.close();
});

test('the timeline\'s x axis is the time in the step with a GPU kind, the event without', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const title = () => page.locator('.timeline-plot').getAttribute('data-x-title');
  assert.match(await title(), /^time in step \(s\)/);
  await page.goto('about:blank');
  await page.goto(link(CUSTOM));
  await waitForResult(page);
  assert.match(await title(), /^event in the schedule/);
  await page.close();
});

test('the Plan table lists the planner\'s rows fastest first, with its tokens/s and MFU, the answer marked as the planner answers', async () => {
  const want = cliJson(['plan', ...flags({ model: 'qwen3-30b-a3b', gpu: 'h100', global_batch_size: 1024, sequence_length: 4096, total_gpus: 32, gpus_per_node: 8 })]);
  assert.equal(want.answer_by.objective, 'throughput');
  const page = await session.newPage();
  await page.goto(link({ view: 'plan' }));
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid=plan-results]');
    return r && r.dataset.current === 'true' && r.getAttribute('aria-busy') === 'false' && r.querySelector('[data-testid=plan-table]');
  }, null, { timeout: 20000 });
  assert.equal(await page.locator('[data-field=plan_goal]').inputValue(), 'fastest');
  if (await page.getByTestId('plan-show-all').count()) await page.getByTestId('plan-show-all').click();
  const rows = await page.locator('[data-testid=plan-table] tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    status: tr.dataset.status, peak: Number(tr.dataset.peak), tokens: tr.dataset.tokens === '' ? null : Number(tr.dataset.tokens),
    across: tr.querySelector('[data-testid=across-nodes]') !== null,
  })));
  const shown = (r) => ({ status: r.status, peak: r.peak_bytes, tokens: r.tokens_per_second, across: r.ep_across_nodes === true });
  // The planner's order: those that fit fastest first, then those that do not, closest to fitting first.
  assert.deepEqual(rows, want.rows.filter((r) => r.status !== 'INVALID').map(shown));
  // Fastest first among the rows that fit of one status (expert parallelism inside a node before across, as the planner ranks).
  for (const status of ['OK', 'TIGHT']) {
    for (const across of [false, true]) {
      const t = rows.filter((r) => r.status === status && r.across === across).map((r) => r.tokens);
      assert.ok(t.every((v, i) => i === 0 || v <= t[i - 1]), `${status}${across ? ' across nodes' : ''} fastest first: ${t}`);
    }
  }
  // Tokens/s and MFU beside the peak; per GPU only where the GPUs differ between rows (not in a budget of 32).
  const heads = await page.locator('[data-testid=plan-table] thead th').allTextContents();
  assert.deepEqual(heads.slice(1, 5).map((h) => h.replace(/[↕▲▼]/g, '')), ['Status', 'Peak GiB', 'Tok/s', 'MFU']);
  assert.ok(!heads.some((h) => h.startsWith('Per GPU')), heads.join());
  const answer = page.locator('tr.plan-answer');
  assert.equal(Number(await answer.getAttribute('data-peak')), want.answer.peak_bytes);
  assert.equal(Number(await answer.getAttribute('data-tokens')), want.answer.tokens_per_second);
  assert.equal(Number(await page.getByTestId('plan-answer').getAttribute('data-peak')), want.answer.peak_bytes);
  assert.ok((await page.getByTestId('plan-answer-tokens').textContent()).includes(rate(want.answer.tokens_per_second)));
  await page.close();
});

test('a pasted log\'s step time and tokens/s stand beside the estimate\'s, signed as memest check signs them', async () => {
  const lines = [
    'step 3 | loss 2.10 | peak-gpu-memory 61.2 GB | step-time 41.015 sec | tokens-per-second 102,261',
    'step 4 | loss 2.00 | peak-gpu-memory 61.3 GB | step-time 40.900 sec | tokens-per-second 102,561',
    'step 5 | loss 2.00 | peak-gpu-memory 61.3 GB | step-time 40.800 sec | tokens-per-second 102,800',
  ].join('\n');
  const dir = mkdtempSync(path.join(tmpdir(), 'memest-time-'));
  writeFileSync(path.join(dir, 'train.log'), `${lines}\n`);
  const want = cliJson(['check', '--log', path.join(dir, 'train.log'), ...flags(DEFAULT_PARAMS)]).time;
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.getByTestId('measured-log').fill(lines);
  await page.getByRole('button', { name: 'Read the log lines' }).click();
  await page.getByTestId('measured-time').waitFor();
  const step = await page.getByTestId('measured-time-step').locator('td').allTextContents();
  assert.deepEqual(step, [duration(want.logged.step_seconds), duration(want.estimated.step_seconds), signedPercent(want.step_seconds_error)]);
  const tokens = await page.getByTestId('measured-time-tokens').locator('td').allTextContents();
  assert.deepEqual(tokens, [rate(want.logged.tokens_per_second), rate(want.estimated.tokens_per_second), signedPercent(want.tokens_per_second_error)]);
  await page.close();
});
