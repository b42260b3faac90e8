// The Plan and Compare tabs as a user reads them (Debian's Chromium,
// playwright-core): a plan's counts add up (rows, combinations, valid, not
// valid by reason), its table fits 1,280 px with Load and Margin in view
// and keeps Status, Peak and Load reachable on a phone, a layout whose
// expert parallelism spans nodes is marked where the plan's JSON says so,
// and Compare puts two models side by side, B with its own routing.
// Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, DEFAULT_PARAMS, cli, fileSession, stateLink } from './support.mjs';

const session = fileSession();

const link = (patch) => stateLink(session.url, patch);

/** Waits for the plan of the inputs on screen. */
async function waitPlan(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=plan-results]')?.dataset.current === 'true'
    && document.querySelector('[data-testid=plan-results]').getAttribute('aria-busy') === 'false', null, { timeout: 30000 });
}

/** `memest plan --json` for flags {name: value}. */
function cliPlan(flags) {
  const args = ['plan', '--json'];
  for (const [k, v] of Object.entries(flags)) args.push(`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v));
  return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

/** The counts the page shows: tried, valid, not valid, and each reason's. */
function counts(page) {
  return page.getByTestId('invalid-counts').evaluate((el) => ({
    tried: Number(el.dataset.tried), valid: Number(el.dataset.valid), invalid: Number(el.dataset.invalid),
    reasons: [...el.querySelectorAll('li')].reduce((n, li) => n + Number(li.dataset.count), 0),
    title: el.querySelector('h3').textContent,
    rows: Number(document.querySelector('[data-testid=plan-table]').dataset.rows),
  }));
}

test('a plan\'s counts add up: combinations tried = valid rows + not valid, by reason', async () => {
  const page = await session.newPage();
  // A vary plan, whose invalid values are rows of the planner's JSON.
  await page.goto(link({ view: 'plan', plan_question: 'vary', plan_vary: 'pp', plan_hold: 'gpus' }));
  await waitPlan(page);
  const want = cliPlan({ model: 'qwen3-30b-a3b', gpu: 'h100', vary: 'pp', ep_size: 8, cp_size: 1, total_gpus: 32, gpus_per_node: 8, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096 });
  const valid = want.rows.filter((r) => r.status !== 'INVALID').length;
  assert.ok(valid < want.tried, 'some values tried are not valid');
  const got = await counts(page);
  assert.equal(got.tried, want.tried);
  assert.equal(got.valid, valid);
  assert.equal(got.rows, valid, 'the table lists the valid rows');
  assert.equal(got.valid + got.invalid, got.tried);
  assert.equal(got.reasons, got.invalid, 'the reasons add up to the not valid');
  assert.match(got.title, new RegExp(`^${want.tried} combinations tried: ${valid} valid \\([^)]+\\), ${want.tried - valid} not valid`));
  // A layouts plan likewise.
  await page.goto(link({ view: 'plan' }));
  await waitPlan(page);
  const layouts = await counts(page);
  assert.equal(layouts.valid + layouts.invalid, layouts.tried);
  assert.equal(layouts.reasons, layouts.invalid);
  assert.equal(layouts.rows, layouts.valid);
  await page.close();
});

test('the plan table fits 1,280 px with Load and Margin in view; on a phone Status, Peak and Load stay reachable', async () => {
  const state = { view: 'plan', plan_budget: 'nodes', plan_nodes: 8 };
  const page = await session.newPage({ width: 1280, height: 900 });
  await page.goto(link(state));
  await waitPlan(page);
  await page.locator('[data-testid=plan-table] th', { hasText: 'Margin' }).waitFor();
  const fit = await page.locator('.plan-table .table-scroll').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
  assert.ok(fit.scroll <= fit.client, `the table scrolls sideways at 1,280 px (${fit.scroll} > ${fit.client})`);
  for (const el of [page.locator('[data-testid=plan-table] th', { hasText: 'Margin' }), page.locator('[data-testid=plan-table] button.load').first()]) {
    const box = await el.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 1280, `in view: ${JSON.stringify(box)}`);
  }
  await page.close();

  const phone = await session.newPage({ width: 390, height: 844 });
  await phone.goto(link(state));
  await waitPlan(phone);
  const scroller = phone.locator('.plan-table .table-scroll');
  await scroller.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
  await phone.waitForTimeout(100);
  const frame = await scroller.boundingBox();
  const row = phone.locator('[data-testid=plan-table] tbody tr').first();
  for (const [what, el] of [['Status', row.locator('.badge').first()], ['Peak', row.locator('td.col-peak')], ['Load', row.locator('button.load')]]) {
    const box = await el.boundingBox();
    assert.ok(box && box.x >= frame.x - 0.5 && box.x + box.width <= frame.x + frame.width + 0.5, `${what} in view after scrolling: ${JSON.stringify(box)} in ${JSON.stringify(frame)}`);
  }
  await phone.close();
});

test('a layout whose expert parallelism spans nodes is marked, with the reason, when the plan says so', async () => {
  const page = await session.newPage();
  // Two nodes of 8: the planner marks each row whose EP group of ep
  // consecutive ranks spans them (ep 16), and ranks it after those that do not.
  await page.goto(link({ view: 'plan', plan_budget: 'nodes', plan_nodes: 2 }));
  await waitPlan(page);
  // The rows that span nodes come after the others: show them all.
  await page.getByTestId('plan-show-all').click();
  const marked = await page.locator('[data-testid=plan-table] tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    ep: Number(tr.querySelectorAll('td')[3]?.textContent), mark: tr.querySelector('[data-testid=across-nodes]') !== null,
  })));
  assert.ok(marked.some((r) => r.mark) && marked.some((r) => !r.mark), JSON.stringify(marked.slice(0, 6)));
  assert.match(await page.getByTestId('across-nodes-legend').textContent(), /spans nodes: the trainer’s all-to-all crosses the network/);
  assert.match(await page.locator('[data-testid=across-nodes]').first().getAttribute('title'), /crosses the network/);
  await page.close();
});

test('compare puts two models side by side, and B has its own routing', async () => {
  const page = await session.newPage({ width: 1280, height: 900 });
  await page.goto(link({ view: 'compare' }));
  await page.getByTestId('compare-results').getByText(/B is the same as A/).waitFor();
  await page.locator('[data-field=cmp_model] select').selectOption('deepseek-v2-lite');
  await page.locator('[data-field=cmp_routing] select').selectOption('balanced');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-results]')?.dataset.current === 'true'
    && document.querySelector('[data-testid=compare-table]'), null, { timeout: 15000 });
  const A = cli(DEFAULT_PARAMS);
  const B = cli({ ...DEFAULT_PARAMS, model: 'deepseek-v2-lite', routing: 'balanced' });
  const got = await page.locator('[data-testid=compare-table] tr[data-delta]').evaluateAll((trs) => Object.fromEntries(trs.map((tr) => [
    tr.dataset.name, { a: Number(tr.dataset.a), b: Number(tr.dataset.b), delta: Number(tr.dataset.delta) }])));
  for (const key of ['peak_bytes', 'headroom_bytes', 'tensor_peak_bytes']) {
    assert.deepEqual(got[key], { a: A[key], b: B[key], delta: B[key] - A[key] }, key);
  }
  const models = await page.locator('[data-testid=compare-table] tr[data-name=model] td').allTextContents();
  assert.deepEqual(models.slice(0, 2), ['Qwen3-30B-A3B', 'DeepSeek-V2-Lite']);
  assert.match(await page.locator('[data-testid=compare-table] tr[data-name=routing]').textContent(), /Measured.*Balanced/);
  // Loading B puts its model and routing in the calculator.
  await page.getByTestId('compare-load-b').click();
  await page.waitForFunction((b) => document.querySelector('[data-testid=peak]')?.dataset.bytes === String(b), B.peak_bytes, { timeout: 15000 });
  await page.close();
});
