// Accessibility, dark mode and phones in Chromium: axe-core over the
// calculator, plan, compare, schedules and embed views (light and dark), the skip
// link, the timeline walked by keyboard, the dark scheme's charts, and the
// summary that stays in view on a phone while a control is edited.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireBuilds, startSession, waitForResult, headline, seqOf } from './support.mjs';
import { axeViolations, severe } from './axe.mjs';
import { chartColor, contrast } from '../../web/app/scheme.js';

let session;
before(async () => {
  requireBuilds();
  session = await startSession();
});
after(async () => {
  await session?.close();
});

const linkFor = (patch) => `${session.url}#v=1&s=${encodeURIComponent(JSON.stringify(patch))}`;

/** Each view, and how to know it has finished drawing. */
const VIEWS = {
  calculator: { url: () => session.url, ready: (p) => waitForResult(p).then(() => p.locator('.timeline canvas').waitFor()) },
  'calculator, invalid inputs': {
    url: () => linkFor({ total_gpus: 33 }),
    ready: (p) => p.locator('.problem-summary').waitFor(),
  },
  plan: {
    url: () => linkFor({ view: 'plan' }),
    ready: (p) => p.waitForFunction(() => document.querySelector('[data-testid=plan-results]')?.dataset.current === 'true'
      && document.querySelector('[data-testid=plan-table]'), null, { timeout: 20000 }),
  },
  compare: {
    url: () => linkFor({ view: 'compare', cmp_sequence_length: 8192 }),
    ready: (p) => p.waitForFunction(() => document.querySelector('[data-testid=compare-results]')?.dataset.current === 'true'
      && document.querySelector('[data-testid=compare-table]'), null, { timeout: 20000 }),
  },
  schedules: {
    url: () => linkFor({ view: 'schedules', pp_size: 3, total_gpus: 24 }), // DualPipe's refusal in its row too
    ready: (p) => p.waitForFunction(() => document.querySelector('[data-testid=schedules]')?.dataset.current === 'true'
      && document.querySelector('[data-testid=schedules-chart] canvas'), null, { timeout: 30000 }),
  },
  embed: { url: () => `${session.url}#embed=1`, ready: (p) => waitForResult(p).then(() => p.locator('.timeline canvas').waitFor()) },
};

for (const scheme of ['light', 'dark']) {
  test(`axe-core: no serious or critical violations in any view (${scheme})`, async () => {
    const page = await session.newPage();
    await page.emulateMedia({ colorScheme: scheme });
    const counts = {};
    const found = [];
    for (const [name, v] of Object.entries(VIEWS)) {
      await page.goto('about:blank');
      await page.goto(v.url());
      await v.ready(page);
      const all = await axeViolations(page);
      counts[name] = `${severe(all).length} serious/critical, ${all.length} in all`;
      for (const x of severe(all)) found.push(`${name}: ${x.impact} ${x.id} (${x.help}): ${x.nodes.slice(0, 3).join(' | ')}`);
    }
    console.log(`axe-core (${scheme}): ${Object.entries(counts).map(([k, c]) => `${k} ${c}`).join('; ')}`);
    assert.deepEqual(found, []);
    await page.close();
  });
}

test('one main landmark, the skip link first, and it lands on the results', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  assert.equal(await page.locator('main, [role=main]').count(), 1);
  assert.equal(await page.locator('main [role=tabpanel]').count(), 1);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'skip-link');
  assert.ok(await page.getByTestId('skip-link').isVisible(), 'the skip link shows when focused');
  const before2 = await page.evaluate(() => location.hash);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'outputs');
  assert.equal(await page.evaluate(() => location.hash), before2, 'the state in the address is left alone');
  // The next tab stops are the results', not the inputs'.
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.closest('.outputs') !== null));
  await page.close();
});

test('the timeline\'s readout reaches every event by keyboard, and its table lists them all', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const chart = page.locator('.timeline .timeline-plot');
  await chart.focus();
  const hover = page.getByTestId('timeline-hover');
  const eventOf = async () => Number(/event (\d+)/.exec(await hover.textContent())[1]);
  const peak = await eventOf();
  await page.keyboard.press('ArrowRight');
  assert.equal(await eventOf(), peak + 1);
  await page.keyboard.press('Home');
  const first = await eventOf();
  await page.keyboard.press('End');
  const last = await eventOf();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await eventOf(), last - 1);
  await page.keyboard.press('p');
  assert.equal(await eventOf(), peak);
  assert.equal(await hover.getAttribute('aria-live'), 'polite', 'keyboard moves are announced');
  await page.locator('.timeline .numbers summary').click();
  const n = last - first + 1;
  assert.ok(await page.locator('.timeline table tbody tr').count() < n);
  await page.getByTestId('timeline-all').click();
  await page.waitForFunction((m) => document.querySelectorAll('.timeline table tbody tr').length === m, n, { timeout: 5000 });
  assert.match(await page.locator('.timeline .numbers summary').textContent(), new RegExp(`^Numbers \\(${n} of ${n} events\\)$`));
  await page.close();
});

