// timeline-plot.js — the timeline's drawing on a 2D canvas context. Pure
// but for the context it is given. The plot box, the scales and the ticks
// are exported for the page, which maps the pointer onto the events with
// the same numbers.
//   drawn: the stacked areas of timelineData()'s series (each component's
// bytes hold until the next event), the GiB (TiB) axis and the x axis
// (time in the step, in seconds, when the data has it; else the event
// index) with their grid, the schedule's steps (1–8, the step end, the optimizer
// step) marked, and labelled in a band above the plot, where no other
// label goes (steps too close to label apart share one label, "1–3"), the
// GPU's capacity as a dashed line labelled inside the plot clear of the
// peak's label, and the peak as a dashed line.

import { traceStepBand } from './step-areas.js';
import { stepLabel } from './timeline-data.js';
import { partColor } from './palette.js';
import { CANVAS_INK, chartColor } from './scheme.js';
import { axisGib, axisUnit } from './format.js';

const GIB = 2 ** 30;

/** Room around the plot, in CSS px: the GiB axis and its title on the left, the x axis and its title below. */
export const MARGIN = { top: 24, right: 25, bottom: 58, left: 64 };

const TICK = 10; // tick length, px
const TICK_GAP = 5; // between a tick and its value
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
const TITLE_FONT = `bold ${FONT}`;
const Y_SPACE = 30; // least px between two GiB ticks
const X_SPACE = 50; // least px between two event ticks

/** The plot area of a chart `width` × `height` CSS px: {left, top, width, height}. */
export function plotBox(width, height) {
  return {
    left: MARGIN.left,
    top: MARGIN.top,
    width: Math.max(1, width - MARGIN.left - MARGIN.right),
    height: Math.max(1, height - MARGIN.top - MARGIN.bottom),
  };
}

/**
 * The range on the x axis: `zoom` ([from, to], in x's unit: event indices
 * or seconds) when it is given and inside the data, else every event of
 * `x` (one unit wide when they all share one x).
 * @param {ArrayLike<number>} x  @param {[number, number] | null} [zoom]
 * @returns {[number, number]}
 */
export function xRange(x, zoom = null) {
  const lo = x[0];
  const last = x[x.length - 1];
  const hi = x.length > 1 && last > lo ? last : lo + 1;
  if (zoom && zoom[1] > zoom[0]) {
    const a = Math.max(lo, zoom[0]);
    const b = Math.min(hi, zoom[1]);
    if (b > a) return [a, b];
  }
  return [lo, hi];
}

/**
 * The GiB range: from zero to 6% over the larger of the stack's top among
 * the events in [from, to] and the capacity, so that the capacity line
 * always shows.
 * @param {{x: ArrayLike<number>, series: ArrayLike<number>[]}} data
 * @param {[number, number]} range  @param {number} capacity  bytes
 */
export function yMax(data, range, capacity) {
  let top = 0;
  const total = data.series[0];
  if (total) {
    for (let i = 0; i < data.x.length; i++) {
      // The value of an event holds until the next one: the event before
      // the range's start still shows at its left edge.
      const inside = data.x[i] <= range[1] && (i + 1 >= data.x.length || data.x[i + 1] > range[0]);
      if (inside && total[i] > top) top = total[i];
    }
  }
  const m = Math.max(top, (capacity > 0 ? capacity : 0) / GIB) * 1.06;
  return m > 0 ? m : 1;
}

/**
 * Ticks from `lo` to `hi` at a round step (1, 2, 2.5 or 5 times a power of
 * ten; whole numbers only when `whole`) at least `space` px apart over
 * `px` pixels.
 * @returns {number[]}
 */
export function ticks(lo, hi, px, space, whole = false) {
  const span = hi - lo;
  if (!(span > 0) || !(px > 0)) return [lo];
  const raw = (span * space) / px;
  let p = 10 ** Math.floor(Math.log10(raw));
  let step = 0;
  for (let tries = 0; tries < 3 && !step; tries++, p *= 10) {
    step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw && (!whole || Number.isInteger(s))) ?? 0;
  }
  if (whole) step = Math.max(1, step);
  const out = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && out.length <= 1000; k++) {
    out.push(Number((k * step).toPrecision(12)) + 0); // + 0: no -0
  }
  return out;
}

/**
 * The x axis title for a chart `width` px wide (shorter on a phone), naming
 * the schedule steps the rank has (`steps`: timelineData()'s), which are
 * all labelled above the plot; `seconds`: the axis is the time in the
 * step, else the event index.
 */
