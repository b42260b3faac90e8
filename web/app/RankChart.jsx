// RankChart.jsx — the peak of every pipeline rank as bars with their
// values, a GiB (or TiB) axis, the GPU's capacity as a line (labelled in
// the axis, clear of the bars) and the worst rank marked under its bar; a
// measured run's peaks as markers, with their legend; the numbers as a
// table. The chart is positioned boxes (HTML), like the breakdown's bar:
// cheaper to lay out again on every move than an SVG.

import { gib, percent, axisGib, axisUnit } from './format.js';
import { Card } from './Card.jsx';
import { Numbers } from './Numbers.jsx';
import { tightPercent } from './names.js';

const H = 170; // plot height in px
const TOP = 16; // room for the bar values
const BOTTOM = 46; // rank numbers, the worst mark and the axis title
const AXIS = 48; // width of the GiB axis
const GIB = 2 ** 30;
const pc = (x) => `${x.toFixed(3)}%`;
const px = (x) => `${x.toFixed(1)}px`;

function barClass(bytes, capacity) {
  if (bytes > capacity) return 'bar-oom';
  if ((capacity - bytes) * 100 < capacity * tightPercent()) return 'bar-tight';
  return 'bar-ok';
}

/** Round tick steps in `per` bytes (GiB by default): 1, 2, 2.5 or 5 times a power of ten, about `n` of them. */
export function gibTicks(topBytes, n = 4, per = GIB) {
  const top = topBytes / per;
  if (!(top > 0)) return [0];
  const raw = top / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(Math.round(v / step) * step * per);
  return ticks;
}

/** A bar value's line height, px: its label's box is [top, top + VALUE_H]. */
const VALUE_H = 12;

/**
 * Where a bar's value label goes (its top, px), for a bar whose top is at
 * `barY` and the capacity line at `capY`: just above the bar, or, where
 * the line would run through the label, just above the line.
 */
export function valueTop(barY, capY) {
  const top = barY - 13;
  if (capY >= top - 2 && capY <= top + VALUE_H + 2) return Math.min(barY, capY) - VALUE_H - 3;
  return top;
}

/**
 * Props: result (a result with every rank), selected (the rank shown, or
 * -1), measured (markersFor() of a measured run: [{pp_rank, bytes, source}]),
 * answerFor (Card's: the cards read their note from StaleNote).
 */
