// routing-curve.js — the factors the routing chart asks the engine for and
// how its axis reads them: from 1 to the cap of routing, or to 3 when the
// cap is further away (further still when the margin lies beyond 3, so that
// it stays in view). Pure functions; the chart is RoutingChart.jsx.

/** Points on the curve. */
export const CURVE_POINTS = 25;

/**
 * The right end of the chart's factor axis for a result's `routing`
 * ({factor, cap, margin}): the cap, but at most 3 unless the margin or the
 * factor shown lies beyond it.
 */
export function curveEnd(routing) {
  const want = Math.max(3, (routing.margin ?? 0) * 1.15, (routing.factor ?? 1) * 1.15);
  return Math.max(1, Math.min(routing.cap, want));
}

/** The factors to estimate: CURVE_POINTS evenly from 1 to curveEnd(). */
export function curveFactors(routing) {
  const end = curveEnd(routing);
  if (end <= 1) return [1];
  const out = [];
  for (let i = 0; i < CURVE_POINTS; i++) out.push(+(1 + ((end - 1) * i) / (CURVE_POINTS - 1)).toFixed(6));
  out[out.length - 1] = Math.min(out[out.length - 1], routing.cap);
  return out;
}

/** The index of the point nearest to factor `f`. */
export function nearestPoint(factors, f) {
  let best = 0;
  for (let i = 1; i < factors.length; i++) {
    if (Math.abs(factors[i] - f) < Math.abs(factors[best] - f)) best = i;
  }
  return best;
}
