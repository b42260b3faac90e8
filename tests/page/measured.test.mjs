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

test('the comparison is like for like, signed (+: memest estimates more), the log compared, the markers and the curve explained', async () => {
  // The page of the test before: three snapshots read, the default view.
  const like = await page.getByTestId('measured-like-for-like').textContent();
  assert.match(like, /allocated bytes.*tensor peak of the same pipeline rank/s);
  assert.match(like, /\+ means memest estimates more/);
  const files = readdirSync(dir).filter((f) => /^snapshot-rank\d+\.pickle$/.test(f)).sort().map((f) => path.join(dir, f));
  const want = JSON.parse(execFileSync(CLI, ['check', '--json', '--snapshot', ...files, ...RUN], { encoding: 'utf8' }));
  const errors = await page.getByTestId('measured-error').allTextContents();
  for (const r of want.ranks) {
    const e = (r.estimated_peak_bytes - r.measured_peak_bytes) / r.measured_peak_bytes;
    const text = `${e < 0 ? '\u2212' : '+'}${(Math.abs(e) * 100).toFixed(1)}%`;
    assert.ok(errors.includes(text), `${text} in ${errors.join(' ')}`);
  }
  // The markers have a legend beside the chart.
  assert.match(await page.locator('.rank-legend').textContent(), /Black marks: the measured run’s allocated peak/);
  // The measured curve: its dashed line explained, its hover in GiB.
  const curve = page.getByTestId('measured-curve');
  assert.match(await curve.textContent(), /Dashed: the estimate’s tensors|Show the timeline of the same pipeline rank/);
  // The chart may be drawn again meanwhile (the suggestions scrolled into
  // view ask for a new answer): hover until its legend has values.
  const plot = curve.locator('.u-over').first();
  await plot.scrollIntoViewIfNeeded();
  const hovered = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=measured-curve] .u-legend .u-value')].some((v) => /GiB$/.test(v.textContent)));
  for (let i = 0; i < 20 && !(await hovered()); i++) {
    const box = await plot.boundingBox();
    if (box) await page.mouse.move(box.x + box.width * (0.4 + i / 100), box.y + box.height * 0.5);
    await page.waitForTimeout(100);
  }
  assert.ok(await hovered(), 'the hover gives values in GiB');
  // The log's figure against the estimate's tensors of the worst rank, signed.
  await page.getByTestId('measured-log').fill('step 00000001/00000010 | peak-gpu-memory 60.10 GB\nstep 00000002/00000010 | peak-gpu-memory 40.00 GB\n');
  await page.getByRole('button', { name: 'Read the log lines' }).click();
  await page.getByTestId('measured-log-error').waitFor();
  const tensors = JSON.parse(execFileSync(CLI, ['--json', ...RUN], { encoding: 'utf8' })).tensor_peak_bytes;
  const e = (tensors - 40 * 2 ** 30) / (40 * 2 ** 30);
  assert.equal(await page.getByTestId('measured-log-error').textContent(), `${e < 0 ? '\u2212' : '+'}${(Math.abs(e) * 100).toFixed(1)}%`);
});

test('a fragmentation that cannot be real is not offered: a snapshot without segment data', async () => {
  const p = await session.newPage();
  await p.goto(session.url);
  await waitForResult(p);
  const file = path.join(dir, 'bare-rank00000.pickle');
  execFileSync('python3', ['-c', `
import pickle, sys
trace = [{"action": "alloc", "addr": 4096 * i, "size": 1 << 20, "stream": 0, "frames": [], "time_us": i} for i in range(8)]
pickle.dump({"segments": [], "device_traces": [trace]}, open(sys.argv[1], "wb"))
`, file]);
  await p.getByTestId('measured-files').setInputFiles([file]);
  await p.getByTestId('measured-frag-unknown').waitFor();
  assert.match(await p.getByTestId('measured-frag-unknown').textContent(), /no segment data/);
  assert.equal(await p.getByTestId('use-fragmentation').count(), 0);
  await p.close();
});

test('a pasted log is read; a hostile pickle is refused inline', async () => {
  // CR-only line ends (a terminal's rewrites) are lines; a reading of 0.00
  // is no measurement: named with its line, never compared.
  await page.getByTestId('measured-log').fill(
    'step 00000001/00000010 | peak-gpu-memory 60.10 GB\rstep 00000002/00000010 | peak-gpu-memory 51.25 GB\r' +
    'step 00000003/00000010 | peak-gpu-memory 0.00 GB\n');
  await page.getByRole('button', { name: 'Read the log lines' }).click();
  // The summary of the test before stays until this log is read.
  await page.waitForFunction(() => /51\.25 GiB/.test(document.querySelector('[data-testid=measured-log-summary]')?.textContent ?? ''));
  assert.match(await page.getByTestId('measured-log-summary').textContent(),
    /2 steps read \(1–2\); compared: the largest after the first step, 51\.25 GiB/);
  assert.match(await page.getByTestId('measured-log-notes').textContent(),
    /Not compared: line 3: peak-gpu-memory 0\.00 GB is zero, which is no measurement/);
  assert.match(await page.getByTestId('measured-log-summary').textContent(), /Against the estimate’s tensors of the worst rank/);
  const bad = path.join(dir, 'evil-rank00001.pickle');
  writeFileSync(bad, Buffer.from('8004636f730a73797374656d0a2e', 'hex'));
  await page.getByTestId('measured-files').setInputFiles([bad]);
  const alert = page.locator('.measured .notice-error');
  await alert.waitFor();
  assert.match(await alert.textContent(), /GLOBAL \(imports a Python name\)/);
  assert.deepEqual(session.errors, []);
});
