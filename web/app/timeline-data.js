// timeline-data.js — a rank's events (result.ranks[].events, or a page
// view's columns of them with the rank's summary of its events, which need
// no event read: timeline-apart.js) as columns:
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
  const n = keptEvents(rank);
  if (n === 0) return null;
  // A page view's columns and steps, with the rank's summary of its
  // events, draw it without reading an event (timeline-apart.js).
  const given = rank.event_components;
  const fromColumns = typeof rank.events_first === 'number' && Array.isArray(rank.event_steps) &&
    rank.event_steps.length === n && given && ALL_PARTS.every(([key]) => Array.isArray(given[key]) && given[key].length === n);
  const events = fromColumns ? null : rank.events;
  if (!fromColumns && !Array.isArray(events)) return null;
  const x = eventIndices(rank);
  const stepOf = fromColumns ? (i) => rank.event_steps[i] : (i) => events[i].step;
  const steps = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || stepOf(i) !== stepOf(i - 1)) steps.push({ pos: i, step: stepOf(i) });
  }
  const peakPos = peakPosition(rank);
  // Only the components that are ever above zero get a column.
  const keys = [];
  const raw = [];
  const tensors = new Float64Array(n);
  for (const [key] of ALL_PARTS) {
    const col = column(n, events, given, key);
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
 * Component `key`'s bytes at `event`, at position `i`: from the page
 * view's column for it (`given`, rank.event_components) when there is
 * one, else the event's own.
 */
function bytesAt(event, given, key, i) {
  const from = given?.[key];
  return (from ? from[i] : event.components?.[key]) ?? 0;
}

/** Fragmentation as a share of each event's tensors: 0 when the rank has none. */
function fragmentationShare(rank) {
  return rank.fragmentation_bytes > 0 && rank.tensor_peak_bytes > 0 ? rank.fragmentation_bytes / rank.tensor_peak_bytes : 0;
}

/**
 * Component `key`'s bytes at each of the `n` events, as one column: the
 * page view's column when it has one of that length (then `events` is not
 * read, and may be null), else bytesAt each event.
 */
function column(n, events, given, key) {
  const from = given?.[key];
  if (Array.isArray(from) && from.length === n) return new Float64Array(from);
  return Float64Array.from(events, (e, i) => bytesAt(e, given, key, i));
}

/**
 * The components of `rank`'s event at position `pos`, as [key, bytes] for
 * those above zero, bottom of the stack first: timelineData()'s keys and
 * raw values at that event, read without building the columns.
 * @returns {[string, number][]}
 */
export function eventParts(rank, pos) {
  const event = eventOf(rank, pos);
  if (!event) return [];
  // The peak's detail has its own components; other events may have theirs
  // in the rank's columns.
  const given = event === rank.peak_event_detail ? null : rank.event_components;
  /** @type {[string, number][]} */
  const parts = [];
  let tensors = 0;
  for (const [key] of ALL_PARTS) {
    const b = bytesAt(event, given, key, pos);
    tensors += b;
    if (b > 0) parts.push([key, b]);
  }
  if (rank.non_pytorch_bytes > 0) parts.unshift(['non_pytorch', rank.non_pytorch_bytes]);
  const frag = Math.round(tensors * fragmentationShare(rank));
  if (frag > 0) parts.push(['fragmentation', frag]);
  return parts;
}

/**
 * The rank of a page view's result that carries the timeline (its events,
 * or their count when they came apart: timeline-apart.js), or null.
 */
export function timelineRank(result) {
  return Array.isArray(result?.ranks) ? result.ranks.find(keepsTimeline) ?? null : null;
}

/** Whether `rank` keeps a timeline, without reading events that came apart. */
function keepsTimeline(rank) {
  return typeof rank?.events_kept === 'number' || Array.isArray(rank?.events);
}

// What the chart shows at rest is read from the rank's summary of its
// events when they came apart (events_kept, events_first,
// peak_event_detail), so that a slider's move never parses them; the
// engine keeps the events of a timeline one after another from
// events_first.

/** How many events `rank` keeps. */
export function keptEvents(rank) {
  if (typeof rank.events_kept === 'number') return rank.events_kept;
  return Array.isArray(rank.events) ? rank.events.length : 0;
}

/** The index of `rank`'s first kept event, or -1 when it keeps none. */
function firstEvent(rank) {
  if (typeof rank.events_first === 'number') return keptEvents(rank) > 0 ? rank.events_first : -1;
  return rank.events?.[0]?.index ?? -1;
}

/** The kept events' indices, in order, as a Float64Array. */
export function eventIndices(rank) {
  if (typeof rank.events_first !== 'number') return Float64Array.from(rank.events ?? [], (e) => e.index);
  const x = new Float64Array(keptEvents(rank));
  for (let i = 0; i < x.length; i++) x[i] = rank.events_first + i;
  return x;
}

/** The position of `rank`'s peak among its kept events, or -1. */
export function peakPosition(rank) {
  if (typeof rank.events_first === 'number') {
    const at = rank.peak_event_index - rank.events_first;
    return at >= 0 && at < keptEvents(rank) ? at : -1;
  }
  return Array.isArray(rank.events) ? rank.events.findIndex((e) => e.index === rank.peak_event_index) : -1;
}

/** `rank`'s kept event at position `pos` (the peak's without reading the others), or undefined. */
export function eventOf(rank, pos) {
  if (rank.peak_event_detail && pos === peakPosition(rank)) return rank.peak_event_detail;
  return rank.events?.[pos];
}

/**
 * What a drawing of `rank`'s timeline with `capacity` shows, as a short
 * text: the page compares the drawing the canvas reports with the rank it
 * renders (Timeline.jsx, data-drawn and data-shows).
 */
export function timelineSignature(rank, capacity) {
  return `${rank.pp_rank}:${keptEvents(rank)}:${firstEvent(rank)}:${rank.events_total}:${rank.peak_event_index}:${rank.peak_bytes}:${capacity}`;
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