export function RankChart({ result, selected = -1, measured = [], answerFor }) {
  const ranks = result.ranks;
  const capacity = result.gpu_capacity_bytes;
  const top = Math.max(capacity, ...ranks.map((r) => r.peak_bytes), ...measured.map((m) => m.bytes)) * 1.06;
  const mark = new Map(measured.map((m) => [m.pp_rank, m]));
  const y = (b) => TOP + H - (b / top) * H;
  const slot = 100 / ranks.length;
  const labelEvery = Math.ceil(ranks.length / 16);
  const valueEvery = Math.ceil(ranks.length / 12);
  const worst = result.worst_rank;
  const capY = y(capacity);
  const { unit, per } = axisUnit(top);
  const ticks = gibTicks(top, 4, per).filter((t) => Math.abs(y(t) - capY) >= 12);
  const height = TOP + H + BOTTOM;
  return (
    <Card answerFor={answerFor} class="chart ranks" aria-labelledby="ranks-title" data-testid="rank-chart">
      <h2 id="ranks-title">Peak per pipeline rank</h2>
      <div class="rank-plot" style={{ height: px(height) }}>
        <div class="rank-axis" aria-hidden="true" style={{ width: px(AXIS) }}>
          {ticks.map((t) => (
            <span key={t} class="rank-tick" style={{ top: px(y(t)) }}>{axisGib(t, per)}</span>
          ))}
          <span class="rank-tick rank-cap" style={{ top: px(capY) }}>cap</span>
          <span class="rank-axis-line" style={{ top: px(TOP), height: px(H) }} />
          <span class="rank-axis-title" style={{ top: px(TOP), height: px(H) }}>{unit}</span>
        </div>
        <div class="rank-bars" role="img" style={{ height: px(TOP + H) }}
          aria-label={`Bars of the peak of ${ranks.length} pipeline rank${ranks.length > 1 ? 's' : ''}; worst is rank ${worst} at ${gib(result.peak_bytes)}; capacity ${gib(capacity)}. The table below has the numbers.`}>
          {ticks.map((t) => <span key={t} class="rank-grid" style={{ top: px(y(t)) }} />)}
          {ranks.map((r, i) => {
            const cls = `rank-bar ${barClass(r.peak_bytes, capacity)}${r.pp_rank === worst ? ' bar-worst' : ''}${r.pp_rank === selected ? ' bar-selected' : ''}`;
            const marked = r.pp_rank === worst || r.pp_rank === selected;
            const m = mark.get(r.pp_rank);
            return (
              <div key={r.pp_rank} class="rank-slot" data-rank={r.pp_rank} style={{ left: pc(i * slot), width: pc(slot) }}>
                <span class={cls} style={{ top: px(y(r.peak_bytes)), height: px(Math.max(0, TOP + H - y(r.peak_bytes))) }}
                  title={`rank ${r.pp_rank}: ${gib(r.peak_bytes)}`} />
                {(i % valueEvery === 0 || marked) && (
                  <span class="rank-label bar-value" style={{ top: px(valueTop(y(r.peak_bytes), capY)) }}>{axisGib(r.peak_bytes, per)}</span>
                )}
                {m && (
                  <span class="measured-mark" data-testid="measured-mark" style={{ top: px(y(m.bytes) - 1.5) }}
                    title={`rank ${r.pp_rank}: measured ${gib(m.bytes)} allocated (${m.source}); the estimate's tensors ${gib(r.tensor_peak_bytes)}`} />
                )}
                {(i % labelEvery === 0 || marked) && (
                  <span class="rank-label rank-number" style={{ top: px(TOP + H + 5) }}>{r.pp_rank}</span>
                )}
                {marked && (
                  <span class="rank-label worst-mark" style={{ top: px(TOP + H + 18) }}>
                    {r.pp_rank === worst ? '▲ worst' : '▲ shown'}
                  </span>
                )}
              </div>
            );
          })}
          <span class="rank-capacity" style={{ top: px(capY - 1) }} />
          <span class="rank-title">pipeline rank</span>
        </div>
      </div>
      <p class="help rank-legend">
        Bars: the peak per GPU of each rank in {unit}. Dashed line (“cap” on the axis): the GPU’s capacity, {gib(capacity, 1)}.
        {measured.length > 0 && <> <span class="measured-key" aria-hidden="true" /> Black marks: the measured run’s allocated peak of that rank (the estimate’s counterpart is its tensors, in the table).</>}
      </p>
      <Numbers summary="Numbers">{() => (
        <table>
          <caption class="visually-hidden">Peak per pipeline rank</caption>
          <thead><tr><th scope="col">Rank</th><th scope="col">Stages</th><th scope="col">Parameters per GPU</th><th scope="col">Peak</th><th scope="col">Tensors</th><th scope="col">Of capacity</th>{measured.length > 0 && <th scope="col">Measured</th>}</tr></thead>
          <tbody>
            {ranks.map((r) => (
              <tr key={r.pp_rank} class={r.pp_rank === worst ? 'worst-row' : ''}>
                <th scope="row">{r.pp_rank}{r.pp_rank === worst ? ' (worst)' : ''}{r.pp_rank === selected ? ' (shown)' : ''}</th>
                <td>{r.stages.join(', ')}</td>
                <td>{r.parameters_per_gpu !== undefined ? r.parameters_per_gpu.toLocaleString('en-US') : '—'}</td>
                <td>{gib(r.peak_bytes)}</td>
                <td>{gib(r.tensor_peak_bytes)}</td>
                <td>{percent(r.peak_bytes / capacity)}</td>
                {measured.length > 0 && <td>{mark.has(r.pp_rank) ? gib(mark.get(r.pp_rank).bytes) : '—'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}</Numbers>
    </Card>
  );
}
