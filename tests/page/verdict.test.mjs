// One verdict in every view, and every invalid input an invalid input
// (Debian's Chromium, playwright-core): the headline is the run's whichever
// pipeline rank is shown, and a box holding no valid number, an embedded
// link the engine refuses, a config over the page's size limit and the
// printed page all say what is wrong and mark the figures as the last valid
// inputs'. Expected figures come from the native CLI. Needs public/ built
// and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PARAMS, cli, gibText, waitForResult, waitForLink, fileSession, stateLink, drop } from './support.mjs';
import { decodeFragment } from '../../web/app/url.js';

const session = fileSession();
const link = (patch) => stateLink(session.url, patch);

/** The run in the report: rank 2 alone is TIGHT, the run (rank 0) is OOM. */
const SEQ = 6656;

test('a rank shown never changes the verdict: the peak card and the phone line are the run\'s', async () => {
  const run = cli({ ...DEFAULT_PARAMS, sequence_length: SEQ });
  const rank2 = cli({ ...DEFAULT_PARAMS, sequence_length: SEQ, pp_rank: 2 });
  assert.equal(run.status, 'OOM');
  assert.equal(run.worst_rank, 0);
  // The CLI with --pp-rank keeps the run's verdict and gives the rank's own.
  assert.equal(rank2.status, 'OOM');
  assert.equal(rank2.peak_bytes, run.peak_bytes);
  assert.equal(rank2.worst_rank, 0);
  assert.equal(rank2.shown_rank.pp_rank, 2);
  assert.equal(rank2.shown_rank.status, 'TIGHT');
  assert.ok(rank2.shown_rank.peak_bytes < run.peak_bytes);
  for (const { width, touch } of [{ width: 1280, touch: false }, { width: 390, touch: true }]) {
    const page = await session.newPage({ width, height: 844, touch });
    await page.goto(link({ sequence_length: SEQ, pp_rank: 2 }));
    await waitForResult(page);
    assert.equal(await page.getByTestId('status').textContent(), 'OOM');
    assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), run.peak_bytes);
    assert.equal(await page.getByTestId('peak').textContent(), gibText(run.peak_bytes));
    const card = await page.getByTestId('peak-card').textContent();
    assert.match(card, /does not fit/);
    assert.doesNotMatch(card, /TIGHT fits/);
    assert.match(card, /worst rank 0/);
    const shown = await page.getByTestId('shown-rank').textContent();
    assert.match(shown, /^Rank 2, shown: /);
    assert.ok(shown.includes(gibText(rank2.shown_rank.peak_bytes)), shown);
    assert.match(shown, /TIGHT/);
    assert.equal(Number(await page.getByTestId('shown-rank').getAttribute('data-bytes')), rank2.shown_rank.peak_bytes);
    if (touch) {
      const phone = await page.getByTestId('phone-summary').textContent();
      assert.ok(phone.includes(gibText(run.peak_bytes)), phone);
      assert.match(phone, /OOM/);
      assert.match(phone, /does not fit/);
    }
    await page.close();
  }
});

/** Every card of the results: whether it is marked stale. */
function staleness(page) {
  return page.locator('[data-testid=results] [data-answer-for]').evaluateAll((els) => els.map((el) => el.dataset.stale));
}

/** The state the address bar holds now. */
async function linkState(page) {
  await waitForLink(page);
  return page.evaluate(() => location.hash);
}

for (const [field, text] of [['pp_size', '2.5'], ['pp_size', ''], ['micro_batch_size', '2.5'], ['sequence_length', '2.5'],
  ['global_batch_size', ''], ['ep_size', '1.5'], ['cp_size', ''], ['total_gpus', '31.5']]) {
  test(`a box holding "${text}" for ${field} is an invalid input: cards stale, the problem named, the link not the old value`, async () => {
    const page = await session.newPage();
    await page.goto(session.url);
    await waitForResult(page);
    const before = await linkState(page);
    const box = page.locator(`[data-field=${field}] input[type=number]`);
    await box.fill(text);
    await page.locator('.problem-summary').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'true');
    assert.ok((await staleness(page)).filter((s) => s === 'true').length >= 6, 'the answer\'s cards are stale');
    const summary = await page.locator('.problem-summary').textContent();
    assert.equal(await page.locator('.problem-summary li button').textContent(), SHORT[field], summary);
    assert.ok(summary.includes(`must be a whole number, got '${text}'`), summary);
    await page.locator(`[data-field=${field}] .problem`).waitFor();
    assert.equal(await box.inputValue(), text);
    const after = await linkState(page);
    assert.notEqual(after, before, 'the link follows the box');
    const opened = decodeFragment(after);
    assert.equal(opened.state[field], DEFAULTS_OF[field], 'the link opens at the default, with a note');
    assert.ok(opened.notes.some((n) => n.includes(field)), JSON.stringify(opened.notes));
    // Reset to defaults clears the draft: the box, the problems and the cards.
    await page.getByTestId('reset').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false' && !document.querySelector('.problem-summary'));
    assert.equal(await box.inputValue(), String(DEFAULTS_OF[field]));
    assert.equal(await page.locator('.local-problem').count(), 0);
    await page.close();
  });
}

