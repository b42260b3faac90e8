// timeline-data.js — a rank's events (result.ranks[].events) as columns:
// x = event index, then one stacked series per component, which the
// timeline draws (timeline-plot.js); and the components of one event, which
// its readout lists. Pure; the chart (Timeline.jsx, timeline-canvas.js in
// the engine's worker) and the tests use it.

import { ALL_PARTS } from './palette.js';

const GIB = 2 ** 30;

/**
 * Returns { keys, x, raw, series, peakPos, window, total, steps } for `rank`
 * (its events' components either in each event or, from a page view, as
 * one array per component in rank.event_components):
 *   keys   the keys of the components that are ever above zero, bottom
 *          of the stack first: non-PyTorch memory (constant), the tensor
 *          components (ALL_PARTS order), then allocator fragmentation (the
 *          rank's fraction of each event's tensors), so that the top of the
 *          stack at the peak is the rank's grand total;
 *   x      Float64Array of event indices;
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
  const events = rank.events;
  if (!Array.isArray(events) || events.length === 0) return null;
  const n = events.length;
  const x = new Float64Array(n);
  const steps = [];
  let peakPos = -1;
  for (let i = 0; i < n; i++) {
    const e = events[i];
    x[i] = e.index;
    if (e.index === rank.peak_event_index) peakPos = i;
    if (i === 0 || e.step !== events[i - 1].step) steps.push({ pos: i, step: e.step });
  }
  // Only the components that are ever above zero get a column.
  const given = rank.event_components;
  const keys = [];
  const raw = [];
  const tensors = new Float64Array(n);
  for (const [key] of ALL_PARTS) {
    const col = column(events, given, key);
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
    raw,
    series: stacked.reverse(),
    peakPos,
    window: n < rank.events_total,
    total: rank.events_total,
    steps,
  };
}

/**
 * Component `key`'s bytes at event `i`: from the page view's column for it
 * (`given`, rank.event_components) when there is one, else the event's own.
 */
function bytesAt(events, given, key, i) {
  const from = given?.[key];
  return (from ? from[i] : events[i].components?.[key]) ?? 0;
}

/** Fragmentation as a share of each event's tensors: 0 when the rank has none. */
function fragmentationShare(rank) {
  return rank.fragmentation_bytes > 0 && rank.tensor_peak_bytes > 0 ? rank.fragmentation_bytes / rank.tensor_peak_bytes : 0;
}

/** Component `key`'s bytes at each event (bytesAt), as one column. */
function column(events, given, key) {
  const from = given?.[key];
  if (Array.isArray(from) && from.length === events.length) return new Float64Array(from);
  return Float64Array.from(events, (_, i) => bytesAt(events, given, key, i));
}

/**
 * The components of `rank`'s event at position `pos`, as [key, bytes] for
 * those above zero, bottom of the stack first: timelineData()'s keys and
 * raw values at that event, read without building the columns.
 * @returns {[string, number][]}
 */
export function eventParts(rank, pos) {
  const events = rank.events;
  if (!events?.[pos]) return [];
  /** @type {[string, number][]} */
  const parts = [];
  let tensors = 0;
  for (const [key] of ALL_PARTS) {
    const b = bytesAt(events, rank.event_components, key, pos);
    tensors += b;
    if (b > 0) parts.push([key, b]);
  }
  if (rank.non_pytorch_bytes > 0) parts.unshift(['non_pytorch', rank.non_pytorch_bytes]);
  const frag = Math.round(tensors * fragmentationShare(rank));
  if (frag > 0) parts.push(['fragmentation', frag]);
  return parts;
}

/**
 * The rank of a page view's result that carries the timeline (its events),
 * or null.
 */
export function timelineRank(result) {
  return Array.isArray(result?.ranks) ? result.ranks.find((r) => Array.isArray(r.events)) ?? null : null;
}

/**
 * What a drawing of `rank`'s timeline with `capacity` shows, as a short
 * text: the page compares the drawing the canvas reports with the rank it
 * renders (Timeline.jsx, data-drawn and data-shows).
 */
export function timelineSignature(rank, capacity) {
  const events = rank.events ?? [];
  return `${rank.pp_rank}:${events.length}:${events[0]?.index ?? -1}:${rank.events_total}:${rank.peak_event_index}:${rank.peak_bytes}:${capacity}`;
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
