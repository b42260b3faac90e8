// timeline-plot.js — the timeline's drawing on any 2D canvas context: the
// page's canvas, or the OffscreenCanvas the engine's worker draws into
// (timeline-canvas.js), so that a slider's redraw costs the page's thread
// nothing. Pure but for the context it is given. The plot box, the scales
// and the ticks are exported for the page, which maps the pointer onto the
// events with the same numbers.
//   drawn: the stacked areas of timelineData()'s series (each component's
// bytes hold until the next event), the GiB and event axes with their grid,
// the schedule's steps (1–8) marked and labelled at the top, the GPU's
// capacity as a dashed line and the peak as a dashed line.

import { traceStepBand } from './step-areas.js';
import { stepLabel } from './timeline-data.js';
import { partColor } from './palette.js';
import { CANVAS_INK, chartColor } from './scheme.js';
import { axisGib } from './format.js';

const GIB = 2 ** 30;

/** Room around the plot, in CSS px: the GiB axis and its title on the left, the event axis and its title below. */
export const MARGIN = { top: 17, right: 25, bottom: 58, left: 64 };

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
 * The event range on the x axis: `zoom` ([from, to] event indices) when it
 * is given and inside the data, else every event of `x`.
 * @param {ArrayLike<number>} x  @param {[number, number] | null} [zoom]
 * @returns {[number, number]}
 */
export function xRange(x, zoom = null) {
  const lo = x[0];
  const hi = x.length > 1 ? x[x.length - 1] : lo + 1;
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

/** The x axis title for a chart `width` px wide: shorter on a phone. */
export function xAxisTitle(width) {
  return width < 480 ? 'event (steps 1–8 above)' : 'event in the schedule (steps 1–8 marked above)';
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
  const yTicks = ticks(0, top, box.height, Y_SPACE);
  const xTicks = ticks(x0, x1, box.width, X_SPACE, true);
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
  for (const g of yTicks) ctx.fillText(axisGib(g * GIB), L - (TICK + TICK_GAP) * dpr, Math.round(yPos(g)));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of xTicks) ctx.fillText(String(v), Math.round(xPos(v)), T + H + (TICK + TICK_GAP) * dpr);
  // Axis titles.
  ctx.font = scaledFont(TITLE_FONT, dpr);
  ctx.textBaseline = 'middle';
  ctx.fillText(xAxisTitle(width), L + W / 2, (height - 9) * dpr);
  ctx.save();
  ctx.translate(9 * dpr, T + H / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText('GiB', 0, 0);
  ctx.restore();

  drawSteps(ctx, data, xPos, { L, T, W, H, dpr }, ink);
  drawCapacity(ctx, capacity, yPos, { L, T, W, H, dpr }, ink);
  drawPeak(ctx, data, xPos, { L, T, W, H, dpr }, ink.peak);
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

/** A faint line where each schedule step begins, labelled at the top. */
function drawSteps(ctx, data, xPos, { L, T, W, H, dpr }, ink) {
  if (!data.steps?.length) return;
  ctx.save();
  ctx.strokeStyle = ink.step;
  ctx.lineWidth = dpr;
  ctx.fillStyle = ink.text;
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  let lastLabel = -Infinity;
  for (const { pos, step } of data.steps) {
    const px = xPos(data.x[pos]);
    if (px < L || px > L + W) continue;
    ctx.beginPath();
    ctx.moveTo(px, T);
    ctx.lineTo(px, T + H);
    ctx.stroke();
    if (px - lastLabel >= 22 * dpr) {
      ctx.fillText(stepLabel(step), px + 2 * dpr, T + 11 * dpr);
      lastLabel = px;
    }
  }
  ctx.restore();
}

/** The GPU's capacity as a horizontal line, labelled at the right. */
function drawCapacity(ctx, capacity, yPos, { L, T, W, H, dpr }, ink) {
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
  ctx.fillText(`capacity ${(capacity / GIB).toFixed(1)} GiB`, L + W - 4 * dpr, py - 4 * dpr);
  ctx.restore();
}

/** The peak event as a dashed vertical line, labelled "peak" on the roomier side. */
function drawPeak(ctx, data, xPos, { L, T, W, H, dpr }, color) {
  if (data.peakPos < 0) return;
  const px = xPos(data.x[data.peakPos]);
  if (px < L || px > L + W) return;
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
  ctx.fillText('peak', px + (left ? 4 : -4) * dpr, T + 14 * dpr);
  ctx.restore();
}

/**
 * The event index (a real number) at CSS px `px` from the plot's left
 * edge, `px` held inside the plot: eventPx's inverse.
 * @param {[number, number]} range  @param {number} px  @param {number} plotWidth
 */
export function valueAt(range, px, plotWidth) {
  return range[0] + (Math.min(Math.max(px, 0), plotWidth) / plotWidth) * (range[1] - range[0]);
}

/**
 * The position in `x` (event indices, ascending) of the event shown at
 * CSS px `px` from the plot's left edge: the last event at or before it.
 * @param {ArrayLike<number>} x  @param {[number, number]} range  @param {number} px  @param {number} plotWidth
 */
export function eventAt(x, range, px, plotWidth) {
  const v = valueAt(range, px, plotWidth);
  let lo = 0;
  let hi = x.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (x[mid] <= v + 0.5) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** CSS px from the plot's left edge of event index `v`. */
export function eventPx(v, range, plotWidth) {
  return ((v - range[0]) / (range[1] - range[0])) * plotWidth;
}
