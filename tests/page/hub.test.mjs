// The hub field (Debian's Chromium, playwright-core) against a stand-in hub
// on loopback (fake-hub.mjs; the served page names it, serve.mjs --hub): a
// preset's id answers without a fetch, an id the core refuses is refused
// before any, another id is fetched only on a click, without a token or a
// cookie, and becomes the model; the hub's refusals (not found, no
// config.json, gated, forbidden, failing), a body over the config limit and
// one memest cannot read give the CLI's own messages for the same answers,
// but for what to do about a token, which the page never sends; a hub that
// cannot be reached is said so; a host that leaves the hub out of its
// policy gets a field that says fetching is not allowed. Needs public/
// built and build/memest.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, DEFAULT_PARAMS, requireBuilds, startSession, waitForResult, seqOf } from './support.mjs';
import { COMMIT, startFakeHub } from './fake-hub.mjs';

/** @type {any} */
let hub;
/** @type {any} */
let session;
let scratch = '';

before(async () => {
  requireBuilds();
  hub = await startFakeHub();
  session = await startSession({ hub: hub.origin });
  scratch = mkdtempSync(path.join(tmpdir(), 'memest-hub-'));
});

after(async () => {
  await session?.close();
  await hub?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The default layout as CLI flags. */
const FLAGS = Object.entries({ ...DEFAULT_PARAMS, micro_batch_size: 1 }).filter(([k]) => k !== 'model')
  .flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)]);

/** The CLI for --model `id` against the stand-in hub, with empty caches: {status, stdout, stderr}. */
function cliHub(id, extra = []) {
  const env = {
    PATH: process.env.PATH ?? '', HOME: scratch, HF_ENDPOINT: hub.origin, NO_PROXY: '*',
    HF_HUB_CACHE: path.join(scratch, `hub-${id.replace('/', '-')}`), XDG_CACHE_HOME: path.join(scratch, `xdg-${id.replace('/', '-')}`),
  };
  return new Promise((ok) => {
    execFile(CLI, ['--model', id, ...FLAGS, ...extra], { env }, (e, stdout, stderr) => ok({ status: e ? e.code : 0, stdout, stderr }));
  });
}

/** Types `id` into the hub field of `page`, clicks Fetch and waits for what it says: {kind, text}. */
async function fetchId(page, id) {
  await page.getByTestId('hub-id').fill(id);
  await page.getByTestId('hub-fetch').click();
  const said = page.locator('[data-testid=hub-status], [data-testid=hub-problem]');
  await said.first().waitFor({ timeout: 15000 });
  return { kind: await said.first().getAttribute('data-testid'), text: await said.first().textContent() };
}

test('a preset\'s id answers without a fetch; an id the core refuses is refused before any', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const before = hub.requests.length;
  const seq = await seqOf(page);
  const preset = await fetchId(page, 'openai/gpt-oss-20b');
  assert.equal(preset.kind, 'hub-status');
  assert.match(preset.text, /^openai\/gpt-oss-20b is the preset gpt-oss-20b: the shipped config, with no fetch\.$/);
  assert.equal(await page.locator('[data-field=model] select').inputValue(), 'gpt-oss-20b');
  await waitForResult(page, seq);
  const refused = await fetchId(page, 'test-org/bad--id');
  assert.equal(refused.kind, 'hub-problem');
  // The core's rule, as the CLI words it.
  const cli = await cliHub('test-org/bad--id');
  const why = /nor is it a hub id: (.*)$/m.exec(cli.stderr)?.[1];
  assert.ok(why, cli.stderr);
  assert.equal(refused.text, `'test-org/bad--id' is not a hub id: ${why}.`);
  assert.equal(hub.requests.length, before, 'nothing was fetched');
  await page.close();
});

