// Unit tests of the chart data (no browser): node --test tests/page/charts.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timelineData, sampleRows, stepLabel } from '../../web/app/timeline-data.js';
import { ALL_PARTS } from '../../web/app/palette.js';
import { traceStepArea, traceStepBand } from '../../web/app/step-areas.js';
import { mem, gib, signedGib, degree } from '../../web/app/format.js';

const GIB = 2 ** 30;

/**
 * A page view's rank of `events` (each written with its components, as
 * the CLI's JSON has them), its components as the view gives them: one
 * array per component, and the steps apart.
 */
function rank(events, extra = {}) {
  const keys = [...new Set(events.flatMap((e) => Object.keys(e.components ?? {})))];
  const event_components = Object.fromEntries(keys.map((k) => [k, events.map((e) => e.components?.[k] ?? 0)]));
  return {
    pp_rank: 0, peak_event_index: 11, events_total: events.length,
    events: events.map(({ components, ...e }) => e), event_components, event_steps: events.map((e) => e.step), ...extra,
  };
}

const ev = (index, components) => ({ index, step: 1, label: `op ${index}`, total_bytes: 0, peak_bytes: 0, live_chunks: [0, 0], components });

test('timelineData stacks the components that are ever above zero', () => {
  const r = rank([
    ev(10, { master_params: 2 * GIB, activations: 0, logits: 0 }),
    ev(11, { master_params: 2 * GIB, activations: 3 * GIB, logits: 0 }),
    ev(12, { master_params: 2 * GIB, activations: 1 * GIB }),
  ]);
  const d = timelineData(r);
  assert.deepEqual(d.keys, ['master_params', 'activations'], 'logits is never above zero');
  assert.deepEqual([...d.x], [10, 11, 12]);
  assert.equal(d.peakPos, 1);
  assert.equal(d.window, false);
  assert.deepEqual([...d.raw[1]], [0, 3 * GIB, 1 * GIB]);
  // top of the stack first: the total, then the bottom component alone
  assert.deepEqual([...d.series[0]], [2, 5, 3]);
  assert.deepEqual([...d.series[1]], [2, 2, 2]);
});

test('timelineData keeps the fixed component order and marks a window', () => {
  const comps = Object.fromEntries(ALL_PARTS.map(([k], i) => [k, (i + 1) * 1024]));
  const d = timelineData(rank([ev(5, comps), ev(6, comps)], { events_total: 900, peak_event_index: 99 }));
  assert.deepEqual(d.keys, ALL_PARTS.map(([k]) => k));
  assert.equal(d.window, true);
  assert.equal(d.total, 900);
  assert.equal(d.peakPos, -1, 'the peak outside the window');
  const total = ALL_PARTS.reduce((a, _, i) => a + (i + 1) * 1024, 0) / GIB;
  assert.ok(Math.abs(d.series[0][0] - total) < 1e-12);
  assert.equal(timelineData(rank([])), null);
  assert.equal(timelineData({ pp_rank: 0 }), null);
});

/** A path that records its commands, for traceStepArea. */
function recorder() {
  const ops = [];
  return {
    ops,
    moveTo: (x, y) => ops.push(['M', x, y]),
    lineTo: (x, y) => ops.push(['L', x, y]),
    closePath: () => ops.push(['Z']),
  };
}

test('traceStepArea holds each value until the next point and closes down to zero', () => {
  const p = recorder();
  // zero at row 100, one unit per -10 rows (up); x at 0, 10, 20, 30
  traceStepArea(p, [0, 10, 20, 30], [1, 3, 2, 2], 100, -10, 0, 3);
  assert.deepEqual(p.ops, [
    ['M', 0, 100], ['L', 0, 90], // up the left edge to the first value
    ['L', 10, 90], ['L', 10, 70], // 1 until x 10, then 3
    ['L', 20, 70], ['L', 20, 80], // 3 until x 20, then 2
    ['L', 30, 80], // 2 holds to the last point: no corner at x 30
    ['L', 30, 100], ['Z'],
  ]);
});

test('traceStepArea writes a corner only where the rounded row changes, and draws a window', () => {
  const flat = recorder();
  traceStepArea(flat, [0, 5, 9, 14, 20], [2, 2, 2.04, 2, 2], 50, -10, 0, 4);
  // 2.04 rounds to the same row as 2: a constant line, four points in all
  assert.deepEqual(flat.ops, [['M', 0, 50], ['L', 0, 30], ['L', 20, 30], ['L', 20, 50], ['Z']]);
  const part = recorder();
  traceStepArea(part, [0, 5, 9, 14, 20], [1, 2, 3, 4, 5], 50, -10, 1, 2);
  assert.deepEqual(part.ops, [['M', 5, 50], ['L', 5, 30], ['L', 9, 30], ['L', 9, 20], ['L', 9, 50], ['Z']]);
});

/** The pixel rows a closed path of vertical and horizontal edges covers in column `x`. */
function rowsAt(ops, x) {
  const rows = new Set();
  const pts = ops.filter((o) => o[0] !== 'Z').map(([, px, py]) => [px, py]);
  pts.push(pts[0]);
  // Crossings of horizontal edges over column x + 0.5 (even-odd).
  const ys = [];
  for (let i = 0; i + 1 < pts.length; i++) {
    const [[x1, y1], [x2, y2]] = [pts[i], pts[i + 1]];
    if (y1 === y2 && Math.min(x1, x2) <= x + 0.5 && Math.max(x1, x2) > x + 0.5) ys.push(y1);
  }
  ys.sort((a, b) => a - b);
  for (let i = 0; i + 1 < ys.length; i += 2) for (let y = ys[i]; y < ys[i + 1]; y++) rows.add(y);
  return rows;
}

