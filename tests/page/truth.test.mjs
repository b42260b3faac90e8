// The page tells one truth at every moment (Debian's Chromium,
// playwright-core): one render path (the page draws the timeline itself,
// the engine is asked for every change, at most 1,000 events around the
// peak), every card naming the answer it shows and saying when that is not
// the inputs on screen, drops going where they land, and names a config
// takes. Each check is made against the native CLI's answer for the same
// inputs. Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { timelineEvents } from '../../web/app/estimator.js';
import { MODELS, DEFAULT_PARAMS, cli, waitForResult, waitForLink, seqOf, headline, fileSession, stateLink, drop } from './support.mjs';

const session = fileSession();

/** A link to the state `patch` (the fields that differ from the defaults). */
const link = (patch) => stateLink(session.url, patch);

/** The cards of the results as they are: [{card, answerFor, stale, note}]. */
function cards(page) {
  return page.locator('[data-testid=results] [data-answer-for], [data-testid=measured] [data-answer-for]').evaluateAll((els) => els.map((el) => ({
    card: el.dataset.testid,
    answerFor: el.dataset.answerFor,
    stale: el.dataset.stale,
    note: el.querySelector(':scope > .stale-note')?.textContent ?? null,
  })));
}

/** The cards every answer has on the default view. */
const EVERY_CARD = ['peak-card', 'model-summary', 'breakdown', 'rank-chart', 'routing-chart', 'timeline', 'suggestions', 'detail', 'command-card'];

test('every card names the CLI command of the answer it shows', async () => {
  const page = await session.newPage();
  await page.goto(link({ pp_size: 2, cp_size: 2, total_gpus: 32 }));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, pp_size: 2, cp_size: 2, total_gpus: 32 });
  const got = await cards(page);
  assert.deepEqual(got.map((c) => c.card).filter((c) => EVERY_CARD.includes(c)), EVERY_CARD);
  assert.ok(got.some((c) => c.card === 'warnings'), 'cp 2 warns');
  for (const c of got) {
    assert.equal(c.answerFor, want.command, c.card);
    assert.equal(c.stale, 'false', c.card);
    assert.equal(c.note, null, c.card);
  }
  await page.close();
});

test('invalid inputs: every card keeps the last answer, says so with the same note, and names that answer', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const before = cli(DEFAULT_PARAMS).command;
  await page.locator('[data-field=total_gpus] input[type=number]').fill('33');
  await page.locator('[data-field=total_gpus] .problem').waitFor();
  // The note shows once the inputs have stayed invalid a moment.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=results] .stale-note').length >= 8);
  const all = await cards(page);
  assert.ok(all.length >= EVERY_CARD.length);
  // The model as read is the config's, which is valid: it is current.
  const model = all.find((c) => c.card === 'model-summary');
  assert.deepEqual([model.stale, model.note], ['false', null]);
  const got = all.filter((c) => c !== model);
  const note = got[0].note;
  assert.equal(note, 'For the last valid inputs: total GPUs 32.');
  for (const c of got) {
    assert.equal(c.answerFor, before, c.card);
    assert.equal(c.stale, 'true', c.card);
    assert.equal(c.note, note, `${c.card} shows the same note`);
  }
  // Fixed: every card is the new inputs' answer, and fresh.
  await page.locator('[data-field=total_gpus] button.fix').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false');
  const after = cli({ ...DEFAULT_PARAMS, total_gpus: 32 }).command;
  for (const c of await cards(page)) {
    assert.equal(c.answerFor, after, c.card);
    assert.equal(c.stale, 'false', c.card);
    assert.equal(c.note, null, c.card);
  }
  await page.close();
});

test('a move marks every card stale at once, until its own answer is on screen', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const order = await page.evaluate(async () => {
    const results = document.querySelector('[data-testid=results]');
    const seq = results.dataset.seq;
    const seen = [];
    const mo = new MutationObserver((records) => {
      for (const r of records) {
        if (r.attributeName === 'data-stale' && r.target.dataset.stale === 'true' && r.target !== results) seen.push('stale');
        if (r.target === results && r.attributeName === 'data-seq') seen.push('answer');
      }
    });
    mo.observe(results, { subtree: true, attributes: true, attributeFilter: ['data-stale', 'data-seq'] });
    const slider = document.querySelector('[data-field=pp_size] input[type=range]');
    slider.value = '2';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((done) => {
      const check = () => (results.dataset.seq !== seq && results.getAttribute('aria-busy') === 'false' ? done(undefined) : setTimeout(check, 5));
      check();
    });
    mo.disconnect();
    return seen;
  });
  const answered = order.indexOf('answer');
  assert.ok(answered > 0, `the answer came after the cards were marked: ${order.join(' ')}`);
  assert.ok(order.slice(0, answered).filter((s) => s === 'stale').length >= EVERY_CARD.length, order.join(' '));
  const want = cli({ ...DEFAULT_PARAMS, pp_size: 2 }).command;
  for (const c of await cards(page)) {
    assert.equal(c.stale, 'false', c.card);
    assert.equal(c.answerFor, want, c.card);
  }
  await page.close();
});

