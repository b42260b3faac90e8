// Unit tests of the timeline's drawing (no browser): the plot's box, ranges
// and ticks, the pointer's mapping, a drawing recorded
// on a context that keeps its calls and the readout's components.
// node --test tests/page/timeline-plot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plotBox, xRange, yMax, ticks, eventAt, eventPx, drawTimeline, MARGIN } from '../../web/app/timeline-plot.js';
import { timelineData, eventParts } from '../../web/app/timeline-data.js';
import { chartColor, CANVAS_INK } from '../../web/app/scheme.js';
import { partColor } from '../../web/app/palette.js';

const GIB = 2 ** 30;

test('the plot box leaves room for the axes, and the ranges follow the data, the zoom and the capacity', () => {
  assert.deepEqual(plotBox(912, 260), { left: MARGIN.left, top: MARGIN.top, width: 912 - MARGIN.left - MARGIN.right, height: 260 - MARGIN.top - MARGIN.bottom });
  assert.equal(plotBox(10, 10).width, 1, 'never below one pixel');
  const x = [10, 11, 12, 13, 14];
  assert.deepEqual(xRange(x), [10, 14]);
  assert.deepEqual(xRange(x, [11.5, 13]), [11.5, 13]);
  assert.deepEqual(xRange(x, [0, 100]), [10, 14], 'a zoom is kept inside the data');
  assert.deepEqual(xRange(x, [13, 12]), [10, 14], 'an empty zoom shows every event');
  assert.deepEqual(xRange([7]), [7, 8]);
  const data = { x, series: [[1, 2, 9, 3, 1]] };
  assert.ok(Math.abs(yMax(data, [10, 14], 0) - 9 * 1.06) < 1e-12);
  // Event 12 (9 GiB) holds until 13, so a zoom from 12.5 still shows it.
  assert.ok(Math.abs(yMax(data, [12.5, 14], 0) - 9 * 1.06) < 1e-12);
  assert.ok(Math.abs(yMax(data, [13, 14], 0) - 3 * 1.06) < 1e-12);
  assert.ok(Math.abs(yMax(data, [10, 14], 80 * GIB) - 80 * 1.06) < 1e-9, 'the capacity line stays in view');
});