test('another id is fetched on a click only, without a token or a cookie, and becomes the model with the CLI\'s estimate', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  const before = hub.requests.length;
  await page.getByTestId('hub-id').fill('test-org/Found-MoE');
  await page.waitForTimeout(400);
  assert.equal(hub.requests.length, before, 'typing fetches nothing');
  const seq = await seqOf(page);
  const said = await fetchId(page, 'test-org/Found-MoE');
  assert.equal(said.kind, 'hub-status');
  assert.equal(said.text, `Fetched ${hub.origin}/test-org/Found-MoE/resolve/main/config.json (revision ${COMMIT.slice(0, 12)}).`);
  await waitForResult(page, seq);
  assert.equal(await page.locator('[data-field=model] select option:checked').textContent(), 'Pasted config: Found-MoE');
  const mine = hub.requests.slice(before);
  const cli = await cliHub('test-org/Found-MoE', ['--json']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(Number(await page.getByTestId('peak').getAttribute('data-bytes')), JSON.parse(cli.stdout).peak_bytes);
  assert.deepEqual(mine.map((r) => r.path), ['/test-org/Found-MoE/resolve/main/config.json']);
  assert.ok(mine.every((r) => r.authorization === null && r.cookie === null), 'no token, no cookie');
  await page.close();
});

test('the hub\'s refusals and bad bodies give the CLI\'s messages, a token named as needed and never sent', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  for (const id of ['test-org/Missing', 'test-org/No-Config', 'test-org/Gated-MoE', 'test-org/Forbidden-MoE', 'test-org/Busy', 'test-org/Huge', 'test-org/Not-Json']) {
    const said = await fetchId(page, id);
    assert.equal(said.kind, 'hub-problem', id);
    const cli = await cliHub(id);
    assert.notEqual(cli.status, 0, id);
    // The CLI's message, less what it says of its caches and of HF_TOKEN.
    let want = cli.stderr.trim().replace(/^memest: error: /, '').split('; neither the hub\'s cache')[0];
    if (/a token is needed/.test(want)) {
      want = want.split('a token is needed')[0] + 'a token is needed';
      assert.match(said.text, /a token is needed, and the page never sends one: download config\.json where you have access and drop it here/, id);
    }
    assert.ok(said.text.startsWith(want), `${id}:\n page ${said.text}\n CLI  ${want}`);
  }
  // Nothing changed the model.
  assert.equal(await page.locator('[data-field=model] select').inputValue(), 'qwen3-30b-a3b');
  await page.close();
});

test('a hub that cannot be reached is said so, with the URL', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = /** @type {any} */ (s.address()).port;
      s.close(() => ok(p));
    });
  });
  const other = await startSession({ hub: `http://127.0.0.1:${port}` });
  try {
    const page = await other.newPage();
    await page.goto(other.url);
    await waitForResult(page);
    const said = await fetchId(page, 'test-org/Found-MoE');
    assert.equal(said.kind, 'hub-problem');
    assert.match(said.text, new RegExp(`^cannot download the config of 'test-org/Found-MoE' from http://127\\.0\\.0\\.1:${port}/test-org/Found-MoE/resolve/main/config\\.json: `));
    await page.close();
  } finally {
    await other.close();
  }
});

test('a host that leaves the hub out of its policy: the field says fetching is not allowed, and presets\' ids still work', async () => {
  const other = await startSession({ hub: 'none' });
  try {
    const page = await other.newPage();
    await page.goto(other.url);
    await waitForResult(page);
    const field = page.getByTestId('hub-field');
    assert.equal(await field.getAttribute('data-allowed'), 'false');
    assert.match(await page.getByTestId('hub-help').textContent(), /^Fetching from the hub is not allowed here/);
    const said = await fetchId(page, 'test-org/Found-MoE');
    assert.equal(said.kind, 'hub-problem');
    assert.match(said.text, /^Fetching from the hub is not allowed here: .*Download test-org\/Found-MoE’s config\.json and drop it on the page, or pick a preset\.$/);
    const preset = await fetchId(page, 'deepseek-ai/DeepSeek-V2-Lite');
    assert.equal(preset.kind, 'hub-status');
    assert.equal(await page.locator('[data-field=model] select').inputValue(), 'deepseek-v2-lite');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
    await page.close();
  } finally {
    await other.close();
  }
});

test('the page as built names https://huggingface.co and its policy allows it', async () => {
  const other = await startSession();
  try {
    const page = await other.newPage();
    await page.goto(other.url);
    await waitForResult(page);
    assert.equal(await page.getByTestId('hub-field').getAttribute('data-allowed'), 'true');
    assert.match(await page.getByTestId('hub-help').textContent(), /^Fetched from https:\/\/huggingface\.co when you click, without a token/);
    await page.close();
    assert.deepEqual(other.requests.filter((u) => !u.startsWith(other.url)), [], 'nothing is fetched unasked');
  } finally {
    await other.close();
  }
});
