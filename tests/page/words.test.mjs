// The page says what its controls say (Debian's Chromium, playwright-core):
// no CLI flag, no internal name and no limit's name in anything it shows,
// one minus sign, the words that fit a dense model, a log of one step and a
// touch screen; invalid values from a link get fix buttons, and "Reset to
// defaults" is always there. The labels come from the engine's parameter
// table (names.js). Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PARAMS, cli, waitForResult, fileSession, stateLink } from './support.mjs';

const session = fileSession();

const link = (patch) => stateLink(session.url, patch);

/** A dense model (no experts), as a pasted config. */
const DENSE = JSON.stringify({
  model_type: 'qwen3', hidden_size: 1024, intermediate_size: 3072, num_attention_heads: 16, num_key_value_heads: 4,
  head_dim: 64, num_hidden_layers: 12, vocab_size: 32000, max_position_embeddings: 8192,
});

/**
 * What a reader sees on `page`: its visible text, help, titles and
 * accessible labels, less the code it shows on purpose (the equivalent
 * command, in <pre> and <code>).
 */
function shownText(page) {
  return page.evaluate(() => {
    for (const d of document.querySelectorAll('details')) d.open = true;
    const titles = [...document.querySelectorAll('[title]')].map((el) => el.getAttribute('title'));
    const labels = [...document.querySelectorAll('[aria-label]')].map((el) => el.getAttribute('aria-label'));
    const hidden = [...document.querySelectorAll('pre, code')];
    for (const el of hidden) el.dataset.was = el.style.display, el.style.display = 'none';
    const text = document.body.innerText;
    for (const el of hidden) el.style.display = el.dataset.was;
    return [text, ...titles, ...labels].join('\n');
  });
}

/** The internal words a page must not show: flags, snake_case input names, limit names. */
function internalWords(text) {
  const found = [];
  for (const re of [/(?<![\w-])--[a-z][a-z0-9-]+/g, /\b(pp_size|ep_size|cp_size|total_gpus|micro_batch_size|global_batch_size|sequence_length|gpu_memory_gb|fp8_training|pp_rank|ep_imbalance|routing_factor|virtual_stages)\b/g, /MEMEST_[A-Z_]+/g]) {
    for (const m of text.matchAll(re)) found.push(m[0]);
  }
  return [...new Set(found)];
}

test('the calculator, its problems, the Plan and Schedules tabs show no flag, internal name or limit name', async () => {
  const page = await session.newPage();
  const seen = [];
  for (const patch of [
    {}, { total_gpus: 33 }, { pp_size: 999 }, { gpu: '', gpu_memory_gb: 0 }, { global_batch_size: 1000 },
    { ep_size: 40000 }, { cp_size: 3 }, { fragmentation: 2 },
    { schedule: 'interleaved-1f1b', virtual_stages: 4, pp_size: 16, total_gpus: 128 }, { schedule: 'dualpipe', pp_size: 3, total_gpus: 24 },
  ]) {
    await page.goto(link(patch));
    await page.locator('[data-testid=results]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=results]')?.getAttribute('aria-busy') === 'false', null, { timeout: 10000 }).catch(() => { throw new Error(`${JSON.stringify(patch)}: the page stays busy`); });
    await page.waitForTimeout(200);
    const words = internalWords(await shownText(page));
    seen.push(...words.map((w) => `${JSON.stringify(patch)}: ${w}`));
  }
  await page.goto(link({ view: 'plan', plan_question: 'vary', plan_vary: 'pp' }));
  await page.locator('[data-testid=plan-table]').waitFor({ timeout: 60000 });   // a hang guard, not a time limit
  seen.push(...internalWords(await shownText(page)).map((w) => `plan: ${w}`));
  // The Schedules tab, with DualPipe's and interleaved 1F1B's refusals in their rows.
  await page.goto(link({ view: 'schedules', pp_size: 13, total_gpus: 104, virtual_stages: 4 }));
  await page.waitForSelector('[data-testid=schedules][data-current=true][aria-busy=false]', { timeout: 60000 });
  assert.equal(await page.getByTestId('schedule-refusal').count(), 2, 'DualPipe and interleaved 1F1B refuse pp 13 with 4 stages per GPU');
  seen.push(...internalWords(await shownText(page)).map((w) => `schedules: ${w}`));
  assert.deepEqual(seen, []);
  await page.close();
});

