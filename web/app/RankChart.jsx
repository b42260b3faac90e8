// RankChart.jsx — the peak of every pipeline rank as bars with their
// values, a GiB axis, the GPU's capacity as a line (labelled in the axis,
// clear of the bars) and the worst rank marked under its bar; a measured
// run's peaks as markers; the numbers as a table.

import { gib, percent, axisGib } from './format.js';
import { Numbers } from './Numbers.jsx';
import { tightPercent } from './names.js';

const H = 170; // plot height in px
const TOP = 16; // room for the bar values
const BOTTOM = 46; // rank numbers, the worst mark and the axis title
const AXIS = 48; // width of the GiB axis
const GIB = 2 ** 30;
const pc = (x) => `${x.toFixed(3)}%`;

function barClass(bytes, capacity) {
  if (bytes > capacity) return 'bar-oom';
  if ((capacity - bytes) * 100 < capacity * tightPercent()) return 'bar-tight';
  return 'bar-ok';
}

/** Round tick steps (GiB): 1, 2 or 5 times a power of ten, about `n` of them. */
export function gibTicks(topBytes, n = 4) {
  const top = topBytes / GIB;
  if (!(top > 0)) return [0];
  const raw = top / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(Math.round(v / step) * step * GIB);
  return ticks;
}

/**
 * Props: result (a result with every rank), selected (the rank shown, or
 * -1), measured (markersFor() of a measured run: [{pp_rank, bytes, source}]).
 */
export function RankChart({ result, selected = -1, measured = [] }) {
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
  const ticks = gibTicks(top).filter((t) => Math.abs(y(t) - capY) >= 12);
  const height = TOP + H + BOTTOM;
  return (
    <section class="chart ranks" aria-labelledby="ranks-title">
      <h2 id="ranks-title">Peak per pipeline rank</h2>
      <div class="rank-plot">
        <svg width={AXIS} height={height} class="rank-axis" aria-hidden="true">
          {ticks.map((t) => (
            <g key={t}>
              <text class="axis-label" x={AXIS - 6} y={y(t) + 4} text-anchor="end">{axisGib(t)}</text>
              <line class="axis-tick" x1={AXIS - 4} x2={AXIS} y1={y(t)} y2={y(t)} />
            </g>
          ))}
          <text class="capacity-label" x={AXIS - 6} y={capY + 4} text-anchor="end">cap</text>
          <line class="axis-line" x1={AXIS} x2={AXIS} y1={TOP} y2={TOP + H} />
          <text class="axis-label" x={12} y={TOP + H / 2} text-anchor="middle" transform={`rotate(-90 12 ${TOP + H / 2})`}>GiB</text>
        </svg>
        <svg width="100%" height={height} class="rank-svg" role="img"
          aria-label={`Bars of the peak of ${ranks.length} pipeline rank${ranks.length > 1 ? 's' : ''}; worst is rank ${worst} at ${gib(result.peak_bytes)}; capacity ${gib(capacity)}. The table below has the numbers.`}>
          {ticks.map((t) => <line key={t} class="grid-line" x1="0" x2="100%" y1={y(t)} y2={y(t)} />)}
          {ranks.map((r, i) => {
            const x = i * slot + slot * 0.15;
            const cls = `${barClass(r.peak_bytes, capacity)}${r.pp_rank === worst ? ' bar-worst' : ''}${r.pp_rank === selected ? ' bar-selected' : ''}`;
            const marked = r.pp_rank === worst || r.pp_rank === selected;
            return (
              <g key={r.pp_rank} data-rank={r.pp_rank}>
                <rect class={cls} x={pc(x)} width={pc(slot * 0.7)} y={y(r.peak_bytes)} height={Math.max(0, TOP + H - y(r.peak_bytes))}>
                  <title>{`rank ${r.pp_rank}: ${gib(r.peak_bytes)}`}</title>
                </rect>
                {(i % valueEvery === 0 || marked) && (
                  <text class="bar-value" x={pc(x + slot * 0.35)} y={y(r.peak_bytes) - 4} text-anchor="middle">{axisGib(r.peak_bytes)}</text>
                )}
                {mark.has(r.pp_rank) && (
                  <g class="measured-mark" data-testid="measured-mark">
                    <line x1={pc(x - slot * 0.05)} x2={pc(x + slot * 0.75)} y1={y(mark.get(r.pp_rank).bytes)} y2={y(mark.get(r.pp_rank).bytes)} />
                    <title>{`rank ${r.pp_rank}: measured ${gib(mark.get(r.pp_rank).bytes)} allocated (${mark.get(r.pp_rank).source}); the estimate's tensors ${gib(r.tensor_peak_bytes)}`}</title>
                  </g>
                )}
                {(i % labelEvery === 0 || marked) && (
                  <text class="axis-label" x={pc(x + slot * 0.35)} y={TOP + H + 14} text-anchor="middle">{r.pp_rank}</text>
                )}
                {marked && (
                  <text class="worst-mark" x={pc(x + slot * 0.35)} y={TOP + H + 27} text-anchor="middle">
                    {r.pp_rank === worst ? '▲ worst' : '▲ shown'}
                  </text>
                )}
              </g>
            );
          })}
          <line class="capacity-line" x1="0" x2="100%" y1={capY} y2={capY} />
          <line class="axis-line" x1="0" x2="100%" y1={TOP + H} y2={TOP + H} />
          <text class="axis-label axis-title" x="50%" y={TOP + H + 42} text-anchor="middle">pipeline rank</text>
        </svg>
      </div>
      <p class="help rank-legend">Bars: the peak per GPU of each rank in GiB. Dashed line (“cap” on the axis): the GPU’s capacity, {gib(capacity, 1)}.</p>
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
    </section>
  );
}
