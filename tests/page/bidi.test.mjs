// Text from files shown on the page cannot reorder the page around it
// (Debian's Chromium, playwright-core): file names, config keys, log lines
// and the messages that quote them are isolated (<bdi>) and their bidi
// marks and controls shown as \uXXXX, as the CLI writes them
// (core/base/text_escape.c). Hostile names are dropped on the page, on the
// Measured run panel and in a pasted config; afterwards no text on the page
// holds such a character, and each one shows visibly inside an isolate.
// Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MODELS, ROOT, fileSession, waitForResult, drop } from './support.mjs';

const session = fileSession();

/** The characters the CLI never writes raw (text_escape.c), tab and newline apart. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const RLO = '\u202e';

/** Every text node of the page that holds an unsafe character, and the escapes shown outside an isolate. */
function leaks(page) {
  return page.evaluate((source) => {
    const unsafe = new RegExp(source);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const raw = [];
    const bare = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (unsafe.test(n.nodeValue)) raw.push(n.nodeValue.slice(0, 80));
      // The command's snippet writes the config with JSON escapes (the same JSON): ASCII, isolated or not.
      if (n.nodeValue.includes('\\u202e') && !n.parentElement.closest('bdi, [data-testid=command-script]')) bare.push(n.nodeValue.slice(0, 80));
    }
    return { raw, bare, shown: document.body.innerText.split('\\u202e').length - 1 };
  }, UNSAFE.source);
}

test('names from files are isolated, their bidi controls visible, wherever the page shows them', async () => {
  const page = await session.newPage();
  await page.goto(session.url);
  await waitForResult(page);
  // A file the page does not take: refused, with its name.
  await drop(page, 'main', [{ name: `notes${RLO}fdp.md`, text: '# notes' }]);
  await page.getByTestId('model-problem').waitFor();
  assert.match(await page.getByTestId('model-problem').textContent(), /^notes\\u202efdp\.md: the page takes/);
  assert.deepEqual((await leaks(page)).raw, []);
  // A launch script and its setup.py: the files read, by name.
  const T = path.join(ROOT, 'tests', 'trainer', 'checkout', 'benchmarks', 'pretraining', 'tiny');
  await drop(page, 'main', [
    { name: `run${RLO}yp.py`, text: readFileSync(path.join(T, 'h100-2n8g', 'pp2-dp2-cp1-ep4-seq2048-bf16.py'), 'utf8') },
    { name: 'setup.py', text: readFileSync(path.join(T, 'setup.py'), 'utf8') },
  ]);
  await page.getByTestId('trainer-files').waitFor();
  // A log on the Measured run panel whose reading is refused on a line.
  await drop(page, '[data-drop-zone=measured]', [{ name: `train${RLO}gol.log`, text: 'step 00000001/00000002 | peak-gpu-memory 0.00 GB\nstep 00000002/00000002 | peak-gpu-memory 50.00 GB\n' }]);
  await page.getByTestId('measured-log-summary').waitFor();
  // A config whose key name holds the mark (the engine lists its keys with '?' for such bytes).
  const config = JSON.parse(readFileSync(path.join(MODELS, 'qwen3-30b-a3b.json'), 'utf8'));
  config[`note${RLO}eton`] = 1;
  await page.locator('.config-editor summary').click();
  await page.locator('textarea[data-field=config]').fill(JSON.stringify(config, null, 2));
  await waitForResult(page);
  await page.locator('[data-testid=model-summary] details summary').first().click();
  // The editor keeps the text as typed: that is the user's own input, not shown text.
  const got = await leaks(page);
  assert.deepEqual(got.raw, [], 'no text node holds a raw bidi control');
  assert.deepEqual(got.bare, [], 'each escape sits inside an isolate');
  assert.ok(got.shown >= 2, `${got.shown} names shown with \\u202e visible`);
  for (const id of ['trainer-files', 'measured-log-summary']) {
    assert.match(await page.getByTestId(id).textContent(), /\\u202e/, id);
  }
  assert.ok(await page.locator('[data-testid=trainer-files] bdi', { hasText: 'run\\u202eyp.py' }).count());
  // The snippet writes the key as a JSON escape: the same config.
  const script = await page.getByTestId('command-script').textContent();
  const body = script.split('\n').slice(1, -3).join('\n');
  assert.deepEqual(Object.keys(JSON.parse(body)).filter((k) => k.includes(RLO)), [`note${RLO}eton`]);
  await page.close();
});
