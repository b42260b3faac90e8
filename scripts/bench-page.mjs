#!/usr/bin/env node
// bench-page.mjs — what one slider move costs the page's main thread, in
// Debian's Chromium: the pp slider of the default view moved between 4 and
// 2, each move timed from the input event to every chart updated (the
// page test's measure, slider-move.mjs), and traced. Prints,
// for the desktop profile and for 4x CPU throttling, the median wall time of a move and the median main-thread
// CPU time of a move (the trace's thread clock), split by the browser's
// phases, and the machine's benchmark index before each page's moves
// (speed-index.mjs), to read the times against. The wall time follows the
// display's frames, so a change smaller than a frame seldom moves it; the
// CPU time shows it.
//
// Usage: node scripts/bench-page.mjs [--frame] [--cold] [--batch N] [rounds] [tree] [other-tree]
//   --frame    each move ends after the frame that follows its changes (a
//              requestAnimationFrame, then a task), so that every move
//              includes its frame: input to pixels, without the test's mix
//              of moves that end before their frame and moves that end after
//   --cold     before each move a global batch size not used before is
//              typed into its box (untimed), so that no move is answered
//              from the answers the page keeps (slider-move.mjs)
//   --batch N  the global batch size of the view moved (default 1,024,
//              the default example's; 8,192 gives a schedule of about
//              2,000 events a rank)
//   rounds     fresh pages per profile (default 5), 16 timed moves each
//   tree       a checkout whose page is built (its public/: build-wasm.sh,
//              build-web.mjs), or the built folder itself; default this
//              checkout. To time today's tree beside a change:
//              git worktree add ../base <commit>, build it there, and give
//              both: node scripts/bench-page.mjs --frame 4 . ../base
//   other-tree a second build to compare with: the pages alternate between
//              the two (A, B, then B, A), and each build's line adds the
//              median of all its moves, since one page's median varies by a
//              frame or more on a shared machine
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { missingPageFiles } from './page-files.mjs';
import { coldSliderMove, sliderMove } from './slider-move.mjs';
import { speedIndex } from './speed-index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const frame = process.argv.includes('--frame');
const cold = process.argv.includes('--cold');
const argv = process.argv.slice(2);
const batchAt = argv.indexOf('--batch');
const batch = batchAt >= 0 ? Number(argv[batchAt + 1]) : 1024;
if (!Number.isInteger(batch) || batch < 1) {
  console.error('bench-page: --batch takes a whole number of sequences, e.g. --batch 8192');
  process.exit(2);
}
const args = argv.filter((a, i) => a !== '--frame' && a !== '--cold' && i !== batchAt && i !== batchAt + 1);
const rounds = Math.max(1, Number(args[0] ?? 5) || 5);
/** A tree's built page: its public/ folder, or the folder given when it is one. */
const builtPage = (p) => (existsSync(path.join(p, 'public', 'index.html')) ? path.join(p, 'public') : p);
const dir = builtPage(path.resolve(args[1] ?? ROOT));
const other = args[2] ? builtPage(path.resolve(args[2])) : null;
/** The view the moves start from. */
const VIEW = batch === 1024 ? '' : `#v=1&s=${encodeURIComponent(JSON.stringify({ global_batch_size: batch }))}`;
const MOVES = 16;
const WARM_MOVES = 6;
// The trace events a move's main-thread time is split into.
const PHASES = ['HandlePostMessage', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'EventDispatch'];
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

for (const d of other ? [dir, other] : [dir]) {
  const missing = missingPageFiles(d);
  if (missing.length) {
    console.error(`bench-page: ${d} lacks ${missing.join(', ')}: run scripts/build-wasm.sh and node scripts/build-web.mjs`);
    process.exit(1);
  }
}