test('ticks are round steps far enough apart, whole numbers on the event axis', () => {
  assert.deepEqual(ticks(0, 84, 185, 30), [0, 20, 40, 60, 80]);
  assert.deepEqual(ticks(0, 276, 823, 50, true), Array.from({ length: 14 }, (_, i) => i * 20));
  assert.deepEqual(ticks(100, 104, 800, 50, true), [100, 101, 102, 103, 104], 'never a fractional event');
  assert.deepEqual(ticks(0, 1, 300, 30), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  assert.deepEqual(ticks(0, 2.5, 100, 30), [0, 1, 2]);
  assert.deepEqual(ticks(5, 5, 100, 30), [5]);
});

test('the pointer maps onto the event under it and back', () => {
  const x = [100, 101, 102, 103, 104];
  assert.equal(eventAt(x, [100, 104], 0, 400), 0);
  assert.equal(eventAt(x, [100, 104], 149, 400), 1, 'nearest event: 101.49');
  assert.equal(eventAt(x, [100, 104], 151, 400), 2);
  assert.equal(eventAt(x, [100, 104], 9999, 400), 4, 'clamped to the plot');
  assert.equal(eventAt(x, [102, 104], 0, 400), 2, 'zoomed');
  assert.equal(eventPx(102, [100, 104], 400), 200);
});

/** A 2D context that records what is filled and written. */
function recordingContext() {
  const calls = [];
  const state = { fillStyle: '', strokeStyle: '', font: '', lineWidth: 1, textAlign: '', textBaseline: '' };
  const ctx = {
    calls,
    ...state,
    setTransform() {}, clearRect: (...a) => calls.push(['clear', ...a]),
    save() {}, restore() {}, beginPath() {}, rect() {}, clip() {}, moveTo() {}, lineTo() {}, stroke() {},
    setLineDash() {}, translate() {}, rotate() {},
    fill() { calls.push(['fill', ctx.fillStyle]); },
    fillText(text, x, y) { calls.push(['text', text, ctx.font, x, y]); },
    measureText: (text) => ({ width: String(text).length * 6 }),
  };
  return ctx;
}

function sampleRank() {
  const comps = { master_params: [2 * GIB, 2 * GIB, 2 * GIB, 2 * GIB], activations: [0, 3 * GIB, GIB, 0] };
  return {
    pp_rank: 1, peak_event_index: 41, events_total: 4, non_pytorch_bytes: GIB, fragmentation_bytes: GIB / 2, tensor_peak_bytes: 5 * GIB, peak_bytes: 6.5 * GIB,
    events: [40, 41, 42, 43].map((index, i) => ({ index, step: i < 2 ? 1 : 4, label: `op ${index}`, total_bytes: 0, peak_bytes: 0, live_chunks: [0, 0] })),
    event_components: comps,
    event_steps: [1, 1, 4, 4],
  };
}

test('a drawing fills one band per component in the scheme\'s colours and labels axes, steps, capacity and peak', () => {
  globalThis.Path2D ??= class { moveTo() {} lineTo() {} closePath() {} };
  const data = timelineData(sampleRank());
  for (const scheme of ['light', 'dark']) {
    const ctx = recordingContext();
    drawTimeline(/** @type {any} */ (ctx), { width: 600, height: 260, dpr: 2, data, capacity: 80 * GIB, scheme });
    const fills = ctx.calls.filter((c) => c[0] === 'fill').map((c) => c[1]);
    assert.deepEqual(fills, data.keys.slice().reverse().map((k) => chartColor(partColor(k), scheme)), scheme);
    const texts = ctx.calls.filter((c) => c[0] === 'text').map((c) => c[1]);
    for (const want of ['0', '20', '40', '60', '80', 'GiB', 'capacity 80.0 GiB', 'peak', '1', '4', 'event in the schedule (steps 1–4 marked above)']) {
      assert.ok(texts.includes(want), `${scheme}: '${want}' in ${JSON.stringify(texts)}`);
    }
    assert.ok(ctx.calls.some((c) => c[0] === 'text' && /^24px /.test(c[2])), 'fonts scale with the pixel ratio');
  }
  assert.notEqual(chartColor('#1f4e89', 'dark'), '#1f4e89');
  assert.ok(ctx0TextsAbovePlot(data), 'the steps are labelled above the plot');
  assert.ok(CANVAS_INK.dark && CANVAS_INK.light);
});

test('the readout\'s components at an event are timelineData\'s at that event', () => {
  const r = sampleRank();
  const d = timelineData(r);
  for (let pos = 0; pos < r.events.length; pos++) {
    const want = d.keys.map((k, i) => [k, d.raw[i][pos]]).filter(([, b]) => b > 0);
    assert.deepEqual(eventParts(r, pos), want, `event ${pos}`);
  }
  assert.deepEqual(eventParts(r, 9), []);
});

/** Whether every step label of a drawing of `data` lies in the band above the plot. */
function ctx0TextsAbovePlot(data) {
  const ctx = recordingContext();
  drawTimeline(/** @type {any} */ (ctx), { width: 600, height: 260, dpr: 1, data, capacity: 80 * GIB, scheme: 'light' });
  const steps = ctx.calls.filter((c) => c[0] === 'text' && (c[1] === '1' || c[1] === '4'));
  return steps.length === 2 && steps.every((c) => c[4] < MARGIN.top);
}

test('every step is labelled: steps too close to label apart share one label, and the labels never overlap', async () => {
  const { stepLabels } = await import('../../web/app/timeline-plot.js');
  const lines = [[100, 1], [103, 2], [106, 3], [140, 4], [700, 5], [703, 6], [706, 7], [709, 8], [712, 9], [715, 10]]
    .map(([px, step]) => ({ px, step }));
  const labels = stepLabels(lines, 24);
  assert.deepEqual(labels.map((l) => l.text), ['1–3', '4', '5–8, end, opt']);
  const named = (t) => t.replace('end', '9').replace('opt', '10').split(/, /).flatMap((p) => {
    const [a, b] = p.split('–').map(Number);
    return b ? Array.from({ length: b - a + 1 }, (_, i) => a + i) : [a];
  });
  assert.deepEqual(labels.flatMap((l) => named(l.text)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'every step once');
  // Drawn: each label starts past the end of the one before.
  globalThis.Path2D ??= class { moveTo() {} lineTo() {} closePath() {} };
  const steps = [1, 1, 2, 3, 4, 4, 4, 4, 4, 5, 6, 7, 8, 9, 10];
  const r = sampleRank();
  const n = steps.length;
  const rank = {
    ...r, events_total: n, peak_event_index: 5,
    events: steps.map((step, i) => ({ index: i, step, label: `op ${i}`, total_bytes: 0, peak_bytes: 0, live_chunks: [0, 0] })),
    event_components: { master_params: Array(n).fill(2 * GIB) }, event_steps: steps,
  };
  const ctx = recordingContext();
  drawTimeline(/** @type {any} */ (ctx), { width: 320, height: 200, dpr: 1, data: timelineData(rank), capacity: 80 * GIB, scheme: 'light' });
  const above = ctx.calls.filter((c) => c[0] === 'text' && c[4] < MARGIN.top && /^(\d|end|opt)/.test(c[1]));
  for (let i = 1; i < above.length; i++) {
    assert.ok(above[i][3] >= above[i - 1][3] + above[i - 1][1].length * 6, `${above[i - 1][1]} and ${above[i][1]} overlap`);
  }
  assert.deepEqual(above.flatMap((c) => named(c[1])), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});
