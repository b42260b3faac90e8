// RoutingChart.jsx — the peak per GPU against the routing factor (the
// busiest expert-parallel rank's tokens over the uniform share), with the
// GPU's capacity as a line and the factor in use and the margin marked;
// hovering a point gives its peak. The curve comes from the worker
// (useRoutingCurve); the chart only draws it.

import { useState } from 'preact/hooks';
import { gib } from './format.js';
import { nearestPoint } from './routing-curve.js';
import { memo } from './memo.js';

const W = 360; // viewBox width
const H = 130; // plot height
const L = 44; // room for the GiB axis
const B = 22; // room for the factor axis
const T = 14; // room for the marks' labels

/** The margin as the report words it. */
export function marginText(routing) {
  if (!routing?.applies) return 'Routing does not apply: ep = 1, every expert is local.';
  if (routing.margin === null) return 'No routing factor fits: out of memory even with perfectly balanced routing.';
  const m = (Math.floor(routing.margin * 1000) / 1000).toFixed(3);
  if (routing.margin_is_limit) return `Fits up to factor ${m}, the most routing can reach (every token of every EP peer sent to one rank).`;
  return `Fits up to factor ${m}: the busiest rank may receive ${m}× the uniform tokens (an expert capacity factor of ${m}).`;
}

/** The chart's scales for `curve` and `capacity`: x(factor) and y(bytes) in viewBox units. */
function curveScales(curve, capacity) {
  const { factors, peak_bytes: peaks } = curve;
  const x0 = factors[0];
  const x1 = factors[factors.length - 1];
  const lo = Math.min(...peaks, capacity) * 0.97;
  const hi = Math.max(...peaks, capacity) * 1.02;
  return {
    x0, x1, lo, hi,
    x: (f) => L + ((f - x0) / Math.max(1e-9, x1 - x0)) * (W - L - 6),
    y: (b) => T + H - ((b - lo) / (hi - lo)) * H,
  };
}

// The parts of the chart that only its curve and the capacity move: a
// slider's estimate, which moves the marks, leaves them alone (memo).
const CurveAxes = memo(function CurveAxes({ curve, capacity }) {
  const { x0, x1, lo, hi, x, y } = curveScales(curve, capacity);
  const { factors, peak_bytes: peaks } = curve;
  const path = factors.map((f, i) => `${i ? 'L' : 'M'}${x(f).toFixed(1)},${y(peaks[i]).toFixed(1)}`).join(' ');
  return (
    <g>
      <line class="axis" x1={L} x2={W - 6} y1={T + H} y2={T + H} />
      {[lo, (lo + hi) / 2, hi].map((b) => (
        <text key={b} class="axis-label" x={L - 4} y={y(b) + 3} text-anchor="end">{gib(b, 0)}</text>
      ))}
      {[x0, (x0 + x1) / 2, x1].map((f) => (
        <text key={f} class="axis-label" x={x(f)} y={T + H + 15} text-anchor="middle">{`${f.toFixed(2)}×`}</text>
      ))}
      <line class="capacity-line" x1={L} x2={W - 6} y1={y(capacity)} y2={y(capacity)} />
      <text class="capacity-label" x={W - 6} y={y(capacity) - 3} text-anchor="end">capacity</text>
      <path class="routing-curve" d={path} fill="none" />
    </g>
  );
});

const CurvePoints = memo(function CurvePoints({ curve, capacity, hover }) {
  const { x, y } = curveScales(curve, capacity);
  const { factors, peak_bytes: peaks } = curve;
  return (
    <g>
      {factors.map((f, i) => (
        <circle key={f} class={`routing-point${i === hover ? ' routing-point-hover' : ''}`} cx={x(f)} cy={y(peaks[i])} r={i === hover ? 3.5 : 1.8}>
          <title>{`factor ${f.toFixed(2)}: peak ${gib(peaks[i])}`}</title>
        </circle>
      ))}
    </g>
  );
});

/** Props: routing (result.routing), curve ({factors, peak_bytes} or null), capacity (bytes). */
export function RoutingChart({ routing, curve, capacity }) {
  const [hover, setHover] = useState(-1);
  if (!routing?.applies) return null;
  const title = <h2 id="routing-title">Peak against routing skew</h2>;
  if (!curve) {
    // The chart's room is kept while its curve is on its way, so that the
    // page below does not move when it arrives.
    return (
      <section class="chart routing" aria-labelledby="routing-title" data-testid="routing-chart" data-ready="false">
        {title}
        <p class="routing-summary">{marginText(routing)}</p>
        <svg viewBox={`0 0 ${W} ${T + H + B}`} width="100%" class="routing-svg" aria-hidden="true" />
        <p class="routing-hover">The curve follows once the inputs are still.</p>
      </section>
    );
  }
  const { factors, peak_bytes: peaks } = curve;
  const { x0, x1, x } = curveScales(curve, capacity);
  const marks = [['factor', routing.factor, 'in use']];
  if (routing.margin !== null && routing.margin <= x1) marks.push(['margin', routing.margin, 'margin']);
  const onMove = (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    const f = x0 + ((((e.clientX - box.left) / box.width) * W - L) / (W - L - 6)) * (x1 - x0);
    setHover(nearestPoint(factors, f));
  };
  const h = hover >= 0 ? hover : -1;
  return (
    <section class="chart routing" aria-labelledby="routing-title" data-testid="routing-chart" data-ready="true">
      {title}
      <p class="routing-summary">{marginText(routing)}</p>
      <svg viewBox={`0 0 ${W} ${T + H + B}`} width="100%" class="routing-svg" role="img" onMouseMove={onMove}
        onMouseLeave={() => setHover(-1)}
        aria-label={`Peak per GPU from ${gib(peaks[0])} at factor ${x0} to ${gib(peaks[peaks.length - 1])} at factor ${x1.toFixed(2)}; capacity ${gib(capacity)}. ${marginText(routing)}`}>
        <CurveAxes curve={curve} capacity={capacity} />
        {marks.map(([key, f, label]) => (
          <g key={key} class={`routing-mark routing-${key}`} data-mark={key}>
            <line x1={x(f)} x2={x(f)} y1={T} y2={T + H} />
            <text x={x(f)} y={T - 3} text-anchor="middle">{`${label} ${f.toFixed(2)}`}</text>
          </g>
        ))}
        <CurvePoints curve={curve} capacity={capacity} hover={h} />
      </svg>
      <p class="routing-hover" aria-live="polite" data-testid="routing-hover">
        {h >= 0 ? `Factor ${factors[h].toFixed(2)}: peak ${gib(peaks[h])} of ${gib(capacity)}` : 'Hover the curve for the peak at a factor.'}
      </p>
    </section>
  );
}