/** @param {number[]} list */
function median(list) {
  const s = [...list].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * A fresh page at `rate` CPU throttling: MOVES traced moves. Returns each
 * move's wall time and main-thread CPU time, their medians and the mean per
 * phase.
 */
async function round(browser, url, rate) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(url + VIEW);
  await page.waitForSelector('[data-testid=peak]');
  await page.waitForTimeout(600);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const index = await speedIndex(page);
  // Cold moves: global batch sizes 16 apart below the view's (multiples of mbs*dp*ep at pp 2 and 4).
  let coldBatch = batch;
  const move = (v) => (cold ? coldSliderMove(page, v, (coldBatch -= 16), { toFrame: frame }) : sliderMove(page, v, { toFrame: frame }));
  for (let i = 0; i < WARM_MOVES; i++) await move(i % 2 ? '4' : '2');
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  const walls = [];
  for (let i = 0; i < MOVES; i++) walls.push(await move(i % 2 ? '4' : '2'));
  await cdp.send('Tracing.end');
  await traced;
  await context.close();
  // The renderer's main thread: the one that lays out.
  const layouts = new Map();
  for (const e of events) if (e.name === 'Layout') layouts.set(e.tid, (layouts.get(e.tid) ?? 0) + 1);
  const main = [...layouts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const starts = events.filter((e) => e.name === 'move-start').map((e) => e.ts).sort((a, b) => a - b);
  const ends = events.filter((e) => e.name === 'move-end').map((e) => e.ts).sort((a, b) => a - b);
  const windows = starts.map((a) => [a, ends.find((t) => t > a)]);
  const inMove = (e) => windows.some(([a, b]) => e.ts >= a && e.ts < b);
  const own = events.filter((e) => e.tid === main && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  // A task that runs across a mark (the move's own input task begins
  // before move-start) counts for the part of it inside the move.
  const inside = (e, a, b) => Math.max(0, Math.min(b, e.ts + e.dur) - Math.max(a, e.ts)) / (e.dur || 1);
  const cpu = windows.map(([a, b]) => own.filter((e) => e.name === 'RunTask')
    .reduce((s, e) => s + (e.tdur ?? e.dur) * inside(e, a, b), 0) / 1000);
  const phases = Object.fromEntries(PHASES.map((p) => [p, 0]));
  let paintEnd = -1;
  for (const e of own) {
    if (!PHASES.includes(e.name) || !inMove(e)) continue;
    if (e.name === 'Paint') { // paint events nest: count the outermost
      if (e.ts < paintEnd) continue;
      paintEnd = e.ts + e.dur;
    }
    phases[e.name] += (e.tdur ?? e.dur) / 1000 / windows.length;
  }
  return { walls, cpus: cpu, wall: median(walls), cpu: median(cpu), phases, index };
}

const builds = other ? [dir, other] : [dir];
const servers = await Promise.all(builds.map((d) => startServer({ dir: d, port: 0 })));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  if (frame) console.log('Each move ends after the frame that follows its changes (--frame).');
  console.log(`The view moved: global batch ${batch}.`);
  if (cold) console.log('Each move goes to a state the page has not estimated (--cold).');
  for (const [name, rate] of [['desktop', 1], ['4x CPU throttling', 4]]) {
    const got = builds.map(() => []);
    for (let r = 0; r < rounds; r++) {
      // A, B then B, A: a machine that speeds up or slows down favours neither.
      const order = r % 2 ? [...servers.entries()].reverse() : [...servers.entries()];
      for (const [i, server] of order) got[i].push(await round(browser, server.url, rate));
    }
    const fmt = (l) => l.map((v) => v.toFixed(1)).join(' ');
    for (const [i, build] of builds.entries()) {
      const pages = got[i];
      const shown = path.relative(process.cwd(), build);
      const who = other ? `${name}, ${shown.startsWith('..') ? build : shown || '.'}` : name;
      const all = other ? ` (all ${pages.length * MOVES} moves: median ${median(pages.flatMap((g) => g.walls)).toFixed(1)})` : '';
      const allCpu = other ? ` (all moves: ${median(pages.flatMap((g) => g.cpus)).toFixed(1)})` : ` (median ${median(pages.map((g) => g.cpu)).toFixed(1)})`;
      console.log(`${who}: a move's wall time, median of ${MOVES} per page: ${fmt(pages.map((g) => g.wall))} ms${all}`);
      console.log(`${who}: a move's main-thread CPU, median of ${MOVES} per page: ${fmt(pages.map((g) => g.cpu))} ms${allCpu}`);
      console.log(`${who}: the machine's benchmark index before each page's moves (speed-index.mjs): ${pages.map((g) => g.index).join(' ')}`);
      console.log(`${who}: per phase, median over the pages: ` +
        PHASES.map((p) => `${p} ${median(pages.map((g) => g.phases[p])).toFixed(2)}`).join(', '));
    }
  }
} finally {
  await browser.close();
  for (const server of servers) server.close();
}