export function xAxisTitle(width, steps = [], seconds = false) {
  const numbered = steps.map((s) => s.step).filter((s) => s >= 1 && s <= 8);
  const span = numbered.length ? `steps ${Math.min(...numbered)}–${Math.max(...numbered)}` : 'steps';
  if (seconds) return `time in step (s), ${span}${width < 480 ? '' : ' marked'} above`;
  return width < 480 ? `event (${span} above)` : `event in the schedule (${span} marked above)`;
}

/**
 * Draws timelineData() `data` on `ctx`, a canvas `width` × `height` CSS px
 * at `dpr` device pixels per CSS px.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {{width: number, height: number, dpr: number, data: any, capacity: number,
 *   scheme: string, zoom?: [number, number] | null}} o  scheme: 'light' or 'dark'
 */
export function drawTimeline(ctx, { width, height, dpr, data, capacity, scheme, zoom = null }) {
  const ink = CANVAS_INK[scheme] ?? CANVAS_INK.light;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, width * dpr, height * dpr);
  if (!data || !data.x.length) return;
  const box = plotBox(width, height);
  const [x0, x1] = xRange(data.x, zoom);
  const top = yMax(data, [x0, x1], capacity);
  // Device pixels from here on.
  const L = box.left * dpr;
  const T = box.top * dpr;
  const W = box.width * dpr;
  const H = box.height * dpr;
  const xPos = (v) => L + ((v - x0) / (x1 - x0)) * W;
  const yPos = (g) => T + H - (g / top) * H;

  // The stack as bands, each from its component's top down to the top of
  // the one below it: every pixel is filled once.
  const xs = new Float64Array(data.x.length);
  for (let i = 0; i < xs.length; i++) xs[i] = Math.round(xPos(data.x[i]));
  let i0 = 0;
  while (i0 + 1 < data.x.length && data.x[i0 + 1] <= x0) i0++;
  let i1 = data.x.length - 1;
  while (i1 > i0 && data.x[i1 - 1] >= x1) i1--;
  ctx.save();
  ctx.beginPath();
  ctx.rect(L, T, W, H);
  ctx.clip();
  const keysTopFirst = data.keys.slice().reverse();
  const y0 = yPos(0);
  const perGib = yPos(1) - y0;
  for (let s = 0; s < data.series.length; s++) {
    const path = new Path2D();
    traceStepBand(path, xs, data.series[s], data.series[s + 1] ?? null, y0, perGib, i0, i1);
    ctx.fillStyle = chartColor(partColor(keysTopFirst[s]), scheme);
    ctx.fill(path);
  }
  ctx.restore();

  // Grid, ticks and values.
  ctx.lineWidth = dpr;
  ctx.strokeStyle = ink.grid;
  ctx.fillStyle = ink.axis;
  ctx.font = scaledFont(FONT, dpr);
  const { unit, per } = axisUnit(top * GIB);
  const yTicks = ticks(0, (top * GIB) / per, box.height, Y_SPACE).map((v) => (v * per) / GIB);
  const xTicks = ticks(x0, x1, box.width, X_SPACE, !data.seconds);
  ctx.beginPath();
  for (const g of yTicks) {
    const py = Math.round(yPos(g)) + 0.5;
    ctx.moveTo(L - TICK * dpr, py);
    ctx.lineTo(L + W, py);
  }
  for (const v of xTicks) {
    const px = Math.round(xPos(v)) + 0.5;
    ctx.moveTo(px, T);
    ctx.lineTo(px, T + H + TICK * dpr);
  }
  ctx.stroke();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const g of yTicks) ctx.fillText(axisGib(g * GIB, per), L - (TICK + TICK_GAP) * dpr, Math.round(yPos(g)));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of xTicks) ctx.fillText(String(v), Math.round(xPos(v)), T + H + (TICK + TICK_GAP) * dpr);
  // Axis titles.
  ctx.font = scaledFont(TITLE_FONT, dpr);
  ctx.textBaseline = 'middle';
  ctx.fillText(xAxisTitle(width, data.steps, data.seconds === true), L + W / 2, (height - 9) * dpr);
  ctx.save();
  ctx.translate(9 * dpr, T + H / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(unit, 0, 0);
  ctx.restore();

  drawSteps(ctx, data, xPos, { L, T, W, H, dpr }, ink);
  const capY = capacity > 0 ? yPos(capacity / GIB) : NaN;
  const peakLabel = drawPeak(ctx, data, xPos, { L, T, W, H, dpr }, ink.peak, capY);
  drawCapacity(ctx, capacity, yPos, { L, T, W, H, dpr }, ink, peakLabel);
}

