// engine-sweep.js — a plan run as a series of short plans, so that the
// worker (engine-worker.js) can report progress and stop between them. The
// engine's plan() is one synchronous call; a sweep gives the same object:
// the C planner still decides every list, check, row and reason, and this
// file only cuts the request into pieces and merges their answers by the
// planner's own rules. See docs/page.md ("Long sweeps").
//
//   1. The probe: the request with global_batch_size 1. No combination is
//      then valid (num_chunks = 1/(mbs*dp*ep) <= 1 < 2*pp), so the planner
//      checks every combination without estimating any, and answers at once
//      with the lists it sweeps (`swept`) — or with the error the whole
//      request gets (a missing input, a bad value, too many combinations).
//   2. The pieces: the outermost list of more than one value (pp, then ep,
//      cp, dp, GPUs, nodes, mbs; a vary plan's varied input), one plan per
//      value. The planner walks combinations with pp outermost, so the
//      pieces in order walk them in the same order as the whole plan.
//   3. The merge: rows concatenated (a vary plan, in value order) or sorted
//      as the planner sorts layouts (headroom, then bubble, then the
//      inputs); the answer chosen by the planner's rule; tried and invalid
//      counts summed; each reason's example from the first piece with one.

/** The inputs a plan sweeps, in the planner's order (core/planner.c D_*). */
const DIMS = [
  'pp_size', 'ep_size', 'cp_size', 'dp', 'total_gpus', 'nodes',
  'micro_batch_size', 'global_batch_size', 'sequence_length',
];
/** Where a layouts plan may be cut: every input but gbs and seq, outermost first. */
const SPLIT_DIMS = DIMS.slice(0, 7);

/**
 * Simulation work a plan may do (core/planner.c MEMEST_MAX_PLAN_WORK): the
 * sum of pp * num_chunks over its estimated rows.
 */
export const MAX_PLAN_WORK = 2 ** 25;

/**
 * @typedef {object} SweepOptions
 * @property {(p: {done: number, total: number, rows: number}) => void} [onProgress]
 *   after each piece: pieces done, pieces in all, rows so far
 * @property {() => boolean} [shouldStop]  asked before each piece; true
 *   ends the sweep with {cancelled: true}
 * @property {() => Promise<void>} [pause]  awaited between pieces (lets a
 *   worker read its messages)
 * @property {number} [maxWork]  MAX_PLAN_WORK unless a test lowers it
 */

/**
 * Runs `request` ({mode, ...inputs}, as engine.plan takes it) in pieces and
 * returns what engine.plan would, or {error}, or {cancelled: true}. A
 * request that cannot be cut (a compare, a list-valued option, gbs or seq
 * given as a list, flag-style names, gbs missing) runs as one plan.
 * @param {{plan: (c: unknown, r: unknown) => any}} engine
 * @param {string|null|undefined} configText
 * @param {Record<string, unknown>} request
 * @param {SweepOptions} [opts]
 * @returns {Promise<object>}
 */
export async function runSweep(engine, configText, request, opts = {}) {
  const { onProgress = () => {}, shouldStop = () => false, pause = async () => {}, maxWork = MAX_PLAN_WORK } = opts;
  if (shouldStop()) return { cancelled: true };
  if (!canSplit(request)) {
    const whole = engine.plan(configText, request);
    onProgress({ done: 1, total: 1, rows: whole.rows?.length ?? 0 });
    return whole;
  }
  const probe = engine.plan(configText, { ...request, global_batch_size: 1 });
  if (probe.error) return probe;
  const cut = splitOf(probe);
  if (!cut) {
    const whole = engine.plan(configText, request);
    onProgress({ done: 1, total: 1, rows: whole.rows?.length ?? 0 });
    return whole;
  }
  const pieces = [];
  let rows = 0;
  let work = 0;
  for (const [i, value] of cut.values.entries()) {
    await pause();
    if (shouldStop()) return { cancelled: true };
    const piece = engine.plan(configText, { ...request, [cut.dim]: value });
    if (piece.error) return piece;
    pieces.push(piece);
    rows += piece.rows.length;
    work += pieceWork(piece);
    if (work > maxWork) return workLimit(maxWork);
    onProgress({ done: i + 1, total: cut.values.length, rows });
  }
  return mergePieces(probe, pieces);
}

