// RankChart.jsx — the peak of every pipeline rank as bars, with the GPU's
// capacity as a line and the worst rank marked; the numbers as a table.

import { gib, percent } from './format.js';
import { Numbers } from './Numbers.jsx';
import { tightPercent } from './names.js';

const H = 170; // plot height in px
const TOP = 18; // room for the "worst" mark
const pc = (x) => `${x.toFixed(3)}%`;

function barClass(bytes, capacity) {
  if (bytes > capacity) return 'bar-oom';
  if ((capacity - bytes) * 100 < capacity * tightPercent()) return 'bar-tight';
  return 'bar-ok';
}

/** Props: result (a result with every rank), selected (the rank shown, or -1). */
export function RankChart({ result, selected = -1 }) {
  const ranks = result.ranks;
  const capacity = result.gpu_capacity_bytes;
  const top = Math.max(capacity, ...ranks.map((r) => r.peak_bytes)) * 1.04;
  const y = (b) => TOP + H - (b / top) * H;
  const slot = 100 / ranks.length;
  const labelEvery = Math.ceil(ranks.length / 16);
  const worst = result.worst_rank;
  return (
    <section class="chart ranks" aria-labelledby="ranks-title">
      <h2 id="ranks-title">Peak per pipeline rank</h2>
      <svg width="100%" height={TOP + H + 20} class="rank-svg" role="img"
        aria-label={`Bars of the peak of ${ranks.length} pipeline rank${ranks.length > 1 ? 's' : ''}; worst is rank ${worst} at ${gib(result.peak_bytes)}; capacity ${gib(capacity)}. The table below has the numbers.`}>
        {ranks.map((r, i) => {
          const x = i * slot + slot * 0.15;
          const cls = `${barClass(r.peak_bytes, capacity)}${r.pp_rank === worst ? ' bar-worst' : ''}${r.pp_rank === selected ? ' bar-selected' : ''}`;
          return (
            <g key={r.pp_rank} data-rank={r.pp_rank}>
              <rect class={cls} x={pc(x)} width={pc(slot * 0.7)} y={y(r.peak_bytes)} height={Math.max(0, TOP + H - y(r.peak_bytes))}>
                <title>{`rank ${r.pp_rank}: ${gib(r.peak_bytes)}`}</title>
              </rect>
              {(r.pp_rank === worst || r.pp_rank === selected) && (
                <text class="worst-mark" x={pc(x + slot * 0.35)} y={y(r.peak_bytes) - 5} text-anchor="middle">
                  {r.pp_rank === worst ? '▼ worst' : '▼ shown'}
                </text>
              )}
              {i % labelEvery === 0 && (
                <text class="axis-label" x={pc(x + slot * 0.35)} y={TOP + H + 15} text-anchor="middle">{r.pp_rank}</text>
              )}
            </g>
          );
        })}
        <line class="capacity-line" x1="0" x2="100%" y1={y(capacity)} y2={y(capacity)} />
        <text class="capacity-label" x="100%" y={y(capacity) - 4} text-anchor="end">capacity {gib(capacity, 1)}</text>
      </svg>
      <Numbers summary="Numbers">{() => (
        <table>
          <caption class="visually-hidden">Peak per pipeline rank</caption>
          <thead><tr><th scope="col">Rank</th><th scope="col">Stages</th><th scope="col">Peak</th><th scope="col">Tensors</th><th scope="col">Of capacity</th></tr></thead>
          <tbody>
            {ranks.map((r) => (
              <tr key={r.pp_rank} class={r.pp_rank === worst ? 'worst-row' : ''}>
                <th scope="row">{r.pp_rank}{r.pp_rank === worst ? ' (worst)' : ''}{r.pp_rank === selected ? ' (shown)' : ''}</th>
                <td>{r.stages.join(', ')}</td>
                <td>{gib(r.peak_bytes)}</td>
                <td>{gib(r.tensor_peak_bytes)}</td>
                <td>{percent(r.peak_bytes / capacity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}</Numbers>
    </section>
  );
}