/**
 * Sizes `canvas` (the page's, or the worker's OffscreenCanvas) to `look`'s
 * CSS px times its pixel ratio and draws timelineData() `data` on it with
 * drawTimeline. False when the canvas gives no 2D context.
 * @param {any} canvas
 * @param {{width: number, height: number, dpr: number, scheme: string, zoom?: [number, number] | null}} look
 * @param {any} data  @param {number} capacity  bytes
 */
export function paintTimeline(canvas, look, data, capacity) {
  const w = Math.max(1, Math.round(look.width * look.dpr));
  const h = Math.max(1, Math.round(look.height * look.dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  drawTimeline(ctx, { ...look, data, capacity });
  return true;
}

/** `font` with its px size times `dpr`. */
function scaledFont(font, dpr) {
  return font.replace(/(\d+)px/, (_, n) => `${Math.round(Number(n) * dpr)}px`);
}

/**
 * The labels of the schedule's steps: each step's line at `px` (device
 * px), and the steps whose lines lie closer than `gap` to the first of a
 * group sharing one label: [{px, text}], "4", "1–3", "7–8, end".
 * @param {{px: number, step: number}[]} lines  in order
 */
export function stepLabels(lines, gap) {
  /** @type {{px: number, steps: number[]}[]} */
  const groups = [];
  for (const { px, step } of lines) {
    const last = groups.at(-1);
    if (last && px - last.px < gap) last.steps.push(step);
    else groups.push({ px, steps: [step] });
  }
  return groups.map(({ px, steps }) => ({ px, steps, text: groupText(steps) }));
}

/**
 * Where the step labels go on one row: each from just past its line, none
 * over the one before (`space` apart) nor past `right`; where there is no
 * room, the two groups closest together share one label, until all fit.
 * `measure(text)` is a label's width. Returns [{x, text}].
 * @param {{px: number, text: string, steps?: number[]}[]} labels  stepLabels()'s
 */
export function placeStepLabels(labels, measure, space, right) {
  let groups = labels.map((l) => ({ px: l.px, steps: l.steps ?? [], text: l.text }));
  for (;;) {
    // Left to right, then pushed back from the right edge.
    const xs = [];
    let clear = -Infinity;
    for (const g of groups) {
      const x = Math.max(g.px + 2, clear);
      xs.push(x);
      clear = x + measure(g.text) + space;
    }
    let limit = right;
    for (let i = groups.length - 1; i >= 0; i--) {
      xs[i] = Math.min(xs[i], limit - measure(groups[i].text));
      limit = xs[i] - space;
    }
    const fits = xs.every((x, i) => i === 0 || x >= xs[i - 1] + measure(groups[i - 1].text) + space);
    if (fits || groups.length < 2) return groups.map((g, i) => ({ x: Math.max(0, xs[i]), text: g.text }));
    // The two groups closest together share a label.
    let at = 1;
    for (let i = 2; i < groups.length; i++) if (groups[i].px - groups[i - 1].px < groups[at].px - groups[at - 1].px) at = i;
    const steps = [...groups[at - 1].steps, ...groups[at].steps];
    groups = [...groups.slice(0, at - 1), { px: groups[at - 1].px, steps, text: groupText(steps) }, ...groups.slice(at + 1)];
  }
}

/** "1–3" for steps 1, 2, 3; "8, end, opt" where a run of numbers stops. */
function groupText(steps) {
  const numbers = steps.filter((s) => s <= 8);
  const rest = steps.filter((s) => s > 8).map(stepLabel);
  const head = numbers.length > 1 ? `${numbers[0]}–${numbers.at(-1)}` : numbers.map(stepLabel);
  return [head, ...rest].flat().filter((t) => t !== '').join(', ');
}

/** A faint line where each schedule step begins, and the steps' labels in the band above the plot. */
function drawSteps(ctx, data, xPos, { L, T, W, H, dpr }, ink) {
  if (!data.steps?.length) return;
  ctx.save();
  ctx.strokeStyle = ink.step;
  ctx.lineWidth = dpr;
  ctx.fillStyle = ink.text;
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const lines = [];
  for (const { pos, step } of data.steps) {
    const px = xPos(data.x[pos]);
    if (px < L || px > L + W) continue;
    ctx.beginPath();
    ctx.moveTo(px, T);
    ctx.lineTo(px, T + H);
    ctx.stroke();
    lines.push({ px, step });
  }
  const measure = (t) => ctx.measureText(t).width;
  for (const { x, text } of placeStepLabels(stepLabels(lines, 24 * dpr), measure, 6 * dpr, L + W + 20 * dpr)) {
    ctx.fillText(text, x, T - 6 * dpr);
  }
  ctx.restore();
}

/**
 * The GPU's capacity as a horizontal line, labelled at the right, above
 * the line, or below it where that would run into the top of the plot or
 * the peak's label (`avoid`: its box, device px).
 */
function drawCapacity(ctx, capacity, yPos, { L, T, W, H, dpr }, ink, avoid) {
  if (!(capacity > 0)) return;
  const py = yPos(capacity / GIB);
  if (py < T || py > T + H) return;
  ctx.save();
  ctx.strokeStyle = ink.text;
  ctx.lineWidth = 1.5 * dpr;
  ctx.setLineDash([3 * dpr, 3 * dpr]);
  ctx.beginPath();
  ctx.moveTo(L, py);
  ctx.lineTo(L + W, py);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = ink.text;
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'alphabetic';
  const text = `capacity ${(capacity / GIB).toFixed(1)} GiB`;
  const w = ctx.measureText(text).width;
  const right = L + W - 4 * dpr;
  const above = { x0: right - w, x1: right, y0: py - 15 * dpr, y1: py - 2 * dpr };
  const hits = (b) => avoid && b.x0 < avoid.x1 && avoid.x0 < b.x1 && b.y0 < avoid.y1 && avoid.y0 < b.y1;
  const up = above.y0 >= T && !hits(above);
  ctx.fillText(text, right, up ? py - 4 * dpr : py + 13 * dpr);
  ctx.restore();
}

/**
 * The peak event as a dashed vertical line, labelled "peak" on the roomier
 * side, at the top of the plot or, where the capacity line (at `capY`,
 * device px) runs there, just below that line. Returns its label's box
 * (device px), or null.
 */
function drawPeak(ctx, data, xPos, { L, T, W, H, dpr }, color, capY = NaN) {
  if (data.peakPos < 0) return null;
  const px = xPos(data.x[data.peakPos]);
  if (px < L || px > L + W) return null;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2 * dpr;
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.beginPath();
  ctx.moveTo(px, T);
  ctx.lineTo(px, T + H);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = color;
  ctx.font = `${12 * dpr}px sans-serif`;
  const left = px <= L + W / 2;
  ctx.textAlign = left ? 'left' : 'right';
  ctx.textBaseline = 'alphabetic';
  const x = px + (left ? 4 : -4) * dpr;
  const w = ctx.measureText('peak').width;
  // The text spans about 11 px above its baseline; 3 px clear of the line.
  let base = T + 14 * dpr;
  if (capY >= base - 14 * dpr && capY <= base + 3 * dpr) base = capY + 15 * dpr;
  ctx.fillText('peak', x, base);
  ctx.restore();
  return { x0: left ? x : x - w, x1: left ? x + w : x, y0: base - 12 * dpr, y1: base + 2 * dpr };
}

/**
 * The x (an event index or seconds, a real number) at CSS px `px` from
 * the plot's left edge, `px` held inside the plot: eventPx's inverse.
 * @param {[number, number]} range  @param {number} px  @param {number} plotWidth
 */
export function valueAt(range, px, plotWidth) {
  return range[0] + (Math.min(Math.max(px, 0), plotWidth) / plotWidth) * (range[1] - range[0]);
}

/**
 * The position in `x` (ascending) of the event shown at CSS px `px` from
 * the plot's left edge: the last event at or before it, `snap` ahead (0.5
 * for event indices: the nearest; 0 for seconds, where an event's memory
 * holds from its x to the next one's, and the plot's last pixel is the
 * range's end, so that it reaches the last event).
 * @param {ArrayLike<number>} x  @param {[number, number]} range  @param {number} px  @param {number} plotWidth
 * @param {number} [snap]
 */
export function eventAt(x, range, px, plotWidth, snap = 0.5) {
  const v = snap === 0 && px >= plotWidth - 1 ? range[1] : valueAt(range, px, plotWidth);
  let lo = 0;
  let hi = x.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (x[mid] <= v + snap) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** CSS px from the plot's left edge of x `v` (an event index or seconds). */
export function eventPx(v, range, plotWidth) {
  return ((v - range[0]) / (range[1] - range[0])) * plotWidth;
}
