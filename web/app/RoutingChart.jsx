// RoutingChart.jsx — the peak per GPU against the routing factor (the
// busiest expert-parallel rank's tokens over the uniform share), drawn at
// its card's width: the GPU's capacity as a line, the factor in use and the
// margin marked, ticks at round factors and round GiB; hovering a point,
// or the arrow keys with the chart focused, gives its peak; the points as
// a table (Numbers). The margin names the rank it is for: the rank shown,
// or the run's every rank. The curve comes from the worker (useRoutingCurve) for the
// answer on screen; until it does, the chart keeps its room and says so.

import { useState } from 'preact/hooks';
import { gib, axisGib, axisUnit, percent } from './format.js';
import { nearestPoint } from './routing-curve.js';
import { ticks } from './timeline-plot.js';
import { stepEvent } from './timeline-keys.js';
import { useWidth } from './use-width.js';
import { Card } from './Card.jsx';
import { Numbers } from './Numbers.jsx';
import { pointerWord } from './Timeline.jsx';

const H = 150; // plot height, px
const L = 48; // room for the GiB axis
const R = 12; // right margin
const B = 34; // the factor axis and its title
const T = 34; // two rows of mark labels above the plot

/** Whose margin and curve they are: pipeline rank `rank` (the rank shown), or the run's (-1: every rank). */
export function marginOwner(rank = -1) {
  return rank >= 0 ? `Pipeline rank ${rank} (the rank shown)` : 'The run (every pipeline rank)';
}

/** The margin as the report words it, for pipeline rank `rank` (-1: the run, every rank). */
export function marginText(routing, rank = -1) {
  if (!routing?.applies) return 'Routing does not apply: ep = 1, every expert is local.';
  const who = marginOwner(rank);
  if (routing.margin === null) return `${who}: no routing factor fits: out of memory even with perfectly balanced routing.`;
  const m = (Math.floor(routing.margin * 1000) / 1000).toFixed(3);
  if (routing.margin_is_limit) return `${who} fits up to factor ${m}, the most routing can reach (every token of every EP peer sent to one rank).`;
  return `${who} fits up to factor ${m}: the busiest EP rank may receive ${m}× the uniform tokens (an expert capacity factor of ${m}).`;
}

/** The chart's scales for `curve` and `capacity` over a plot `w` px wide: x(factor), y(bytes) in px. */
export function curveScales(curve, capacity, w) {
  const { factors, peak_bytes: peaks } = curve;
  const x0 = factors[0];
  const x1 = factors[factors.length - 1];
  const lo = Math.min(...peaks, capacity) * 0.97;
  const hi = Math.max(...peaks, capacity) * 1.02;
  return {
    x0, x1, lo, hi,
    x: (f) => L + ((f - x0) / Math.max(1e-9, x1 - x0)) * w,
    y: (b) => T + H - ((b - lo) / (hi - lo)) * H,
  };
}

/**
 * Where the marks' labels go: each at its line, on the first of two rows
 * where it clears the labels already placed (about 6.5 px a character).
 * Returns [{key, x, row}].
 */
export function placeMarks(marks) {
  /** @type {{key: string, x: number, row: number, half: number}[]} */
  const placed = [];
  for (const m of marks) {
    const half = (m.text.length * 6.5) / 2 + 4;
    const row = [0, 1].find((r) => placed.every((p) => p.row !== r || Math.abs(p.x - m.x) >= p.half + half)) ?? 1;
    placed.push({ key: m.key, x: m.x, row, half });
  }
  return placed;
}

/**
 * Props: routing (result.routing), curve (useRoutingCurve's for this
 * answer, or null), capacity (bytes), answerFor (Card's: the cards read their note from StaleNote).
 */
