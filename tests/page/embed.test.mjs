// The compact view embedded in a document page on another origin, through
// the snippet the Embed button shows, pasted as it is: the frame sizes
// itself (postMessage, origin checked by the host), fits at its fixed
// height where scripts are stripped, and a sandbox without
// allow-same-origin gets a message naming it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireBuilds, startSession, waitForResult, cli, DEFAULT_PARAMS } from './support.mjs';
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

for (const width of [360, 720]) {
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

test('a sandbox without allow-same-origin says so within seconds; with it the frame works', async () => {
  const t0 = Date.now();
  const bare = snippet.replace('<iframe ', '<iframe sandbox="allow-scripts" ');
  const { page, frame } = await openDoc('sandboxed', docPage(720, bare));
  const stuck = frame.locator('.loading-stuck');
  await stuck.waitFor({ state: 'visible', timeout: 8000 });
  const seconds = (Date.now() - t0) / 1000;
  assert.match(await stuck.textContent(), /allow-same-origin/);
  assert.equal(await frame.locator('[data-testid=peak]').count(), 0);
  console.log(`sandboxed frame: the message shows ${seconds.toFixed(1)} s after the document opened`);
  assert.ok(seconds <= 6, `${seconds} s`);
  await page.close();

  const allowed = snippet.replace('<iframe ', '<iframe sandbox="allow-scripts allow-same-origin" ');
  const ok = await openDoc('sandboxed-ok', docPage(720, allowed));
  await waitForResult(ok.frame);
  await ok.frame.locator('.timeline canvas').waitFor();
  const content = await ok.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await ok.page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height === h, content, { timeout: 5000 });
  assert.ok(await ok.frame.locator('.loading-stuck').count() === 0);
  await ok.page.close();
});
