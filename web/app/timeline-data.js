// timeline-data.js — the shown rank's events as the page view gives them
// (memest_estimate_view with timeline_columns: rank.events, each with its
// index, label, live chunks and totals, and the components as one array
// per component in rank.event_components, the steps in rank.event_steps)
// shaped for the chart: x = each event's time in the step (its op's end,
// t_seconds) when the estimate has a step time, else its index; then one stacked series per
// component, which the timeline draws (timeline-plot.js); and the
// components of one event, which its readout lists. Pure; the chart
// (Timeline.jsx), the CSV download and the tests use it.

import { ALL_PARTS } from './palette.js';

const GIB = 2 ** 30;

/**
 * Returns { keys, x, raw, series, peakPos, window, total, steps } for `rank`:
 *   keys   the keys of the components that are ever above zero, bottom
 *          of the stack first: non-PyTorch memory (constant), the tensor
 *          components (ALL_PARTS order), then allocator fragmentation (the
 *          rank's fraction of each event's tensors), so that the top of the
 *          stack at the peak is the rank's grand total;
 *   x      Float64Array of the events' times in the step (s) when the
 *          rank gives every one (eventX), else of their indices;
 *   seconds whether x is in seconds;
 *   raw    one Float64Array of bytes per key;
 *   series one Float64Array of GiB per key, stacked, top of the stack
 *          first (drawn in order, so each smaller one paints over the
 *          larger ones below it);
 *   peakPos position of the rank's peak event in x, or -1;
 *   window true when the events are a window of a longer schedule;
 *   steps  [{pos, step}] where each schedule step begins (1..8, 9 the
 *          step end, 10 the optimizer step).
 * null when the rank carries no events.
 */
export function timelineData(rank) {
  const n = keptEvents(rank);
  if (n === 0) return null;
  const { x, seconds } = eventX(rank);
  const stepOf = (i) => rank.event_steps?.[i] ?? 0;
  const steps = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || stepOf(i) !== stepOf(i - 1)) steps.push({ pos: i, step: stepOf(i) });
  }
  // Only the components that are ever above zero get a column.
  const keys = [];
  const raw = [];
  const tensors = new Float64Array(n);
  for (const [key] of ALL_PARTS) {
    const col = column(rank, key, n);
    let used = false;
    for (let i = 0; i < n; i++) {
      tensors[i] += col[i];
      if (col[i]) used = true;
    }
    if (used) {
      keys.push(key);
      raw.push(col);
    }
  }
  const nonpt = rank.non_pytorch_bytes > 0 ? rank.non_pytorch_bytes : 0;
  const frag = fragmentationShare(rank);
  if (nonpt) {
    keys.unshift('non_pytorch');
    raw.unshift(new Float64Array(n).fill(nonpt));
  }
  if (frag) {
    keys.push('fragmentation');
    raw.push(tensors.map((t) => Math.round(t * frag)));
  }
  const stacked = [];
  const acc = new Float64Array(n);
  for (let k = 0; k < keys.length; k++) {
    for (let i = 0; i < n; i++) acc[i] += raw[k][i] / GIB;
    stacked.push(acc.slice());
  }
  return {
    keys,
    x,
    seconds,
    raw,
    series: stacked.reverse(),
    peakPos: peakPosition(rank),
    window: n < rank.events_total,
    total: rank.events_total,
    steps,
  };
}

/** Component `key`'s bytes at each of the `n` events (zeros where the rank has no column for it). */
function column(rank, key, n) {
  const from = rank.event_components?.[key];
  const col = new Float64Array(n);
  if (Array.isArray(from) && from.length === n) for (let i = 0; i < n; i++) col[i] = from[i];
  return col;
}

/** Fragmentation as a share of each event's tensors: 0 when the rank has none. */
function fragmentationShare(rank) {
  return rank.fragmentation_bytes > 0 && rank.tensor_peak_bytes > 0 ? rank.fragmentation_bytes / rank.tensor_peak_bytes : 0;
}

/**
 * The components of `rank`'s event at position `pos`, as [key, bytes] for
 * those above zero, bottom of the stack first: timelineData()'s keys and
 * raw values at that event, read without building the columns.
 * @returns {[string, number][]}
 */
export function eventParts(rank, pos) {
  if (!rank.events?.[pos]) return [];
  /** @type {[string, number][]} */
  const parts = [];
  let tensors = 0;
  for (const [key] of ALL_PARTS) {
    const b = rank.event_components?.[key]?.[pos] ?? 0;
    tensors += b;
    if (b > 0) parts.push([key, b]);
  }
  if (rank.non_pytorch_bytes > 0) parts.unshift(['non_pytorch', rank.non_pytorch_bytes]);
  const frag = Math.round(tensors * fragmentationShare(rank));
  if (frag > 0) parts.push(['fragmentation', frag]);
  return parts;
}

/** The rank of a page view's result that carries the timeline, or null. */
export function timelineRank(result) {
  return Array.isArray(result?.ranks) ? result.ranks.find((r) => Array.isArray(r?.events)) ?? null : null;
}

/** How many events `rank` keeps. */
export function keptEvents(rank) {
  return Array.isArray(rank?.events) ? rank.events.length : 0;
}

/** The kept events' indices, in order, as a Float64Array. */
export function eventIndices(rank) {
  const events = rank.events ?? [];
  const x = new Float64Array(events.length);
  for (let i = 0; i < x.length; i++) x[i] = events[i].index;
  return x;
}

/**
 * The kept events' times in the step, in seconds (the end of each event's
 * op: t_seconds, as a column of the view or on each event), when the rank
 * gives one for every event and they never go back; else null (the
 * estimate has no step time: no GPU kind).
 * @returns {Float64Array | null}
 */
export function eventSeconds(rank) {
  const n = keptEvents(rank);
  if (!n) return null;
  const col = Array.isArray(rank.t_seconds) && rank.t_seconds.length === n ? rank.t_seconds : null;
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = col ? col[i] : rank.events[i].t_seconds;
    if (typeof v !== 'number' || !Number.isFinite(v) || (i > 0 && v < t[i - 1])) return null;
    t[i] = v;
  }
  return t;
}

/**
 * The timeline's x of each kept event: its time in the step when the rank
 * gives them (eventSeconds), else its index. {x, seconds}.
 * @returns {{x: Float64Array, seconds: boolean}}
 */
export function eventX(rank) {
  const t = eventSeconds(rank);
  return t ? { x: t, seconds: true } : { x: eventIndices(rank), seconds: false };
}

/** The position of `rank`'s peak among its kept events, or -1. */
export function peakPosition(rank) {
  return Array.isArray(rank.events) ? rank.events.findIndex((e) => e.index === rank.peak_event_index) : -1;
}

/** The label of a schedule step on the timeline: "1".."8", "end", "opt". */
export function stepLabel(step) {
  if (step === 9) return 'end';
  if (step === 10) return 'opt';
  return String(step);
}

/** Event positions to list in the chart's table: evenly spaced, plus the peak. */
export function sampleRows(n, peakPos, rows = 24) {
  const out = new Set();
  const step = Math.max(1, Math.ceil(n / rows));
  for (let i = 0; i < n; i += step) out.add(i);
  if (peakPos >= 0) out.add(peakPos);
  return [...out].sort((a, b) => a - b);
}
