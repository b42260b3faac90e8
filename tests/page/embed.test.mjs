// The compact view embedded in a document page on another origin, through
// the snippet the Embed button shows, pasted as it is: the frame sizes
// itself (postMessage, origin checked by the host), fits at its fixed
// height where scripts are stripped, and a sandbox without
// allow-same-origin gets a message naming it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, requireBuilds, startSession, waitForResult, cli, DEFAULT_PARAMS } from './support.mjs';
import { startDocServer } from './hosts.mjs';
import { FIXED_HEIGHT } from '../../web/app/embed-snippet.js';

let session;
let docs;
let snippet;
before(async () => {
  requireBuilds();
  session = await startSession();
  docs = await startDocServer();
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  await page.getByTestId('embed-button').click();
  snippet = await page.getByTestId('embed-code').inputValue();
  await page.close();
});
after(async () => {
  await session?.close();
  await docs?.close();
});

const docPage = (width, body) => `<!doctype html><html lang="en"><head><title>Team notes</title></head>
<body style="margin:1rem;font-family:serif"><h1>Next run</h1><div style="width:${width}px">${body}</div><p>After the frame.</p></body></html>`;

/** Opens `html` on the document origin; returns the page and the calculator's frame. */
async function openDoc(name, html) {
  docs.pages[`/${name}`] = html;
  const page = await session.newPage({ width: 1000, height: 900 });
  await page.goto(`${docs.url}/${name}`);
  const frame = await page.waitForFunction(() => document.querySelector('iframe')).then(() => page.frames().find((f) => f !== page.mainFrame()));
  return { page, frame };
}

const frameHeight = (page) => page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);

test('the snippet is the frame and a script that checks the origin, as pasted', () => {
  const origin = session.url.replace(/\/$/, '');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/#embed=1" title="memest memory estimate" /);
  assert.ok(snippet.includes(`height="${FIXED_HEIGHT}"`));
  assert.ok(snippet.includes(`e.origin !== "${origin}"`), snippet);
  assert.match(snippet, /<\/script>$/);
});

for (const width of [320, 360, 720]) {
  test(`at ${width} px the frame takes the height of its content`, async () => {
    const { page, frame } = await openDoc(`sized-${width}`, docPage(width, snippet));
    await waitForResult(frame);
    await frame.locator('.timeline canvas').waitFor();
    assert.equal(Number(await frame.getByTestId('peak').getAttribute('data-bytes')), cli(DEFAULT_PARAMS).peak_bytes);
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height === h, content, { timeout: 5000 });
    const inner = await frame.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: window.innerHeight, wide: document.documentElement.scrollWidth, w: window.innerWidth }));
    assert.ok(inner.scroll <= inner.view, `the frame scrolls inside (${inner.scroll} > ${inner.view})`);
    assert.ok(inner.wide <= inner.w, `the frame scrolls sideways (${inner.wide} > ${inner.w})`);
    if (width === 360) assert.ok(content <= FIXED_HEIGHT, `the fixed height ${FIXED_HEIGHT} px is shorter than the view at 360 px (${content} px)`);
    console.log(`embed frame at ${width} px wide: ${content} px tall`);

    // Another origin in the same frame cannot resize it.
    docs.pages['/evil'] = '<script>parent.postMessage({ type: "memest:height", height: 5 }, "*")</script>';
    await page.evaluate((u) => { document.querySelector('iframe').src = u; }, `${docs.url}/evil`);
    await page.waitForFunction(() => {
      try {
        return document.querySelector('iframe').contentWindow.location.href.includes('/evil');
      } catch {
        return false; // still the calculator's origin
      }
    });
    await page.waitForTimeout(300);
    assert.equal(await frameHeight(page), content);
    await page.close();
  });
}

test('without the script the frame keeps its fixed height, which fits at 360 px', async () => {
  const iframeOnly = snippet.split('\n')[0];
  const { page, frame } = await openDoc('no-script', docPage(360, iframeOnly));
  await waitForResult(frame);
  await frame.locator('.timeline canvas').waitFor();
  assert.equal(await frameHeight(page), FIXED_HEIGHT);
  const inner = await frame.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: window.innerHeight }));
  assert.ok(inner.scroll <= inner.view, `the view at 360 px does not fit ${FIXED_HEIGHT} px (${inner.scroll})`);
  await page.close();
});