/** Whether `request` can be cut into pieces (see runSweep). */
export function canSplit(request) {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return false;
  if ((request.mode ?? 'plan') !== 'plan') return false;
  if (request.global_batch_size === undefined || request.global_batch_size === null) return false;
  for (const [key, value] of Object.entries(request)) {
    if (key.startsWith('-')) return false;
    const list = Array.isArray(value) ? value.length > 1 : typeof value === 'string' && value.includes(',');
    if (list && (!DIMS.includes(key) || key === 'global_batch_size' || key === 'sequence_length')) return false;
  }
  return true;
}

/**
 * The input to cut on and its values, from the probe's `swept`: a vary
 * plan's varied input, else the outermost list of more than one value.
 * Null when there is nothing to cut.
 * @param {any} probe
 * @returns {{dim: string, values: number[]} | null}
 */
export function splitOf(probe) {
  const swept = probe.swept ?? {};
  const dim = probe.mode === 'vary' ? probe.vary : SPLIT_DIMS.find((d) => (swept[d]?.length ?? 0) > 1);
  const values = dim ? swept[dim] : null;
  return Array.isArray(values) && values.length > 1 ? { dim, values } : null;
}

/** A piece's simulation work, as the planner counts it. */
function pieceWork(piece) {
  let work = 0;
  for (const r of piece.rows) {
    if (r.status !== 'INVALID') work += r.pp_size * r.num_chunks;
  }
  return work;
}

function workLimit(maxWork) {
  return {
    error: {
      code: 'limit', field: '', fix: '',
      message: `this plan would simulate more than MEMEST_MAX_PLAN_WORK = ${maxWork} pipeline-rank ` +
        'micro-batches; narrow it: fewer or smaller --pp-size values, a larger --micro-batch-size ' +
        'or a smaller --global-batch-size',
    },
  };
}

/**
 * The planner's order of layouts (core/planner.c by_headroom): most
 * headroom first, then the smaller bubble, then the inputs in D_* order.
 * Bubbles compare as printed (six decimals).
 */
export function byHeadroom(a, b) {
  if (a.headroom_bytes !== b.headroom_bytes) return a.headroom_bytes > b.headroom_bytes ? -1 : 1;
  if (a.bubble_fraction !== b.bubble_fraction) return a.bubble_fraction < b.bubble_fraction ? -1 : 1;
  for (const d of DIMS) {
    const x = a[d] ?? 0;
    const y = b[d] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The whole plan from its pieces (in order) and the probe: what
 * engine.plan() gives for the uncut request.
 * @param {any} probe
 * @param {any[]} pieces
 * @returns {object}
 */
export function mergePieces(probe, pieces) {
  const first = pieces[0];
  const vary = first.mode === 'vary';
  const rows = pieces.flatMap((p) => p.rows);
  if (!vary) rows.sort(byHeadroom);
  const invalid = {};
  const examples = {};
  let tried = 0;
  for (const p of pieces) {
    tried += p.tried;
    for (const [key, n] of Object.entries(p.invalid ?? {})) invalid[key] = (invalid[key] ?? 0) + n;
    for (const [key, text] of Object.entries(p.invalid_examples ?? {})) examples[key] ??= text;
  }
  const withRows = pieces.find((p) => p.rows.length > 0);
  const merged = {
    ...first,
    swept: { ...probe.swept, global_batch_size: first.swept.global_batch_size },
    expert_wgrad_share: withRows ? withRows.expert_wgrad_share : 0,
    tried,
    rows,
    answer: vary ? varyAnswer(rows, first.answer_rule) : rows[0] ?? null,
    invalid,
    invalid_examples: examples,
  };
  return merged;
}

/** A vary plan's answer: the smallest OK value, or the largest for workloads. */
function varyAnswer(rows, rule) {
  const ok = rows.filter((r) => r.status === 'OK' && !('reason' in r));
  if (!ok.length) return null;
  return /largest/.test(String(rule)) ? ok[ok.length - 1] : ok[0];
}
