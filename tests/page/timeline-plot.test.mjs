// Unit tests of the timeline's drawing (no browser): the plot's box, ranges
// and ticks, the pointer's mapping, a drawing recorded
// on a context that keeps its calls, the readout's components, and the
// worker's canvas holder. node --test tests/page/timeline-plot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plotBox, xRange, yMax, ticks, eventAt, eventPx, drawTimeline, MARGIN } from '../../web/app/timeline-plot.js';
import { timelineData, eventParts, timelineSignature } from '../../web/app/timeline-data.js';
import { chartColor, CANVAS_INK } from '../../web/app/scheme.js';
import { partColor } from '../../web/app/palette.js';
import { createTimelineCanvas } from '../../web/timeline-canvas.js';

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
    fillText(text) { calls.push(['text', text, ctx.font]); },
  };
  return ctx;
}

function sampleRank() {
  const comps = { master_params: [2 * GIB, 2 * GIB, 2 * GIB, 2 * GIB], activations: [0, 3 * GIB, GIB, 0] };
  return {
    pp_rank: 1, peak_event_index: 41, events_total: 4, non_pytorch_bytes: GIB, fragmentation_bytes: GIB / 2, tensor_peak_bytes: 5 * GIB, peak_bytes: 6.5 * GIB,
    events: [40, 41, 42, 43].map((index, i) => ({ index, step: i < 2 ? 1 : 4, label: `op ${index}`, total_bytes: 0, peak_bytes: 0, live_chunks: [0, 0] })),
    event_components: comps,
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
    for (const want of ['0', '20', '40', '60', '80', 'GiB', 'capacity 80.0 GiB', 'peak', '1', '4', 'event in the schedule (steps 1–8 marked above)']) {
      assert.ok(texts.includes(want), `${scheme}: '${want}' in ${JSON.stringify(texts)}`);
    }
    assert.ok(ctx.calls.some((c) => c[0] === 'text' && /^24px /.test(c[2])), 'fonts scale with the pixel ratio');
  }
  assert.notEqual(chartColor('#1f4e89', 'dark'), '#1f4e89');
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
  assert.equal(timelineSignature(r, 80 * GIB), `1:4:40:4:41:${6.5 * GIB}:${80 * GIB}`);
  assert.notEqual(timelineSignature({ ...r, peak_bytes: 1 }, 80 * GIB), timelineSignature(r, 80 * GIB));
});

test('the worker\'s canvas holder draws the last page view on the canvas it is given, with the look it is told', () => {
  globalThis.Path2D ??= class { moveTo() {} lineTo() {} closePath() {} };
  const holder = createTimelineCanvas();
  const r = sampleRank();
  const json = JSON.stringify({ gpu_capacity_bytes: 80 * GIB, ranks: [{ pp_rank: 0, peak_bytes: 1 }, r] });
  assert.equal(holder.show({ json }), null, 'no canvas yet: nothing drawn');
  const ctx = recordingContext();
  const canvas = { width: 0, height: 0, getContext: () => ctx };
  const sig = timelineSignature(r, 80 * GIB);
  assert.equal(holder.attach(canvas, { width: 500, height: 200, dpr: 2, scheme: 'dark' }), sig, 'the kept view, drawn at once');
  assert.deepEqual([canvas.width, canvas.height], [1000, 400]);
  assert.ok(ctx.calls.some((c) => c[0] === 'fill' && c[1] === chartColor(partColor('master_params'), 'dark')));
  assert.equal(holder.look({ width: 300, dpr: Infinity, scheme: 'purple' }), sig);
  assert.deepEqual([canvas.width, canvas.height], [600, 400], 'bad values are left out');
  assert.equal(holder.show({ json: '{"error": {"code": "value"}}' }), null, 'an error keeps the last drawing');
  assert.equal(holder.show({ json: 'not json' }), null);
  assert.equal(holder.look({}), sig);
  // An answer drawn before is drawn again from its shape, not its text:
  // the worker redraws a kept answer without parsing it again.
  const kept = { json };
  const other = { json: JSON.stringify({ gpu_capacity_bytes: 40 * GIB, ranks: [r] }) };
  assert.equal(holder.show(kept), sig);
  assert.equal(holder.show(other), timelineSignature(r, 40 * GIB));
  kept.json = 'not json';
  assert.equal(holder.show(kept), sig, 'the kept answer, drawn again without its text');
  holder.release();
  assert.equal(holder.look({ width: 400 }), null, 'released: nothing drawn');
});

test('the canvas holder draws an answer whose events came apart as it draws the whole one', () => {
  globalThis.Path2D ??= class { moveTo() {} lineTo() {} closePath() {} };
  const r = sampleRank();
  const { events, event_components, ...summary } = r;
  const rank = { ...summary, events_kept: events.length, events_first: events[0].index };
  const json = (x) => JSON.stringify({ gpu_capacity_bytes: 80 * GIB, ranks: [{ pp_rank: 0, peak_bytes: 1 }, x] });
  const steps = events.map((e) => e.step);
  const draws = [];
  for (const [first, apart] of [
    [json(r), null],
    [json(rank), JSON.stringify({ pp_rank: 1, events, event_components })],
    [json(rank), JSON.stringify({ pp_rank: 1, events, event_components, event_steps: steps })],
  ]) {
    const holder = createTimelineCanvas();
    const ctx = recordingContext();
    const sig = holder.attach({ width: 0, height: 0, getContext: () => ctx }, { width: 500, height: 200 });
    assert.equal(sig, null, 'nothing kept yet');
    draws.push([holder.show({ json: first, timeline: apart }), ctx.calls]);
  }
  assert.equal(draws[1][0], timelineSignature(r, 80 * GIB));
  assert.deepEqual(draws[1], draws[0], 'the events and the columns, without steps');
  assert.deepEqual(draws[2], draws[0], 'the columns and steps');
});