test('stacked bands cover each pixel once, and together what the area under the top covers', () => {
  const xs = [0, 10, 20, 30, 40];
  const top = [5, 7, 7.2, 3, 3];
  const mid = [2, 4, 4, 2.5, 1];
  const y0 = 100;
  const per = -10;
  const upper = recorder();
  const lower = recorder();
  const whole = recorder();
  traceStepBand(upper, xs, top, mid, y0, per, 0, 4);
  traceStepBand(lower, xs, mid, null, y0, per, 0, 4);
  traceStepArea(whole, xs, top, y0, per, 0, 4);
  for (const x of [0, 5, 12, 25, 39]) {
    const a = rowsAt(upper.ops, x);
    const b = rowsAt(lower.ops, x);
    for (const r of a) assert.ok(!b.has(r), `row ${r} of column ${x} is in both bands`);
    assert.deepEqual([...new Set([...a, ...b])].sort((p, q) => p - q), [...rowsAt(whole.ops, x)].sort((p, q) => p - q), `column ${x}`);
  }
  // Where mid is 2 and top 5 (column 5): rows 50..79 above, 80..99 below.
  assert.equal(Math.min(...rowsAt(upper.ops, 5)), 50);
  assert.equal(Math.max(...rowsAt(upper.ops, 5)), 79);
  assert.equal(Math.min(...rowsAt(lower.ops, 5)), 80);
});

test('sampleRows spreads rows evenly and always lists the peak', () => {
  const rows = sampleRows(1000, 517, 24);
  assert.ok(rows.includes(517));
  assert.ok(rows.length <= 26 && rows.length >= 24);
  assert.deepEqual(rows, [...rows].sort((a, b) => a - b));
  assert.deepEqual(sampleRows(3, -1), [0, 1, 2]);
});

test('byte formats: GiB, MiB and KiB, signed headroom, degrees', () => {
  assert.equal(gib(67089214848), '62.48 GiB');
  assert.equal(mem(2 * 2 ** 20), '2.0 MiB');
  assert.equal(mem(32768), '32.0 KiB');
  assert.equal(mem(0), '0.00 GiB');
  assert.equal(mem(0.5 * GIB), '0.50 GiB');
  assert.equal(signedGib(-1.5 * GIB), '\u22121.50 GiB');
  assert.equal(signedGib(GIB), '+1.00 GiB');
  assert.equal(degree(2), '2');
  assert.equal(degree(2 / 3), '0.67');
  assert.equal(degree(null), '—');
});

test('timelineData adds non-PyTorch memory and fragmentation, so the top at the peak is the grand total', () => {
  const events = [
    { ...ev(0, { master_params: 2 * GIB }), step: 1 },
    { ...ev(1, { master_params: 2 * GIB, activations: 2 * GIB }), step: 1 },
    { ...ev(2, { master_params: 2 * GIB, activations: 1 * GIB }), step: 4 },
    { ...ev(3, { master_params: 2 * GIB }), step: 9 },
  ];
  const r = rank(events, { peak_event_index: 1, tensor_peak_bytes: 4 * GIB, non_pytorch_bytes: 3 * GIB, fragmentation_bytes: 0.4 * GIB, peak_bytes: 7.4 * GIB });
  const d = timelineData(r);
  assert.deepEqual(d.keys, ['non_pytorch', 'master_params', 'activations', 'fragmentation']);
  assert.ok(Math.abs(d.series[0][d.peakPos] - 7.4) < 1e-9, 'the top at the peak is peak_bytes');
  assert.ok(Math.abs(d.series[0][0] - (3 + 2 * 1.1)) < 1e-9, 'fragmentation follows the tensors');
  assert.deepEqual([...d.raw[0]], [3 * GIB, 3 * GIB, 3 * GIB, 3 * GIB]);
  assert.deepEqual(d.steps, [{ pos: 0, step: 1 }, { pos: 2, step: 4 }, { pos: 3, step: 9 }]);
  assert.deepEqual([1, 8, 9, 10].map(stepLabel), ['1', '8', 'end', 'opt']);
});

test('the routing chart spans 1 to the cap, or to 3 when the cap is further, keeping the margin in view', async () => {
  const { curveFactors, curveEnd, nearestPoint, CURVE_POINTS } = await import('../../web/app/routing-curve.js');
  assert.equal(curveEnd({ factor: 1.18, cap: 8, margin: 2.371 }), 3);
  assert.equal(curveEnd({ factor: 1.18, cap: 2, margin: 1.585 }), 2);
  assert.ok(Math.abs(curveEnd({ factor: 1.18, cap: 8, margin: 5.167 }) - 5.167 * 1.15) < 1e-12);
  assert.equal(curveEnd({ factor: 1.18, cap: 8, margin: 7.5 }), 8);
  const f = curveFactors({ factor: 1.18, cap: 8, margin: 2.371 });
  assert.equal(f.length, CURVE_POINTS);
  assert.equal(f[0], 1);
  assert.equal(f[f.length - 1], 3);
  for (let i = 1; i < f.length; i++) assert.ok(f[i] > f[i - 1]);
  assert.deepEqual(curveFactors({ factor: 1, cap: 1, margin: 1 }), [1]);
  assert.equal(nearestPoint(f, 2.371), f.findIndex((x) => Math.abs(x - 2.333333) < 1e-6));
});
