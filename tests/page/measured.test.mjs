// The measured run on the page (Debian's Chromium, playwright-core):
// snapshots written by tests/measured/gen_snapshot.py with CPython's pickle
// are chosen as files; the page shows their peaks as the CLI's `memest
// check` computes them, markers on the rank chart, the measured curve,
// the sites and the fragmentation button; a pasted log and a hostile
// pickle. Needs public/ built and build/memest; python3 for the snapshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, CLI, requireBuilds, startSession, waitForResult, gibText } from './support.mjs';

const RUN = ['--model', 'qwen3-30b-a3b', '--pp-size', '4', '--ep-size', '8', '--cp-size', '1', '--total-gpus', '32',
  '--micro-batch-size', '1', '--global-batch-size', '1024', '--sequence-length', '4096', '--gpu', 'h100'];

let session;
let page;
let dir;
before(async () => {
  requireBuilds();
  dir = mkdtempSync(path.join(tmpdir(), 'memest-measured-'));
  execFileSync('python3', [path.join(ROOT, 'tests/measured/gen_snapshot.py'), dir, '--rank-list', '0,9,30', '--events', '600'],
    { encoding: 'utf8' });
  session = await startSession();
  page = await session.newPage();
});
after(async () => {
  await session?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('dropped snapshots show their peaks, markers, curve, sites and fragmentation', async () => {
  await page.goto(session.url);
  await waitForResult(page);
  const files = readdirSync(dir).filter((f) => f.endsWith('.pickle')).sort().map((f) => path.join(dir, f));
  const want = JSON.parse(execFileSync(CLI, ['check', '--json', '--snapshot', ...files, ...RUN], { encoding: 'utf8' }));
  await page.getByTestId('measured-files').setInputFiles(files);
  await page.getByTestId('measured-ranks').waitFor();
  const rows = page.getByTestId('measured-ranks').locator('tbody tr');
  assert.equal(await rows.count(), 3);
  for (const r of want.ranks) {
    const row = rows.filter({ hasText: path.basename(r.source) });
    const cells = await row.locator('td').allTextContents();
    assert.equal(cells[0], String(r.global_rank));
    assert.equal(cells[1], String(r.pp_rank));
    assert.equal(cells[2], gibText(r.measured_peak_bytes));
    assert.equal(cells[3], gibText(r.estimated_peak_bytes));
  }
  // Global ranks 0, 9 and 30 are pipeline ranks 0, 1 and 3: three markers.
  assert.equal(await page.locator('.rank-bars [data-testid=measured-mark]').count(), 3);
  assert.equal(await page.locator('.rank-bars [data-rank="2"] [data-testid=measured-mark]').count(), 0);
  await page.getByTestId('measured-curve').locator('canvas').first().waitFor();
  assert.ok(await page.getByTestId('measured-sites').locator('tbody tr').count() > 0);
  // The fragmentation of the largest snapshot, and its button.
  const top = want.ranks.reduce((a, b) => (b.measured_peak_bytes > a.measured_peak_bytes ? b : a));
  const frag = Math.round(top.snapshot.fragmentation * 1000) / 1000;
  assert.match(await page.getByTestId('measured-frag').textContent(),
    new RegExp(`Your run’s fragmentation is ${(top.snapshot.fragmentation * 100).toFixed(1)}%`));
  assert.match(await page.locator('.measured .help').first().textContent(), /A shared link does not carry them/);
  const seq = Number(await page.locator('[data-testid=results]').getAttribute('data-seq'));
  await page.getByTestId('use-fragmentation').click();
  await waitForResult(page, seq);
  const value = await page.locator('[data-field="fragmentation"] input[type=number]').inputValue();
  assert.equal(Number(value), Math.min(1, frag));
  // The link carries the inputs only.
  assert.ok(!(await page.evaluate(() => location.hash)).includes('pickle'));
});

test('a pasted log is read; a hostile pickle is refused inline', async () => {
  // CR-only line ends (a terminal's rewrites) are lines; a reading of 0.00
  // is no measurement: named with its line, never compared.
  await page.getByTestId('measured-log').fill(
    'step 00000001/00000010 | peak-gpu-memory 60.10 GB\rstep 00000002/00000010 | peak-gpu-memory 51.25 GB\r' +
    'step 00000003/00000010 | peak-gpu-memory 0.00 GB\n');
  await page.getByRole('button', { name: 'Read the log lines' }).click();
  await page.getByTestId('measured-log-summary').waitFor();
  assert.match(await page.getByTestId('measured-log-summary').textContent(),
    /2 steps read \(1–2\); compared: the largest after the first step, 51\.25 GiB/);
  assert.match(await page.getByTestId('measured-log-notes').textContent(),
    /Not compared: line 3: peak-gpu-memory 0\.00 GB is zero, which is no measurement/);
  const bad = path.join(dir, 'evil-rank00001.pickle');
  writeFileSync(bad, Buffer.from('8004636f730a73797374656d0a2e', 'hex'));
  await page.getByTestId('measured-files').setInputFiles([bad]);
  const alert = page.locator('.measured .notice-error');
  await alert.waitFor();
  assert.match(await alert.textContent(), /GLOBAL \(imports a Python name\)/);
  assert.deepEqual(session.errors, []);
});
