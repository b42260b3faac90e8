// columns.js — the plan table's columns, how each cell reads, and the
// order of its rows when a column header sorts them. Pure functions.

import { count, percent, rate } from '../format.js';
import { shortName, tightPercent } from '../names.js';

/** Statuses from best to worst; INVALID rows have no figures. */
export const STATUS_ORDER = { OK: 0, TIGHT: 1, OOM: 2, INVALID: 3 };

/**
 * Every column a plan table may show: [key, header (null: the input's
 * short name, names.js), description (or a function giving it), direction
 * of a first click]. The verdict (status, peak) comes first, after the row's
 * number and Load, so that a narrow screen keeps them in view (style.css:
 * the first three columns stick), then the speed (tokens/s, the default
 * order, beside them), then the layout, then the other figures.
 * @type {[string, string | null, string | (() => string), string][]}
 */
const ALL = [
  ['status', 'Status', () => `OK, TIGHT (under ${tightPercent()}% free), OOM, or INVALID; “across nodes”: expert parallelism spans nodes`, 'asc'],
  ['peak_bytes', 'Peak GiB', 'peak memory per GPU, in GiB', 'asc'],
  ['tokens_per_second', 'Tok/s', 'estimated tokens per second, all GPUs (the time model, which needs a GPU preset)', 'desc'],
  ['tokens_per_second_per_gpu', 'Per GPU', 'estimated tokens per second per GPU', 'desc'],
  ['mfu', 'MFU', 'model FLOPs utilisation: model FLOPs per step over the step time × GPUs × dense BF16 peak', 'desc'],
  ['pp_size', null, 'pipeline parallel', 'asc'],
  ['ep_size', null, 'expert parallel', 'asc'],
  ['cp_size', null, 'context parallel', 'asc'],
  ['dp', null, 'data parallel', 'asc'],
  ['total_gpus', 'GPUs', 'total GPUs', 'asc'],
  ['nodes', 'Nodes', 'nodes', 'asc'],
  ['micro_batch_size', 'mbs', 'micro batch size', 'asc'],
  ['sequence_length', 'seq', 'sequence length', 'asc'],
  ['num_chunks', 'Chunks', 'micro-batches per step', 'asc'],
  ['headroom_bytes', 'Headroom GiB', 'memory left free, in GiB', 'desc'],
  ['bubble_fraction', 'Bubble', 'pipeline bubble: idle share of a step', 'asc'],
  ['routing_margin', 'Margin', 'routing margin: the layout still fits when the busiest EP rank receives this many times the uniform tokens (+: even at the most routing can reach)', 'desc'],
];

/** The time model's columns, shown when the rows carry a figure (a GPU kind is given). */
const TIME_COLUMNS = new Set(['tokens_per_second', 'tokens_per_second_per_gpu', 'mfu']);

/** Every column's key, in the table's order. */
export const PLAN_COLUMNS = Object.freeze(ALL.map(([key]) => key));

/**
 * The columns for `plan`: the verdict, the speed (only when the rows carry
 * tokens/s; per GPU only when the GPUs differ between rows), the layout
 * (the GPUs and the nodes only when they differ between rows, seq only
 * when it varies), then the other figures; a vary plan's varied input
 * comes right after the verdict. Each is {key, label, title, first}.
 */
export function planColumns(plan) {
  const vary = plan.mode === 'vary' ? plan.vary : null;
  const rows = plan.rows;
  const varies = (key) => rows.some((r) => r[key] !== rows[0][key]);
  const hasNodes = rows.some((r) => 'nodes' in r);
  const hasTime = rows.some((r) => typeof r.tokens_per_second === 'number');
  // The GPUs (and nodes) of a budget are every row's: the form and the
  // answer say them; tokens/s per GPU is then tokens/s over that count.
  const gpusVary = varies('total_gpus');
  const shown = {
    nodes: hasNodes && (varies('nodes') || vary === 'nodes'),
    total_gpus: gpusVary || vary === 'total_gpus',
    sequence_length: vary === 'sequence_length',
    tokens_per_second_per_gpu: hasTime && gpusVary,
  };
  const cols = ALL.filter(([key]) => (shown[key] ?? true) && (!TIME_COLUMNS.has(key) || hasTime))
    .map(([key, label, title, first]) => ({ key, label: label ?? shortName(key), title: typeof title === 'function' ? title() : title, first }));
  if (vary) {
    // A vary plan's varied input comes right after the verdict.
    const i = cols.findIndex((c) => c.key === vary);
    if (i > 2) cols.splice(2, 0, ...cols.splice(i, 1));
  }
  return cols;
}

/** Bytes as a GiB figure without its unit (the column's header has it): "62.48", "1,234.56". */
export function gibFigure(bytes) {
  const [whole, frac] = (bytes / 2 ** 30).toFixed(2).split('.');
  return `${count(Number(whole))}.${frac}`;
}

/** A cell's text. */
export function cellText(row, key) {
  const v = row[key];
  if (v === null || v === undefined) return '—';
  switch (key) {
    case 'peak_bytes': return gibFigure(v);
    case 'headroom_bytes': return `${v < 0 ? '\u2212' : '+'}${gibFigure(Math.abs(v))}`;
    case 'bubble_fraction': return percent(v, 2);
    case 'tokens_per_second':
    case 'tokens_per_second_per_gpu': return rate(v);
    case 'mfu': return percent(v, 1);
    case 'routing_margin': return `${(Math.floor(v * 100 + 1e-9) / 100).toFixed(2)}${row.routing_margin_is_limit ? '+' : ''}`;
    case 'num_chunks':
    case 'total_gpus':
    case 'sequence_length': return count(v);
    default: return String(v);
  }
}

function sortValue(row, key) {
  if (key === 'status') return STATUS_ORDER[row.status] ?? 9;
  const v = row[key];
  return typeof v === 'number' ? v : null;
}

/**
 * The rows as [{row, rank}] (rank: 1-based place in the planner's order),
 * sorted by column `key` ("rank" keeps the planner's order). Rows without
 * a value (INVALID ones) go last either way; ties keep the planner's order.
 */
export function sortRows(rows, key, desc) {
  const out = rows.map((row, i) => ({ row, rank: i + 1 }));
  if (key === 'rank') return desc ? out.reverse() : out;
  const dir = desc ? -1 : 1;
  return out.sort((a, b) => {
    const x = sortValue(a.row, key);
    const y = sortValue(b.row, key);
    if (x === null || y === null) return Number(x === null) - Number(y === null) || a.rank - b.rank;
    return x !== y ? (x < y ? -dir : dir) : a.rank - b.rank;
  });
}

/** "pp 2, ep 8, cp 1, dp 1, micro batch 1" for a row (labels, messages). */
export function layoutText(row) {
  const parts = ['pp_size', 'ep_size', 'cp_size', 'dp', 'micro_batch_size'].map((k) => `${shortName(k)} ${row[k]}`);
  if (row.nodes !== undefined) parts.push(`${row.nodes} nodes`);
  parts.push(`${count(row.total_gpus)} GPUs`);
  return parts.join(', ');
}
