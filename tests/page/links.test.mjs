// Links that cannot be read stay in the address bar until the user changes
// something, each with a notice that says what was wrong; and the command a
// pasted config gets on the page runs as shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import LZString from 'lz-string';
import { requireBuilds, startSession, waitForResult, seqOf, headline, CLI, MODELS } from './support.mjs';

let session;
let page;
before(async () => {
  requireBuilds();
  session = await startSession();
  page = await session.newPage();
});
after(async () => {
  await session?.close();
});

const hashNow = () => page.evaluate(() => location.hash);

test('an unreadable link keeps its fragment, says why, and gives way at the first change', async () => {
  const truncated = `#v=1&s=${LZString.compressToEncodedURIComponent(JSON.stringify({ pp_size: 2, sequence_length: 8192 })).slice(0, 20)}`;
  const cases = [
    { frag: '#garbage', notice: /could not be read: its fragment "#garbage" is not a memest link/ },
    { frag: truncated, notice: /could not be read: it is damaged or cut short/ },
    { frag: '#v=9&s=%7B%7D', notice: /newer version/ },
    { frag: '#v=1&s=%7B%22pp_size%22%3A2%7D&ref=wiki', notice: /"ref" is not part of a memest link/ },
  ];
  for (const c of cases) {
    await page.goto('about:blank');
    await page.goto(`${session.url}${c.frag}`);
    await waitForResult(page);
    const notice = await page.getByTestId('notice').textContent();
    assert.match(notice, c.notice, c.frag);
    assert.match(notice, /keeps the link as it came until you change something/);
    await page.waitForTimeout(200);
    assert.equal(await hashNow(), c.frag, 'the fragment is kept as it came');
    const seq = await seqOf(page);
    await page.locator('[data-field=ep_size] input[type=number]').fill('4');
    await waitForResult(page, seq);
    await page.waitForFunction((f) => location.hash !== f, c.frag);
    assert.match(await hashNow(), /^#v=1&s=/);
  }
  // The same for a link pasted into the address bar of the open page.
  await page.evaluate(() => { location.hash = '#not-a-link'; });
  await page.getByTestId('notice').getByText(/"#not-a-link" is not a memest link/).waitFor();
  await page.waitForTimeout(200);
  assert.equal(await hashNow(), '#not-a-link');
});

test('a link pasted while the page writes its own fragment is the one that is read', async () => {
  // The page writes its state into the fragment a moment after a change.
  // When that write lands between a pasted link's navigation and its
  // hashchange event, location.hash already holds the page's own fragment
  // again; the event's newURL is the link.
  const opened = `#v=1&s=${encodeURIComponent(JSON.stringify({ pp_size: 2, total_gpus: 16 }))}`;
  await page.goto('about:blank');
  await page.goto(`${session.url}${opened}`);
  await waitForResult(page);
  let seq = await seqOf(page);
  await page.locator('[data-field=ep_size] input[type=number]').fill('4');
  await waitForResult(page, seq);
  await page.waitForFunction((f) => location.hash !== f, opened);
  const own = await hashNow();
  seq = await seqOf(page);
  const pasted = `#v=1&s=${encodeURIComponent(JSON.stringify({ pp_size: 8, total_gpus: 64 }))}`;
  await page.evaluate((link) => {
    const newURL = new URL(link, location.href).href;
    window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL: location.href, newURL }));
  }, pasted);
  assert.equal(await hashNow(), own, 'location.hash still holds the fragment the page wrote');
  await waitForResult(page, seq);
  assert.equal(await page.locator('[data-field=pp_size] input[type=number]').inputValue(), '8');
  assert.equal(await page.locator('[data-field=total_gpus] input[type=number]').inputValue(), '64');
});

test('the command for a pasted config runs, as shown and as one snippet', async () => {
  const file = path.join(MODELS, 'deepseek-v2-lite.json');
  const text = readFileSync(file, 'utf8');
  await page.goto('about:blank');
  await page.goto(session.url);
  await waitForResult(page);
  const seq = await seqOf(page);
  await page.locator('.config-editor summary').click();
  await page.locator('textarea[data-field=config]').fill(text);
  await waitForResult(page, seq);
  await page.waitForFunction(() => document.querySelector('[data-testid=results]').dataset.stale === 'false'
    && /--model config\.json/.test(document.querySelector('[data-testid=command]')?.textContent ?? ''));
  const shown = await headline(page);
  assert.match(shown.command, /^memest --model config\.json --pp-size \d+ /);
  assert.doesNotMatch(await page.locator('.command').textContent(), /--config/);
  await page.locator('.command-script summary').click();
  const script = await page.getByTestId('command-script').textContent();
  const dir = mkdtempSync(path.join(tmpdir(), 'memest-page-cmd-'));
  try {
    const env = { ...process.env, PATH: `${path.dirname(CLI)}:${process.env.PATH}` };
    const out = execFileSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', env });
    assert.equal(readFileSync(path.join(dir, 'config.json'), 'utf8').trim(), text.trim());
    assert.ok(out.startsWith(shown.command), out.slice(0, 200));
    // The command as shown, on the saved file, gives the page's peak.
    const json = JSON.parse(execFileSync('bash', ['-c', `${shown.command} --json`], { cwd: dir, encoding: 'utf8', env }));
    assert.equal(json.peak_bytes, shown.peakBytes);
    assert.equal(json.status, shown.status);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