test('the model summary follows a pasted config as soon as it is valid, while the layout is not', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const file = path.join(MODELS, 'deepseek-v2-lite.json');
  await page.locator('.config-editor summary').click();
  // DeepSeek-V2-Lite has 64 experts and 27 layers: pp 4 with ep 8 is valid,
  // so make the layout invalid first.
  await page.locator('[data-field=total_gpus] input[type=number]').fill('33');
  await page.locator('[data-field=total_gpus] .problem').waitFor();
  await page.locator('textarea[data-field=config]').fill(readFileSync(file, 'utf8'));
  const want = cli({ ...DEFAULT_PARAMS, model: file, total_gpus: 32 }).model;
  await page.waitForFunction((n) => document.querySelector('[data-testid=total-parameters]')?.dataset.count === String(n), want.total_parameters);
  const summary = page.getByTestId('model-summary');
  assert.equal(await summary.getAttribute('data-stale'), 'false');
  assert.equal(Number(await page.getByTestId('active-parameters').getAttribute('data-count')), want.active_parameters);
  assert.match(await summary.textContent(), /Per GPUfollows once the layout is valid/);
  // The cards that need the layout still say they are for the last valid inputs.
  assert.equal(await page.getByTestId('peak-card').getAttribute('data-stale'), 'true');
  await page.close();
});

test('one render path: the page draws the timeline, of about its plot\'s width in events, and asks the engine for every move', async () => {
  const page = await session.newPage();
  let estimates = 0;
  page.on('console', () => {});
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.estimatesAsked = 0;
    Worker.prototype.postMessage = function (m, ...rest) {
      if (m?.method === 'estimate') window.estimatesAsked++;
      return post.call(this, m, ...rest);
    };
  });
  await page.goto(link({ global_batch_size: 8192 }));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, global_batch_size: 8192 });
  const worst = want.ranks.find((r) => r.pp_rank === want.worst_rank);
  const kept = timelineEvents(1280);
  assert.ok(worst.events_total > kept, `${worst.events_total} events`);
  assert.equal(await page.getByTestId('timeline-window').textContent(),
    `A window of ${kept.toLocaleString('en-US')} of the schedule’s ${worst.events_total.toLocaleString('en-US')} events, centred on the peak.`);
  // About the plot's width in pixels.
  const plot = await page.locator('.timeline-over').evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(Math.abs(kept - plot) <= 150, `${kept} events for a plot ${plot} px wide`);
  // The canvas is the page's own: it gives a 2D context with the chart drawn on it.
  const inked = await page.evaluate(() => {
    const c = document.querySelector('.timeline canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n / (c.width * c.height);
  });
  assert.ok(inked > 0.2, `${(inked * 100).toFixed(0)}% of the canvas drawn`);
  // To and fro: every move is asked of the engine, none answered from a store.
  const asked = await page.evaluate(() => window.estimatesAsked);
  for (const v of ['2', '4', '2', '4']) {
    const seq = await seqOf(page);
    await page.locator('[data-field=pp_size] input[type=range]').fill(v);
    await waitForResult(page, seq);
  }
  estimates = await page.evaluate(() => window.estimatesAsked) - asked;
  assert.ok(estimates >= 4, `${estimates} estimates for 4 moves`);
  assert.equal((await headline(page)).peakBytes, want.peak_bytes);
  await page.close();
});

const LOG = 'step 00000001/00000010 | loss 9.9 | peak-gpu-memory 60.10 GB\nstep 00000002/00000010 | loss 9.1 | peak-gpu-memory 61.25 GB\n';

test('drops go where they land: the Measured run panel keeps its files, the page takes configs and the trainer\'s files', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const model = () => page.locator('[data-field=model] select option:checked').textContent();
  const before = await model();
  // A log on the Measured run panel: compared, never the model.
  await drop(page, '[data-drop-zone=measured]', [{ name: 'train.log', text: LOG }]);
  await page.getByTestId('measured-log-summary').waitFor();
  assert.equal(await model(), before);
  assert.equal(await page.locator('textarea[data-field=config]').inputValue() === '', false, 'the preset text stays');
  assert.equal(await page.evaluate(() => location.hash.includes('config')), false);
  // The same log anywhere else: it has no launch line to fill the inputs
  // from, so it is refused, with where to drop it.
  await drop(page, '.inputs', [{ name: 'train.log', text: LOG }]);
  await page.getByTestId('model-problem').waitFor();
  assert.match(await page.getByTestId('model-problem').textContent(), /^no line of train\.log has launch\(cfg=\.\.\.\).*drop it on the Measured run panel\.$/);
  assert.equal(await model(), before);
  // A snapshot's bytes (a pickle) likewise.
  await drop(page, 'main', [{ name: 'snapshot-rank00000.pickle', bytes: [0x80, 4, 0x95, 0, 0] }]);
  await page.waitForFunction(() => /snapshot-rank00000\.pickle: the page takes/.test(document.querySelector('[data-testid=model-problem]')?.textContent ?? ''));
  assert.equal(await model(), before);
  // A config on the page: it is the model now, by its own name.
  const file = path.join(MODELS, 'deepseek-v2-lite.json');
  const seq = await seqOf(page);
  await drop(page, '.outputs', [{ name: 'config.json', text: readFileSync(file, 'utf8') }]);
  await waitForResult(page, seq);
  await page.waitForFunction(() => /DeepSeek-V2-Lite/.test(document.querySelector('[data-field=model] select option:checked').textContent));
  assert.equal(await model(), 'Pasted config: DeepSeek-V2-Lite');
  await page.close();
});