export function RoutingChart({ routing, curve, capacity, answerFor, rank = -1 }) {
  const [hover, setHover] = useState(-1);
  const [keyed, setKeyed] = useState(false);
  const [box, width] = useWidth(480);
  if (!routing?.applies) return null;
  const title = <h2 id="routing-title">Peak against routing skew</h2>;
  const plotW = Math.max(60, width - L - R);
  const height = T + H + B;
  const n = curve?.factors?.length ?? 0;
  // Arrow keys, Page Up / Down, Home and End walk the points (as the timeline's events).
  const onKeyDown = (e) => {
    const at = hover >= 0 && hover < n ? hover : nearestPoint(curve.factors, routing.factor);
    const to = stepEvent(e.key, at, n, -1);
    if (to === null) return;
    e.preventDefault();
    setKeyed(true);
    setHover(to);
  };
  const frame = (ready, body, hoverText, numbers = null) => (
    <Card answerFor={answerFor} class="chart routing" aria-labelledby="routing-title" data-testid="routing-chart"
      data-ready={ready ? 'true' : 'false'} data-rank={rank}>
      {title}
      <p class="routing-summary" data-testid="routing-margin">{marginText(routing, rank)}</p>
      <div ref={box} class="routing-box" style={{ height: `${height}px` }} tabIndex={ready ? 0 : undefined}
        role={ready ? 'group' : undefined} aria-label={ready ? 'The routing curve: the arrow keys, Home and End walk its points; the table below has the numbers.' : undefined}
        onKeyDown={ready ? onKeyDown : undefined} onBlur={() => keyed && setHover(-1)} data-testid="routing-plot">{body}</div>
      <p class="routing-hover" aria-live="polite" data-testid="routing-hover">{hoverText}</p>
      {numbers}
    </Card>
  );
  // The chart's room is kept while its curve is on its way, so that the
  // page below does not move when it arrives.
  if (!curve) return frame(false, null, 'The curve follows once the inputs are still.');
  const { factors, peak_bytes: peaks } = curve;
  const { x0, x1, lo, hi, x, y } = curveScales(curve, capacity, plotW);
  const { unit, per } = axisUnit(hi);
  const fTicks = ticks(x0, x1, plotW, 60);
  const bTicks = ticks(lo / per, hi / per, H, 32).map((v) => v * per).filter((b) => b >= lo && b <= hi);
  const marks = [{ key: 'factor', f: routing.factor, text: `in use ${routing.factor.toFixed(2)}` }];
  if (routing.margin !== null && routing.margin <= x1) marks.push({ key: 'margin', f: routing.margin, text: `margin ${routing.margin.toFixed(2)}` });
  const placed = placeMarks(marks.map((m) => ({ ...m, x: x(m.f) })));
  const capY = y(capacity);
  // The capacity's label sits at the left, on the side of the line the
  // curve is not (it rises with the factor), and inside the plot.
  const capAbove = peaks[0] < capacity ? capY - 16 >= T : capY + 14 > T + H;
  const path = factors.map((f, i) => `${i ? 'L' : 'M'}${x(f).toFixed(1)},${y(peaks[i]).toFixed(1)}`).join(' ');
  const onMove = (e) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const f = x0 + ((e.clientX - rect.left - L) / plotW) * (x1 - x0);
    setHover(nearestPoint(factors, f));
  };
  const h = hover >= 0 && hover < factors.length ? hover : -1;
  const svg = (
    <svg width={width} height={height} class="routing-svg" role="img" onMouseMove={onMove} onMouseLeave={() => setHover(-1)}
      aria-label={`Peak per GPU from ${gib(peaks[0])} at factor ${x0} to ${gib(peaks[peaks.length - 1])} at factor ${x1.toFixed(2)}; capacity ${gib(capacity)}. ${marginText(routing, rank)}`}>
      <line class="axis" x1={L} x2={L + plotW} y1={T + H} y2={T + H} />
      <line class="axis" x1={L} x2={L} y1={T} y2={T + H} />
      {bTicks.map((b) => (
        <text key={`b${b}`} class="axis-label" x={L - 5} y={y(b) + 4} text-anchor="end">{axisGib(b, per)}</text>
      ))}
      <text class="axis-label" x={10} y={T + H / 2} text-anchor="middle" transform={`rotate(-90 10 ${T + H / 2})`}>{unit}</text>
      {fTicks.map((f) => (
        <g key={`f${f}`}>
          <line class="axis" x1={x(f)} x2={x(f)} y1={T + H} y2={T + H + 4} />
          <text class="axis-label" x={x(f)} y={T + H + 15} text-anchor="middle">{`${f}×`}</text>
        </g>
      ))}
      <text class="axis-label" x={L + plotW / 2} y={T + H + 30} text-anchor="middle">routing factor (busiest rank’s tokens ÷ the uniform share)</text>
      <line class="capacity-line" x1={L} x2={L + plotW} y1={capY} y2={capY} />
      <text class="capacity-label" x={L + 4} y={capAbove ? capY - 4 : capY + 12}>capacity</text>
      <path class="routing-curve" d={path} fill="none" />
      {marks.map((m, i) => (
        <g key={m.key} class={`routing-mark routing-${m.key}`} data-mark={m.key}>
          <line x1={x(m.f)} x2={x(m.f)} y1={T} y2={T + H} />
          <text x={x(m.f)} y={placed[i].row ? T - 17 : T - 4} text-anchor="middle">{m.text}</text>
        </g>
      ))}
      {factors.map((f, i) => (
        <circle key={f} class={`routing-point${i === h ? ' routing-point-hover' : ''}`} cx={x(f)} cy={y(peaks[i])} r={i === h ? 3.5 : 1.8} />
      ))}
    </svg>
  );
  const table = (
    <Numbers summary={`Numbers (${factors.length} factors)`}>{() => (
      <table data-testid="routing-numbers">
        <caption class="visually-hidden">Peak per GPU against the routing factor, {marginOwner(rank).toLowerCase()}</caption>
        <thead><tr><th scope="col">Routing factor</th><th scope="col">Peak</th><th scope="col">Of capacity</th></tr></thead>
        <tbody>
          {factors.map((f, i) => (
            <tr key={f} class={peaks[i] > capacity ? 'worst-row' : ''}>
              <th scope="row">{f.toFixed(2)}</th><td>{gib(peaks[i])}</td><td>{percent(peaks[i] / capacity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}</Numbers>
  );
  return frame(true, svg, h >= 0 ? `Factor ${factors[h].toFixed(2)}: peak ${gib(peaks[h])} of ${gib(capacity)}` : `${pointerWord()} the curve, or focus it and use the arrow keys, for the peak at a factor.`, table);
}
