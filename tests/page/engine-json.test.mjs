// The page reads the planner's and the estimate's JSON as they are (Debian's
// Chromium, playwright-core): the planner's counts (never the page's own
// sums), its answer over nodes with pp_over_nodes' why, "nothing fits" with
// its closest row, the estimate's nearest_layout with a button for its fix,
// and the active parameters both ways. Each figure is the native CLI's for
// the same inputs. Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, DEFAULT_PARAMS, cli, fileSession, stateLink, waitForResult } from './support.mjs';

const session = fileSession();

const link = (patch) => stateLink(session.url, patch);

/** The page's other inputs, as flags of `memest plan`. */
const OPTIONS = { model: 'qwen3-30b-a3b', gpu: 'h100', optimizer: 'adamw', sharding: 'fsdp', fp8_training: 'disabled', fragmentation: 0.1 };

/** `memest plan --json` for flags {name: value}. */
function cliPlan(flags) {
  const args = ['plan', '--json'];
  for (const [k, v] of Object.entries({ ...OPTIONS, ...flags })) args.push(`--${k.replace(/_/g, '-')}`, String(v));
  return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

/** Waits for the plan of the inputs on screen. */
async function waitPlan(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=plan-results]')?.dataset.current === 'true'
    && document.querySelector('[data-testid=plan-results]').getAttribute('aria-busy') === 'false', null, { timeout: 30000 });
}

test('the counts are the planner\'s: tried, valid by status, not valid by reason', async () => {
  const page = await session.newPage();
  await page.goto(link({ view: 'plan', plan_question: 'vary', plan_vary: 'nodes' }));
  await waitPlan(page);
  const want = cliPlan({ vary: 'nodes', pp_size: 4, ep_size: 8, cp_size: 1, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096, gpus_per_node: 8 });
  const c = want.counts;
  const got = await page.getByTestId('invalid-counts').evaluate((el) => ({ ...el.dataset, title: el.querySelector('h3').textContent }));
  for (const k of ['tried', 'valid', 'invalid', 'ok', 'tight', 'oom']) assert.equal(Number(got[k]), c[k], k);
  const status = [[c.ok, 'OK'], [c.tight, 'TIGHT'], [c.oom, 'OOM']].filter(([n]) => n > 0);
  const split = status.length === 1 ? `(all ${status[0][1]})` : `(${status.map(([n, s]) => `${n} ${s}`).join(', ')})`;
  assert.equal(got.title, `${c.tried} combinations tried: ${c.valid} valid ${split}, ${c.invalid} not valid`);
  await page.close();
});

test('over nodes, the answer says why pp over whole nodes answers otherwise (pp_over_nodes.why)', async () => {
  const page = await session.newPage();
  await page.goto(link({ view: 'plan', plan_question: 'vary', plan_vary: 'nodes' }));
  await waitPlan(page);
  const want = cliPlan({ vary: 'nodes', pp_size: 4, ep_size: 8, cp_size: 1, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096, gpus_per_node: 8 });
  assert.equal(want.pp_over_nodes.agrees, false, 'this case disagrees');
  const note = page.getByTestId('plan-answer-note');
  assert.equal(await note.getAttribute('data-agrees'), 'false');
  const text = await note.textContent();
  assert.ok(text.includes(want.pp_over_nodes.why), `${text} names ${want.pp_over_nodes.why}`);
  assert.ok(text.includes(`pp ${want.pp_over_nodes.answer.pp_size} (${want.pp_over_nodes.answer.nodes} nodes)`), text);
  assert.equal(Number(await page.getByTestId('plan-answer').getAttribute('data-value')), want.answer.nodes);
  await page.close();
});

test('when nothing fits, the answer says so and names the planner\'s closest row', async () => {
  const page = await session.newPage();
  await page.goto(link({ view: 'plan', plan_question: 'vary', plan_vary: 'pp', plan_hold: 'gpus', total_gpus: 8, sequence_length: 32768 }));
  await waitPlan(page);
  const want = cliPlan({ vary: 'pp', ep_size: 8, cp_size: 1, total_gpus: 8, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 32768 });
  assert.equal(want.answer, null);
  assert.ok(want.closest);
  const answer = page.getByTestId('plan-answer');
  assert.equal(await answer.getAttribute('data-answer'), 'none');
  assert.match(await answer.locator('h3').textContent(), /^No pp tried fits/);
  const closest = page.getByTestId('plan-closest');
  assert.equal(Number(await closest.getAttribute('data-peak')), want.closest.peak_bytes);
  assert.match(await closest.textContent(), new RegExp(`pp ${want.closest.pp_size}, ep 8, cp 1, dp ${want.closest.dp}`));
  await page.getByTestId('plan-closest-load').click();
  await waitForResult(page);
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), want.closest.peak_bytes);
  await page.close();
});

test('the suggestions card shows the nearest layout that is OK, and its button applies the fix', async () => {
  const page = await session.newPage();
  const inputs = { total_gpus: 8, ep_size: 2, sequence_length: 16384, global_batch_size: 64 };
  await page.goto(link(inputs));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, ...inputs });
  assert.ok(want.nearest_layout?.found, 'the CLI finds a nearest layout here');
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  const nearest = page.getByTestId('nearest-layout');
  await nearest.waitFor({ timeout: 15000 });
  assert.equal(await nearest.getAttribute('data-fix'), want.nearest_layout.fix);
  assert.match(await nearest.textContent(), new RegExp(`${want.nearest_layout.total_gpus} GPUs`));
  const seq = Number(await page.getByTestId('results').getAttribute('data-seq'));
  await page.getByTestId('nearest-layout-fix').click();
  await waitForResult(page, seq);
  const fixed = Object.fromEntries(want.nearest_layout.fix.split(',').map((p) => p.split('=')).map(([k, v]) => [k, Number(v)]));
  const after = cli({ ...DEFAULT_PARAMS, ...inputs, ...fixed });
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), after.peak_bytes);
  assert.equal(after.status, 'OK');
  await page.close();
});

test('the model summary gives the active parameters with and without the input embedding', async () => {
  const page = await session.newPage();
  await page.goto(link({ model: 'gpt-oss-20b', pp_size: 2, ep_size: 8, total_gpus: 16 }));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, model: 'gpt-oss-20b', pp_size: 2, ep_size: 8, total_gpus: 16 }).model;
  assert.equal(Number(await page.getByTestId('active-parameters').getAttribute('data-count')), want.active_parameters);
  const without = page.getByTestId('active-parameters-without-embedding');
  assert.equal(Number(await without.getAttribute('data-count')), want.active_parameters_without_embedding);
  assert.match(await page.getByTestId('active-parameters').textContent(), /; 3\.61 B without the input embedding/);
  await page.close();
});