test('suggestions name the control, not the input: "pp 4 → 8"', async () => {
  const page = await session.newPage({ width: 1280, height: 900 });
  await page.goto(session.url);
  await waitForResult(page);
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid=suggestions]')?.getAttribute('aria-busy') === 'false'
    && document.querySelectorAll('[data-testid=suggestions] li').length > 0, null, { timeout: 15000 });
  const want = cli(DEFAULT_PARAMS).suggestions;
  const shown = await page.locator('[data-testid=suggestions] li strong').allTextContents();
  assert.ok(shown.length > 0);
  assert.ok(shown.some((t) => t.startsWith(`pp ${want.find((s) => s.knob === 'pp_size').from} → `)), shown.join(' | '));
  assert.deepEqual(internalWords(shown.join('\n')), []);
  await page.close();
});

test('one minus sign: every negative figure is written with U+2212', async () => {
  const page = await session.newPage();
  await page.goto(link({ pp_size: 2, total_gpus: 16 }));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, pp_size: 2, total_gpus: 16 });
  assert.ok(want.headroom_bytes < 0, 'the example does not fit');
  const text = await shownText(page);
  assert.match(text, /\u2212\d/, 'a negative figure is shown');
  const hyphens = [...text.matchAll(/(^|[\s(:])-\d[\d.,]*/gm)].map((m) => m[0].trim());
  assert.deepEqual(hyphens, [], 'no hyphen-minus before a figure');
  await page.close();
});

test('a dense model reads as one: no "top-0 routed experts"', async () => {
  const page = await session.newPage();
  await page.goto(link({ config: DENSE, model: 'dense-test', ep_size: 1, total_gpus: 8 }));
  await waitForResult(page);
  const summary = await page.getByTestId('model-summary').textContent();
  assert.doesNotMatch(summary, /top-0|routed experts|with experts/);
  assert.match(summary, /12 dense/);
  await page.close();
});

test('a log of one step reads "one step read (step N)"', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.getByTestId('measured-log').fill('step 00000007/00000010 | loss 3.1 | peak-gpu-memory 61.20 GB');
  await page.getByRole('button', { name: 'Read the log lines' }).click();
  const summary = await page.getByTestId('measured-log-summary').textContent();
  assert.match(summary, /one step read \(step 7\)/);
  assert.doesNotMatch(summary, /1 step read|\(7–7\)/);
  await page.close();
});

test('on a touch screen the page says "Touch", never "Hover"', async () => {
  const p = await session.newPage({ width: 390, height: 844, touch: true });
  await p.goto(session.url);
  await waitForResult(p);
  await p.locator('[data-testid=routing-chart][data-ready=true]').waitFor({ timeout: 10000 });
  const text = await p.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /\bHover\b/);
  assert.match(text, /\bTouch\b/);
  await p.close();
});

test('invalid values from a link get fix buttons; "Reset to defaults" is always there', async () => {
  const page = await session.newPage();
  await page.goto(link({ pp_size: 0, fragmentation: 2, gpu: 'x100' }));
  await page.locator('.problem').first().waitFor();
  const problems = page.locator('.inputs .problem');
  const n = await problems.count();
  assert.ok(n >= 2, `${n} problems`);
  for (let i = 0; i < n; i++) {
    const p = problems.nth(i);
    assert.equal(await p.locator('button.fix').count(), 1, await p.textContent());
  }
  // Each fix applied in turn, the inputs become valid and estimate.
  for (let i = 0; i < 6 && (await page.locator('.inputs .problem button.fix').count()); i++) {
    await page.locator('.inputs .problem button.fix').first().click();
    await page.waitForTimeout(300);
  }
  await waitForResult(page);
  assert.equal(await page.locator('.inputs .problem').count(), 0);
  // Reset to defaults: the opening view again, from any state.
  await page.goto(link({ pp_size: 2, optimizer: 'muon', total_gpus: 33 }));
  await page.getByTestId('reset').click();
  await waitForResult(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false');
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), cli(DEFAULT_PARAMS).peak_bytes);
  await page.close();
});
