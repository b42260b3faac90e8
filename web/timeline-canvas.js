// timeline-canvas.js — the page's timeline canvas as the engine's worker
// holds it: the page transfers its canvas once (an OffscreenCanvas), and
// every page view estimate that asks for it (view.draw_timeline) is drawn
// here, right after its answer is posted, while the page renders the
// answer, so that a slider's chart costs the page's thread nothing. Each
// drawing is reported with timelineSignature() of what it shows. The look
// (size, pixel ratio, scheme, zoom) comes from the page; the drawing is
// timeline-plot.js's, the data timeline-data.js's. See docs/wasm.md ("The
// timeline's canvas").

import { timelineData, timelineRank, timelineSignature } from './app/timeline-data.js';
import { paintTimeline } from './app/timeline-plot.js';
import { attachTimeline } from './timeline-apart.js';

/**
 * @typedef {object} TimelineLook
 * @property {number} width   CSS px
 * @property {number} height  CSS px
 * @property {number} dpr     device pixels per CSS px
 * @property {'light'|'dark'} scheme
 * @property {[number, number] | null} zoom  the event range shown, or null for all
 */

/**
 * One worker's timeline canvas: what it draws and where.
 * Each method returns the signature of what it drew, or null when it drew
 * nothing (no canvas, or no timeline kept).
 * `show(answer)` draws an estimate's answer as the worker posts it
 * ({json, timeline}: its text, and its events apart when they came apart,
 * timeline-apart.js); an answer drawn before (one the worker kept and is
 * asked to draw again) is not parsed and shaped again.
 * @returns {{attach: (canvas: any, look: Partial<TimelineLook>) => string | null, release: () => void,
 *   look: (look: Partial<TimelineLook>) => string | null,
 *   show: (answer: {json: string, timeline?: string | null}) => string | null}}
 */
export function createTimelineCanvas() {
  /** @type {any} */
  let canvas = null;
  /** @type {TimelineLook} */
  const look = { width: 600, height: 260, dpr: 1, scheme: 'light', zoom: null };
  /** The last page view's shown rank, shaped, and its GPU's capacity. */
  let shown = { data: /** @type {any} */ (null), capacity: 0, signature: /** @type {string | null} */ (null) };
  /** What each answer drawn shows, while the answer is kept elsewhere. */
  const shaped = new WeakMap();

  /** Redraws what is kept: its signature, or null. */
  function draw() {
    if (!canvas || !shown.data) return null;
    return paintTimeline(canvas, look, shown.data, shown.capacity) ? shown.signature : null;
  }

  /** Takes the valid fields of `l` into the look. */
  function take(l) {
    if (!l || typeof l !== 'object') return;
    for (const k of /** @type {const} */ (['width', 'height', 'dpr'])) {
      const v = l[k];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 16384) look[k] = v;
    }
    if (l.scheme === 'light' || l.scheme === 'dark') look.scheme = l.scheme;
    if ('zoom' in l) {
      const z = l.zoom;
      look.zoom = Array.isArray(z) && z.length === 2 && z.every((v) => Number.isFinite(v)) && z[1] > z[0] ? [z[0], z[1]] : null;
    }
  }

  return {
    attach(c, l) {
      canvas = c && typeof c.getContext === 'function' ? c : null;
      take(l);
      return draw();
    },
    release() {
      canvas = null;
    },
    look(l) {
      take(l);
      return draw();
    },
    show(answer) {
      // Only a result with a timeline replaces the one kept: an error
      // leaves the last good estimate on the page, and so here. The
      // drawing reads the events' columns and steps, not the events.
      let next = shaped.get(answer);
      if (!next) {
        let result;
        try {
          result = attachTimeline(JSON.parse(answer.json), answer.timeline ?? null);
        } catch {
          return null;
        }
        const rank = timelineRank(result);
        if (!rank) return null;
        const capacity = result.gpu_capacity_bytes ?? 0;
        next = { data: timelineData(rank), capacity, signature: timelineSignature(rank, capacity) };
        shaped.set(answer, next);
      }
      shown = next;
      look.zoom = null;
      return draw();
    },
  };
}