test('dark scheme: dark surfaces, light text, and charts drawn in colours that keep 3:1', async () => {
  const page = await session.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(session.url);
  await waitForResult(page);
  // Every colour of one column of the timeline's bands, as the page shows
  // it: the column is read off a screenshot, decoded by the browser.
  const over = page.locator('.timeline .timeline-over');
  await over.scrollIntoViewIfNeeded();
  const ob = await over.boundingBox();
  const shot = await page.screenshot({ clip: { x: Math.round(ob.x + ob.width * 0.6), y: Math.round(ob.y), width: 1, height: Math.floor(ob.height) } });
  const got = await page.evaluate(async (png) => {
    const rgb = (s) => `#${s.match(/\d+/g).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
    const card = rgb(getComputedStyle(document.querySelector('.chart')).backgroundColor);
    const bars = [
      ...[...document.querySelectorAll('.bar-segment')].map((b) => rgb(getComputedStyle(b).backgroundColor)),
      ...[...document.querySelectorAll('.rank-bar')].map((r) => rgb(getComputedStyle(r).backgroundColor)),
    ];
    const image = await createImageBitmap(new Blob([Uint8Array.from(png)], { type: 'image/png' }));
    const c = new OffscreenCanvas(image.width, image.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const px = ctx.getImageData(0, 0, image.width, image.height).data;
    const bands = new Set();
    for (let i = 0; i < px.length; i += 4) bands.add(rgb(`rgb(${px[i]}, ${px[i + 1]}, ${px[i + 2]})`));
    return {
      body: rgb(getComputedStyle(document.body).backgroundColor),
      ink: rgb(getComputedStyle(document.body).color),
      card, bars, bands: [...bands],
    };
  }, [...shot]);
  assert.ok(contrast(got.ink, got.body) >= 7, `text ${got.ink} on ${got.body}`);
  assert.ok(contrast(got.body, '#ffffff') > 15, `a dark background: ${got.body}`);
  assert.ok(got.bars.length > 5);
  for (const fill of got.bars) assert.ok(contrast(fill, got.card) >= 3, `${fill} on ${got.card}`);
  // Master parameters' blue is lightened in the dark scheme: the canvas has the lightened one only.
  assert.ok(got.bands.includes(chartColor('#1f4e89', 'dark')), `the timeline's bands: ${got.bands.join(' ')}`);
  assert.ok(!got.bands.includes('#1f4e89'), 'a band in the light scheme\'s colour');
  await page.close();
});

test('on a phone the figure and its verdict are on the first screen, before any control, and stay as it scrolls', async () => {
  const page = await session.newPage({ width: 390, height: 844 });
  await page.goto(session.url);
  await waitForResult(page);
  const summary = page.getByTestId('phone-summary');
  assert.equal(await summary.isVisible(), true);
  const box = await summary.boundingBox();
  const first = await page.locator('form.inputs input, form.inputs select, form.inputs button, form.inputs textarea').first().boundingBox();
  assert.ok(box.y + box.height <= 844, `on the first screen: ${JSON.stringify(box)}`);
  assert.ok(box.y + box.height <= first.y, `before the first control (${first.y} px)`);
  const now = await headline(page);
  const text = await summary.textContent();
  assert.ok(text.includes(now.peak) && text.includes(now.status), text);
  assert.ok(text.includes(await page.getByTestId('headroom').textContent()), text);
  assert.match(text, /fits|does not fit/, 'the verdict in words');
  // It stays pinned while the form scrolls, and follows each estimate.
  const gbs = page.locator('[data-field=global_batch_size] input[type=number]');
  await gbs.scrollIntoViewIfNeeded();
  const pinned = await summary.boundingBox();
  assert.ok(pinned.y >= -0.5 && pinned.y < 2, `pinned to the top: ${pinned.y}`);
  const field = await gbs.boundingBox();
  assert.ok(field.y >= pinned.y + pinned.height, `the field (${field.y}) is not under the summary (${pinned.y + pinned.height})`);
  const seq = await seqOf(page);
  await page.locator('[data-field=pp_size] input[type=range]').focus();
  await page.keyboard.press('ArrowRight');
  await waitForResult(page, seq);
  assert.ok((await summary.textContent()).includes((await headline(page)).peak));
  await page.close();
  // Two columns: never shown.
  const wide = await session.newPage({ width: 1280, height: 900 });
  await wide.goto(session.url);
  await waitForResult(wide);
  assert.equal(await wide.getByTestId('phone-summary').isVisible(), false);
  await wide.close();
});
