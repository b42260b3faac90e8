// step-areas.js — the timeline's stacked areas as uPlot paths. Each series
// is a step line (an event's bytes hold until the next event) closed down to
// zero. uPlot's own stepped builder converts every point of every series and
// writes two corners per point; with 18 stacked series that was most of a
// redraw. This one converts the events' x positions once per draw for all
// series and writes corners only where the rounded height changes, so a
// component that stays constant costs four points. Linear scales only (the
// timeline's); the drawing matches uPlot's but for the rounding of a column.

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
 * A uPlot `paths` builder for every series of one chart: the area under
 * each series' step line, filled (the series' stroke width should be 0).
 * The x pixel columns are shared by all series until the data, the x scale
 * or the plot box changes.
 */
export function stepAreas() {
  /** @type {{data: ArrayLike<number>, min: number, max: number, left: number, width: number} | null} */
  let seen = null;
  /** @type {Float64Array} */
  let xs = new Float64Array(0);
  /** @param {any} u  @param {number} seriesIdx  @param {number} idx0  @param {number} idx1 */
  return (u, seriesIdx, idx0, idx1) => {
    const xData = u.data[0];
    const sx = u.scales.x;
    const { left, width } = u.bbox;
    if (!seen || seen.data !== xData || seen.min !== sx.min || seen.max !== sx.max || seen.left !== left || seen.width !== width) {
      const x0 = u.valToPos(0, 'x', true);
      const xPerUnit = u.valToPos(1, 'x', true) - x0;
      xs = new Float64Array(xData.length);
      for (let i = 0; i < xData.length; i++) xs[i] = Math.round(x0 + xData[i] * xPerUnit);
      seen = { data: xData, min: sx.min, max: sx.max, left, width };
    }
    const y0 = u.valToPos(0, 'y', true);
    const path = new Path2D();
    if (idx1 >= idx0) traceStepArea(path, xs, u.data[seriesIdx], y0, u.valToPos(1, 'y', true) - y0, idx0, idx1);
    return { stroke: path, fill: path, clip: null, band: null, gaps: null, flags: 0 };
  };
}