const SHORT = { pp_size: 'pp', ep_size: 'ep', cp_size: 'cp', total_gpus: 'total GPUs', micro_batch_size: 'micro batch', global_batch_size: 'global batch', sequence_length: 'sequence length' };
const DEFAULTS_OF = { pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096 };

test('nodes × GPUs per node: a non-whole or empty box is an invalid GPU count, and Reset clears it', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const nodes = page.locator('.nodes-row input').first();
  const perNode = page.locator('.nodes-row input').nth(1);
  for (const [box, text] of [[nodes, '2.5'], [nodes, ''], [perNode, '2.5']]) {
    await box.fill(text);
    await page.locator('.problem-summary').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'true');
    assert.match(await page.locator('.nodes-row .local-problem').textContent(), /must be a whole number/);
    assert.match(await page.locator('.problem-summary').textContent(), /Total GPUs|GPUs/);
    assert.equal(await box.inputValue(), text);
    await page.getByTestId('reset').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false' && !document.querySelector('.problem-summary'));
    assert.equal(await nodes.inputValue(), '4');
    assert.equal(await perNode.inputValue(), '8');
  }
  // Whole boxes still set the count.
  await nodes.fill('8');
  await page.waitForFunction(() => document.querySelector('[data-field=total_gpus] input[type=number]').value === '64');
  await page.close();
});

test('an embedded link the engine refuses states the problem and links to the full page', async () => {
  for (const patch of [{ model: 'no-such-model' }, { pp_size: 3 }, { pp_size: 64 }]) {
    const page = await session.newPage({ width: 320, height: 700 });
    await page.goto(`${link(patch)}&embed=1`);
    const alert = page.locator('.embed .notice-error');
    await alert.waitFor({ timeout: 10000 });
    assert.ok((await alert.textContent()).length > 10);
    assert.equal(await page.locator('.embed .loading').count(), 0, 'no "Estimating…" left');
    const full = page.getByTestId('embed-problem-help').locator('a');
    const href = await full.getAttribute('href');
    assert.doesNotMatch(href, /embed=1/);
    assert.deepEqual(Object.entries(decodeFragment(new URL(href).hash).state).filter(([k]) => k in patch), Object.entries(patch));
    await page.close();
  }
});

test('a config over the page\'s size limit is an invalid input: the cards go stale as for broken JSON', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.locator('.config-editor summary').click();
  const big = JSON.stringify({ ...JSON.parse(await page.locator('[data-field=config]').inputValue()), padding: 'x'.repeat(33000) });
  await page.locator('[data-field=config]').fill(big);
  await page.locator('.problem-summary').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'true');
  assert.match(await page.locator('.problem-summary').textContent(), /characters; the page takes at most 32,768/);
  const hash = await linkState(page);
  const opened = decodeFragment(hash);
  assert.ok(opened.error || opened.notes.length, 'the link opens with a note, not as the old config');
  await page.close();
});

test('printing invalid inputs: the inputs on screen, the problem by field, the cards stale, on as few pages as a valid print', async () => {
  const pagesOf = (buf) => (buf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid=suggestions]').getAttribute('aria-busy') === 'false');
  const valid = pagesOf(await page.pdf({ format: 'A4', printBackground: true }));
  await page.locator('[data-field=pp_size] input[type=number]').fill('2.5');
  await page.locator('.problem-summary').waitFor();
  await page.waitForSelector('[data-testid=results] .stale-note');
  await page.emulateMedia({ media: 'print' });
  const shown = await page.evaluate(() => {
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    return {
      summary: document.querySelector('[data-testid=inputs-summary]').innerText,
      problem: visible(document.querySelector('.problem-summary')) ? document.querySelector('.problem-summary').innerText : '',
      stale: [...document.querySelectorAll('[data-testid=results] .stale-note')].filter(visible).length,
    };
  });
  assert.match(shown.summary, /Pipeline parallel \(pp\)\s*2\.5 \(needs a change\)/);
  assert.doesNotMatch(shown.summary, /Pipeline parallel \(pp\)\s*4/);
  assert.match(shown.problem, /^One input needs a change\s*pp: pp must be a whole number, got '2\.5'/);
  assert.ok(shown.stale >= 6, `${shown.stale} stale notes printed`);
  await page.emulateMedia({ media: null });
  const invalid = pagesOf(await page.pdf({ format: 'A4', printBackground: true }));
  assert.ok(invalid <= valid, `${invalid} pages invalid, ${valid} valid`);
  await page.close();
});

test('a config file over the page\'s size limit, dropped or opened, is an invalid input too', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const big = JSON.stringify({ model_type: 'qwen3_moe', padding: 'x'.repeat(33000) });
  await drop(page, 'main', [{ name: 'big.json', text: big }]);
  await page.locator('.problem-summary').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'true');
  assert.match(await page.locator('.problem-summary').textContent(), /this config has 33,0\d\d characters; the page takes at most 32,768/);
  await page.getByTestId('reset').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false' && !document.querySelector('.problem-summary'));
  await page.locator('.config-editor summary').click();
  await page.locator('.config-editor input[type=file]').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(big) });
  await page.locator('.problem-summary').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'true');
  await page.close();
});
