// step-areas.js — the timeline's stacked areas as paths (timeline-plot.js).
// Each series is a step line (an event's bytes hold until the next event):
// traceStepArea closes one down to zero, traceStepBand closes it down to the
// step line below it, so that a stack of bands fills each pixel once where
// areas drawn over each other fill the lower ones again and again. Both take
// the events' pixel columns, converted once per draw for every series, and
// write corners only where the rounded height changes, so a component that
// stays constant costs four points.

/**
 * Writes the area under a step line into `path` (moveTo / lineTo /
 * closePath): xs[i] is point i's pixel column, values[i] its value, and a
 * value v sits at pixel row round(y0 + v * yPerUnit). The value of point i
 * holds from xs[i] to xs[i + 1]; the area runs from point i0 to point i1.
 * @param {{moveTo(x: number, y: number): void, lineTo(x: number, y: number): void, closePath(): void}} path
 * @param {ArrayLike<number>} xs
 * @param {ArrayLike<number>} values
 * @param {number} y0
 * @param {number} yPerUnit
 * @param {number} i0
 * @param {number} i1
 */
export function traceStepArea(path, xs, values, y0, yPerUnit, i0, i1) {
  const base = Math.round(y0);
  let y = Math.round(y0 + values[i0] * yPerUnit);
  let x = xs[i0];
  path.moveTo(x, base);
  path.lineTo(x, y);
  for (let i = i0 + 1; i <= i1; i++) {
    const yi = Math.round(y0 + values[i] * yPerUnit);
    if (yi === y) continue;
    x = xs[i];
    path.lineTo(x, y);
    path.lineTo(x, yi);
    y = yi;
  }
  if (x !== xs[i1]) path.lineTo(xs[i1], y);
  path.lineTo(xs[i1], base);
  path.closePath();
}

/**
 * Writes the band between two step lines into `path`: `upper` from point i0
 * to i1, then back along `lower` (null: the zero line), with the same
 * columns and rounding as traceStepArea, so that bands stacked on each
 * other share their edges exactly and together cover what the areas under
 * each upper line cover.
 * @param {{moveTo(x: number, y: number): void, lineTo(x: number, y: number): void, closePath(): void}} path
 * @param {ArrayLike<number>} xs
 * @param {ArrayLike<number>} upper
 * @param {ArrayLike<number> | null} lower
 * @param {number} y0
 * @param {number} yPerUnit
 * @param {number} i0
 * @param {number} i1
 */
export function traceStepBand(path, xs, upper, lower, y0, yPerUnit, i0, i1) {
  const base = Math.round(y0);
  let y = Math.round(y0 + upper[i0] * yPerUnit);
  path.moveTo(xs[i0], y);
  for (let i = i0 + 1; i <= i1; i++) {
    const yi = Math.round(y0 + upper[i] * yPerUnit);
    if (yi === y) continue;
    path.lineTo(xs[i], y);
    path.lineTo(xs[i], yi);
    y = yi;
  }
  path.lineTo(xs[i1], y);
  // Back along the lower line (the zero line when there is none): its
  // value at i - 1 holds up to column i.
  y = lower ? Math.round(y0 + lower[i1] * yPerUnit) : base;
  path.lineTo(xs[i1], y);
  for (let i = i1; lower && i > i0; i--) {
    const yi = Math.round(y0 + lower[i - 1] * yPerUnit);
    if (yi === y) continue;
    path.lineTo(xs[i], y);
    path.lineTo(xs[i], yi);
    y = yi;
  }
  path.lineTo(xs[i0], y);
  path.closePath();
}
