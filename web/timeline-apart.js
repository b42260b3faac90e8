// timeline-apart.js — a page view's answer with its timeline apart
// (view.timeline_apart): the engine's text is the result's JSON, a newline,
// then the shown rank's events as memest_result_timeline_json prints them.
// The page parses the result at once and the events only when something
// first reads them (the pointer, the keys, the numbers' table, a measured
// run), so that a slider's move parses a few KB instead of the 90 KB to
// 1.3 MB of its timeline. The shown rank carries events_kept, events_first
// and peak_event_detail meanwhile, which is all the chart needs at rest
// (timeline-data.js); the worker that draws it parses the columns alone.
// See docs/result-json.md ("One page view") and docs/wasm.md.

/**
 * The two parts of an answer: {json, timeline}, timeline null when the
 * text is one JSON text (an error, or a view without timeline_apart).
 * @param {string} text
 * @returns {{json: string, timeline: string | null}}
 */
export function splitAnswer(text) {
  const cut = text.indexOf('\n');
  return cut < 0 ? { json: text, timeline: null } : { json: text.slice(0, cut), timeline: text.slice(cut + 1) };
}

/**
 * Gives the rank of `result` whose events were printed apart (the one with
 * events_kept) its `events`, and with timeline_columns its
 * `event_components` and `event_steps`, from `timeline`: each parsed on its
 * first read when `lazy`, else now. The columns parse apart from the
 * events, so that what draws the chart (timelineData) reads no event
 * object. Returns `result`.
 * @param {any} result  the parsed result
 * @param {string | null | undefined} timeline  the answer's second part
 * @param {{lazy?: boolean}} [options]
 */
export function attachTimeline(result, timeline, { lazy = true } = {}) {
  if (typeof timeline !== 'string' || !Array.isArray(result?.ranks)) return result;
  const rank = result.ranks.find((r) => typeof r?.events_kept === 'number');
  if (!rank) return result;
  // The columns come last, from their key on: a quote inside a JSON string
  // is escaped, so the key's text can be nothing else.
  const cut = timeline.lastIndexOf('"event_components":');
  /** @type {any} */
  let whole = null;
  /** @type {any} */
  let tail = null;
  const all = () => (whole ??= JSON.parse(timeline));
  // The columns alone, unless the whole text is parsed already.
  const columns = () => (tail ??= whole ?? JSON.parse(`{${timeline.slice(cut)}`));
  /** @type {Record<string, () => any>} */
  const parts = cut < 0 ? { events: all } : { events: all, event_components: columns, event_steps: columns };
  for (const [key, read] of Object.entries(parts)) {
    const settle = () => {
      const value = read()[key];
      Object.defineProperty(rank, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    };
    if (lazy) Object.defineProperty(rank, key, { get: settle, enumerable: true, configurable: true });
    else settle();
  }
  return result;
}
