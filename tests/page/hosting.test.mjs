// The page as a static host serves it: under a sub-path of Python's plain
// `python3 -m http.server` (no CSP header, Python's types), and on a
// plain-http intranet name, where the browser gives no Clipboard API: the
// link is always in a field, selected after Copy link, and a failed copy
// never looks like success.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PUBLIC, CHROMIUM_ARGS, DEFAULT_PARAMS, requireBuilds, cli, waitForResult, headline, seqOf, waitForLink } from './support.mjs';
import { startPythonServer } from './hosts.mjs';

const SUB = '/tools/memest/';
let dir;
let python;
let browser;
const errors = [];
before(async () => {
  requireBuilds();
  dir = mkdtempSync(path.join(tmpdir(), 'memest-host-'));
  mkdirSync(path.join(dir, 'tools'));
  symlinkSync(PUBLIC, path.join(dir, 'tools', 'memest'));
  python = await startPythonServer(dir);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP calc.internal 127.0.0.1'],
  });
});
after(async () => {
  await browser?.close();
  await python?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(url, { width = 1280, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { context, page, requests };
}

test('under a sub-path of python3 -m http.server, with no CSP header, the page works', async () => {
  const home = `${python.url}${SUB}`;
  const head = await fetch(home);
  assert.equal(head.headers.get('content-security-policy'), null, 'the test needs a server without the header');
  assert.equal((await fetch(`${home}memest.wasm`)).headers.get('content-type'), 'application/wasm');
  const { context, page, requests } = await open(home);
  await waitForResult(page);
  const want = cli(DEFAULT_PARAMS);
  assert.equal((await headline(page)).peakBytes, want.peak_bytes);
  await page.locator('.timeline canvas').waitFor();
  for (const r of requests) assert.ok(r.startsWith(home), `a request outside the sub-path: ${r}`);
  assert.ok(requests.some((r) => r.endsWith('/memest.wasm')), 'the engine was loaded');
  // The link stays on the sub-path, and reopens the same view.
  const seq = await seqOf(page);
  await page.locator('[data-field=pp_size] input[type=number]').fill('2');
  await waitForResult(page, seq);
  await waitForLink(page);
  const link = await page.getByTestId('share-link').inputValue();
  assert.ok(link.startsWith(`${home}#v=1&s=`), link);
  const again = await open(link);
  await waitForResult(again.page);
  assert.equal((await headline(again.page)).peakBytes, cli({ ...DEFAULT_PARAMS, pp_size: 2 }).peak_bytes);
  await again.context.close();
  await context.close();
  assert.deepEqual(errors, []);
});

test('on a plain-http intranet host Copy link copies through the selected field', async () => {
  const port = new URL(python.url).port;
  const home = `http://calc.internal:${port}${SUB}`;
  const { context, page } = await open(home);
  await waitForResult(page);
  assert.deepEqual(await page.evaluate(() => [window.isSecureContext, typeof navigator.clipboard]), [false, 'undefined']);
  const field = page.getByTestId('share-link');
  assert.equal(await field.inputValue(), `${home}#v=1`, 'the link is shown before any click');
  assert.equal(await field.getAttribute('readonly'), '');
  await page.getByTestId('copy-link').click();
  const selected = () => page.evaluate(() => {
    const el = document.querySelector('[data-testid=share-link]');
    return document.activeElement === el && el.selectionStart === 0 && el.selectionEnd === el.value.length;
  });
  assert.equal(await selected(), true, 'the link is selected after a click');
  const said = page.getByTestId('copy-link-said');
  assert.equal(await said.textContent(), 'Copied');
  // What reached the clipboard, read back from a secure page of the same browser context.
  const secure = await context.newPage();
  await context.grantPermissions(['clipboard-read'], { origin: python.url });
  await secure.goto(`${python.url}${SUB}`);
  assert.equal(await secure.evaluate(() => navigator.clipboard.readText()), `${home}#v=1`);
  await secure.close();

  // When the browser refuses, the field stays selected and the message is not the success colour.
  await page.evaluate(() => { document.execCommand = () => false; });
  await page.getByTestId('copy-link').click();
  assert.match(await said.textContent(), /did not copy it: the text is selected, press Ctrl\+C/);
  assert.equal(await selected(), true);
  const colours = await page.evaluate(() => {
    const ok = document.createElement('span');
    ok.className = 'copy-said';
    document.body.append(ok);
    const c = [getComputedStyle(document.querySelector('[data-testid=copy-link-said]')).color, getComputedStyle(ok).color];
    ok.remove();
    return c;
  });
  assert.notEqual(colours[0], colours[1], 'a failure in the colour of success');
  await context.close();
});