/** Puts `text` on the clipboard and pastes it over the config editor's text. */
async function pasteConfig(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const editor = page.locator('textarea[data-field=config]');
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

test('each pasted config takes its own name; an edited preset is "(edited)"; the embed shows the same name', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.locator('.config-editor summary').click();
  const name = () => page.locator('[data-field=model] select option:checked').textContent();
  // A preset's text edited by hand.
  const editor = page.locator('textarea[data-field=config]');
  await editor.press('End');
  await editor.press('ControlOrMeta+End');
  await page.keyboard.type(' ');
  await page.waitForFunction(() => /\(edited\)/.test(document.querySelector('[data-field=model] select option:checked').textContent));
  assert.equal(await name(), 'Pasted config: Qwen3-30B-A3B (edited)');
  // A config pasted over it: its _name_or_path.
  const lite = readFileSync(path.join(MODELS, 'deepseek-v2-lite.json'), 'utf8');
  await pasteConfig(page, lite);
  await page.waitForFunction(() => /DeepSeek-V2-Lite/.test(document.querySelector('[data-field=model] select option:checked').textContent));
  // A second one without _name_or_path: its type and size, not the first one's name.
  const qwen = JSON.parse(readFileSync(path.join(MODELS, 'qwen3-30b-a3b.json'), 'utf8'));
  delete qwen._name_or_path;
  const seq = await seqOf(page);
  await pasteConfig(page, JSON.stringify(qwen, null, 2));
  await waitForResult(page, seq);
  await page.waitForFunction(() => /qwen3_moe-/.test(document.querySelector('[data-field=model] select option:checked').textContent));
  const size = cli(DEFAULT_PARAMS).model.total_parameters;
  assert.equal(await name(), `Pasted config: qwen3_moe-${Number((size / 1e9).toPrecision(3))}B`);
  // The embed of this view shows the same name in its header.
  await waitForLink(page);
  await page.getByTestId('embed-button').click();
  const src = /src="([^"]+)"/.exec(await page.getByTestId('embed-code').inputValue())[1].replace(/&amp;/g, '&');
  const embed = await session.newPage({ width: 360, height: 800 });
  await embed.goto(src);
  await waitForResult(embed);
  assert.equal(await embed.getByTestId('embed-title').textContent(), `memest estimate: qwen3_moe-${Number((size / 1e9).toPrecision(3))}B pp 4 · ep 8 · cp 1 · 32 GPUs`);
  // A preset's embed names it as the full page's list does.
  await embed.goto(`${session.url}#embed=1`);
  await waitForResult(embed);
  assert.match(await embed.getByTestId('embed-title').textContent(), /^memest estimate: Qwen3-30B-A3B /);
  await embed.close();
  await page.close();
});

test('the suggestions stay when their card leaves the screen; estimated meanwhile for other inputs, the card says they are not computed', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const card = page.getByTestId('suggestions');
  const items = () => card.locator('li').count();
  await card.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid=suggestions]').dataset.computed === 'true'
    && document.querySelectorAll('[data-testid=suggestions] li').length > 0, null, { timeout: 15000 });
  const shown = await items();
  assert.equal(shown, cli(DEFAULT_PARAMS).suggestions.length);
  // Away from the screen: the same inputs' suggestions stay, current.
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForTimeout(800);
  assert.equal(await card.getAttribute('data-computed'), 'true');
  assert.equal(await items(), shown, 'the suggestions stay');
  assert.equal(await card.getAttribute('data-stale'), 'false');
  assert.equal(await card.getAttribute('data-answer-for'), cli(DEFAULT_PARAMS).command);
  // Another input while it is away: the card holds no other answer's suggestions and says so.
  const seq = await seqOf(page);
  await page.locator('[data-field=pp_size] input[type=range]').fill('2');
  await waitForResult(page, seq);
  const want = cli({ ...DEFAULT_PARAMS, pp_size: 2 });
  assert.equal(await card.getAttribute('data-answer-for'), want.command);
  assert.equal(await card.getAttribute('data-computed'), 'false');
  assert.equal(await items(), 0);
  assert.match(await page.getByTestId('suggestions-not-computed').textContent(), /^Not computed for these inputs/);
  // Back on screen: computed for these inputs.
  await card.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid=suggestions]').dataset.computed === 'true', null, { timeout: 15000 });
  assert.equal(await items(), want.suggestions.length);
  assert.equal(await card.getAttribute('data-answer-for'), want.command);
  await page.close();
});
