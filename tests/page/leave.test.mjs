// The answer leaves the page (Debian's Chromium, playwright-core): the JSON
// download is the object `memest --json` prints for the same inputs, the
// CSV downloads give every rank's components and the shown rank's whole
// timeline in bytes, and the printed page is the inputs as a summary, then
// the results, with no controls, on two A4 or Letter pages. Needs public/
// built and build/memest.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { CLI, DEFAULT_PARAMS, cli, waitForResult, fileSession, stateLink } from './support.mjs';

const session = fileSession();
let page;
before(async () => {
  await session.ready;
  page = await session.newPage();
  await page.goto(stateLink(session.url, { pp_size: 2, optimizer: 'muon' }));
  await waitForResult(page);
});

const PARAMS = { ...DEFAULT_PARAMS, pp_size: 2, optimizer: 'muon' };

/** Clicks the download button `testid` and returns the file's name and text. */
async function download(testid) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

/** A CSV text as rows of fields (no quoted commas in these files but the labels'). */
function csvRows(text) {
  const rows = [];
  for (const line of text.trimEnd().split('\r\n')) {
    const fields = [];
    let m;
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    while ((m = re.exec(line)) && m[0] !== '') {
      fields.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
      if (m[2] === '') break;
    }
    rows.push(fields);
  }
  return rows;
}

test('Download JSON gives the object memest --json prints for these inputs', async () => {
  const { name, text } = await download('download-json');
  assert.match(name, /^memest-qwen3-30b-a3b-pp2-ep8-cp1-32gpus\.json$/);
  assert.deepEqual(JSON.parse(text), cli(PARAMS));
});

test('Download CSV gives every rank\'s components at its peak, and the shown rank\'s whole timeline, in bytes', async () => {
  const want = cli(PARAMS);
  const ranks = csvRows((await download('download-ranks')).text);
  const keys = [...Object.keys(want.ranks[0].static), ...Object.keys(want.ranks[0].dynamic)];
  assert.deepEqual(ranks[0], ['pp_rank', 'peak_bytes', 'tensor_peak_bytes', 'non_pytorch_bytes', 'fragmentation_bytes', ...keys]);
  assert.equal(ranks.length, want.ranks.length + 1);
  for (const [i, r] of want.ranks.entries()) {
    const at = { ...r.static, ...r.dynamic };
    assert.deepEqual(ranks[i + 1].map(Number), [r.pp_rank, r.peak_bytes, r.tensor_peak_bytes, r.non_pytorch_bytes, r.fragmentation_bytes, ...keys.map((k) => at[k])]);
  }
  const { name, text } = await download('download-timeline');
  assert.match(name, new RegExp(`-timeline-rank${want.worst_rank}\\.csv$`));
  const rows = csvRows(text);
  const flags = Object.entries({ ...PARAMS, pp_rank: want.worst_rank, timeline_limit: 0 }).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)]);
  const shown = JSON.parse(execFileSync(CLI, ['--json', '--timeline', ...flags], { encoding: 'utf8', maxBuffer: 1 << 28 })).ranks[0];
  assert.equal(rows.length, shown.events_total + 1, 'every event of the schedule');
  const head = rows[0];
  for (const [i, e] of shown.events.entries()) {
    const row = Object.fromEntries(head.map((h, j) => [h, rows[i + 1][j]]));
    assert.equal(Number(row.event), e.index);
    assert.equal(row.label, e.label);
    assert.equal(Number(row.total_bytes), e.total_bytes);
    for (const [k, v] of Object.entries(e.components)) assert.equal(Number(row[k]), v, `${e.index} ${k}`);
  }
});

test('the printed page: the inputs as a summary, then the results, no controls, on two A4 or Letter pages', async () => {
  await page.emulateMedia({ media: 'print' });
  const shown = await page.evaluate(() => {
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    return {
      controls: [...document.querySelectorAll('input, select, textarea, button')].filter(visible).map((el) => el.outerHTML.slice(0, 60)),
      summary: visible(document.querySelector('[data-testid=inputs-summary]')) ? document.querySelector('[data-testid=inputs-summary]').innerText : '',
      first: [...document.querySelectorAll('[data-testid=inputs-summary], [data-testid=peak-card]')].map((el) => el.dataset.testid),
    };
  });
  assert.deepEqual(shown.controls, []);
  assert.match(shown.summary, /Pipeline parallel \(pp\)\s*2/);
  assert.match(shown.summary, /Optimizer\s*Muon/);
  assert.deepEqual(shown.first, ['inputs-summary', 'peak-card'], 'the inputs before the results');
  await page.emulateMedia({ media: null });
  // The default example, its suggestions computed (they are once on screen).
  const plain = await session.newPage();
  await plain.goto(session.url);
  await waitForResult(plain);
  await plain.getByTestId('suggestions').scrollIntoViewIfNeeded();
  await plain.waitForFunction(() => document.querySelector('[data-testid=suggestions]').getAttribute('aria-busy') === 'false');
  for (const format of ['A4', 'Letter']) {
    const pdf = (await plain.pdf({ format, printBackground: true })).toString('latin1');
    const pages = (pdf.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    console.log(`print: ${pages} ${format} pages`);
    assert.ok(pages >= 1 && pages <= 2, `${pages} ${format} pages`);
  }
  await plain.close();
  assert.deepEqual(await page.evaluate(() => document.querySelector('[data-testid=inputs-summary]').getClientRects().length), 0, 'not shown on screen');
});