test('a sandbox without allow-same-origin shows the message alone; in the sandbox hosting.md recommends, Open in memest opens the page', async () => {
  const t0 = Date.now();
  const bare = snippet.replace('<iframe ', '<iframe sandbox="allow-scripts" ');
  const { page, frame } = await openDoc('sandboxed', docPage(720, bare));
  const stuck = frame.locator('.loading-stuck');
  await stuck.waitFor({ state: 'visible', timeout: 8000 });
  const seconds = (Date.now() - t0) / 1000;
  assert.match(await stuck.textContent(), /allow-same-origin/);
  // The message alone: "Loading…" does not stay beside it.
  await frame.waitForFunction(() => {
    const el = document.querySelector('#app > .loading');
    return !el || el.getBoundingClientRect().height === 0 || getComputedStyle(el).visibility === 'hidden';
  }, null, { timeout: 2000 });
  assert.equal(await frame.locator('[data-testid=peak]').count(), 0);
  console.log(`sandboxed frame: the message shows ${seconds.toFixed(1)} s after the document opened`);
  assert.ok(seconds <= 6, `${seconds} s`);
  await page.close();

  const sandbox = /sandbox="([^"]+)"/.exec(readFileSync(path.join(ROOT, 'docs/hosting.md'), 'utf8'))[1];
  assert.match(sandbox, /allow-same-origin/);
  const allowed = snippet.replace('<iframe ', `<iframe sandbox="${sandbox}" `);
  const ok = await openDoc('sandboxed-ok', docPage(720, allowed));
  await waitForResult(ok.frame);
  await ok.frame.locator('.timeline canvas').waitFor();
  const content = await ok.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await ok.page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height === h, content, { timeout: 5000 });
  assert.ok(await ok.frame.locator('.loading-stuck').count() === 0);
  // Open in memest: a new tab with the full page of the same inputs.
  const [tab] = await Promise.all([ok.page.context().waitForEvent('page'), ok.frame.getByRole('link', { name: /Open in memest/ }).click()]);
  await waitForResult(tab);
  assert.equal(await tab.locator('.embed').count(), 0, 'the full page');
  assert.equal(Number(await tab.getByTestId('peak').getAttribute('data-bytes')), cli(DEFAULT_PARAMS).peak_bytes);
  await tab.close();
  await ok.page.close();
});

test('the compact view shows the warnings the full page shows, shortened; its light background is transparent', async () => {
  const state = { cp_size: 2, total_gpus: 64, sequence_length: 65536, fp8_training: 'deep-gemm' };
  const src = `${session.url}#v=1&s=${encodeURIComponent(JSON.stringify(state))}&embed=1`;
  const html = `<!doctype html><html lang="en"><head><title>Notes</title></head><body style="margin:0;background:#ffe4c4">
<iframe src="${src}" title="memest" width="320" height="2200" style="border:0" data-memest-embed></iframe></body></html>`;
  const { page, frame } = await openDoc('warned', html);
  await waitForResult(frame);
  const want = cli({ ...DEFAULT_PARAMS, ...state });
  assert.ok(want.warnings.length >= 2);
  const items = frame.getByTestId('warnings').locator('li');
  assert.equal(await items.count(), want.warnings.length);
  for (let i = 0; i < want.warnings.length; i++) {
    const shown = await items.nth(i).textContent();
    assert.ok(shown.length <= 112 && shown.length < want.warnings[i].length, shown);
    assert.ok(!/--[a-z]/.test(shown), shown);
  }
  assert.match(await items.first().textContent(), /not yet validated/);
  // No sideways scrolling at 320 px.
  const wide = await frame.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(wide[0] <= wide[1], `${wide[0]} > ${wide[1]}`);
  // The host page's colour shows through the frame's background.
  assert.deepEqual(await frame.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]),
    ['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  const box = await page.locator('iframe').boundingBox();
  const end = await frame.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom));
  const shot = await page.screenshot({ fullPage: true, clip: { x: box.x + 2, y: box.y + end + 20, width: 4, height: 4 } });
  const seen = await page.evaluate(async (png) => {
    const img = new Image();
    img.src = `data:image/png;base64,${png}`;
    await img.decode();
    const c = new OffscreenCanvas(4, 4);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return [...g.getImageData(1, 1, 1, 1).data.slice(0, 3)];
  }, shot.toString('base64'));
  assert.deepEqual(seen, [0xff, 0xe4, 0xc4], 'the host page\'s background under the frame');
  await page.close();
});
