// BreakdownChart.jsx — what the peak is made of: one stacked bar of the
// static and dynamic components at the peak (plus non-PyTorch memory and
// fragmentation) against the GPU's capacity, and the same as a table. The
// bar is boxes in a row (HTML), cheaper to lay out again on every move than
// SVG.

import { STATIC_PARTS, DYNAMIC_PARTS, OVERHEAD_PARTS, partLabel } from './palette.js';
import { gib, mem, percent } from './format.js';
import { chartColor } from './scheme.js';
import { useColorScheme } from './use-color-scheme.js';
import { PartName } from './PartName.jsx';
import { Card } from './Card.jsx';

/** The bar's segments for `rank`: [{key, label, color, bytes, group}], zeros left out. */
export function segments(rank) {
  const out = [];
  for (const [key, color] of STATIC_PARTS) out.push({ key, label: partLabel(key), color, bytes: rank.static[key] ?? 0, group: 'static' });
  for (const [key, color] of DYNAMIC_PARTS) out.push({ key, label: partLabel(key), color, bytes: rank.dynamic[key] ?? 0, group: 'dynamic' });
  const [np, frag] = OVERHEAD_PARTS;
  out.push({ key: np[0], label: np[1], color: np[2], bytes: rank.non_pytorch_bytes, group: 'overhead' });
  out.push({ key: frag[0], label: frag[1], color: frag[2], bytes: rank.fragmentation_bytes, group: 'overhead' });
  return out.filter((s) => s.bytes > 0);
}

const pc = (x) => `${x.toFixed(3)}%`;

/**
 * Props: rank (a result rank), capacity (bytes), answerFor (Card's: the cards read their note from StaleNote),
 * compact.
 * @param {{rank: any, capacity: number, answerFor: string, compact?: boolean}} props
 */
export function BreakdownChart({ rank, capacity, answerFor, compact }) {
  const scheme = useColorScheme();
  const parts = segments(rank).map((s) => ({ ...s, color: chartColor(s.color, scheme) }));
  const total = parts.reduce((a, s) => a + s.bytes, 0);
  const scale = 100 / Math.max(total, capacity, 1);
  const capX = Math.min(100, capacity * scale);
  // Compact (embed): the six largest, and the rest as one row.
  const sorted = compact ? parts.slice().sort((a, b) => b.bytes - a.bytes) : parts;
  const rows = compact ? sorted.slice(0, 6) : parts;
  const rest = compact ? sorted.slice(6) : [];
  const restBytes = rest.reduce((a, s) => a + s.bytes, 0);
  const groups = ['static', 'dynamic', 'overhead'].map((g) => ({
    g, bytes: parts.filter((s) => s.group === g).reduce((a, s) => a + s.bytes, 0),
  }));
  return (
    <Card answerFor={answerFor} class="chart breakdown" aria-labelledby="breakdown-title" data-testid="breakdown">
      <h2 id="breakdown-title">Breakdown at the peak (rank {rank.pp_rank})</h2>
      <div class="bar" role="img"
        aria-label={`Stacked bar: ${groups.map((g) => `${g.g} ${gib(g.bytes)}`).join(', ')}; capacity ${gib(capacity)}. The table below lists each component.`}>
        <div class="bar-track">
          {parts.map((s) => (
            <span key={s.key} class="bar-segment" style={{ width: pc(Math.max(s.bytes * scale, 0.05)), background: s.color }}
              title={`${s.label}: ${mem(s.bytes)}`} />
          ))}
        </div>
        <span class="bar-capacity" style={{ left: pc(capX) }} />
        <span class="bar-capacity-label" style={capX > 50 ? { right: pc(100 - capX) } : { left: pc(capX) }}>
          capacity {gib(capacity, 1)}
        </span>
      </div>
      <table class="legend-table">
        <caption class="visually-hidden">Memory components at the peak, rank {rank.pp_rank}</caption>
        <thead><tr><th scope="col">Component</th><th scope="col">Memory</th><th scope="col">Share</th></tr></thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.key} data-part={s.key}>
              <th scope="row"><PartName label={s.label} color={s.color} /></th>
              <td>{mem(s.bytes)}</td>
              <td>{percent(s.bytes / total)}</td>
            </tr>
          ))}
          {rest.length > 0 && (
            <tr data-part="other">
              <th scope="row">{rest.length} other component{rest.length > 1 ? 's' : ''}</th>
              <td>{mem(restBytes)}</td>
              <td>{percent(restBytes / total)}</td>
            </tr>
          )}
        </tbody>
        <tfoot><tr><th scope="row">Total</th><td>{gib(total)}</td><td>{percent(total / capacity)} of capacity</td></tr></tfoot>
      </table>
    </Card>
  );
}
