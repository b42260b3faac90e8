// engine-sweep.js — a plan run in pieces, so that the worker
// (engine-worker.js) can report progress and stop between them. The C core
// does the planning (memest_plan_begin / _estimate_rows / _finish, through
// engine.planBegin): every list, check, limit, row, sort and answer is its.
// This file only loops over ranges of rows and reports after each. See
// docs/page.md ("Long sweeps").

/** Rows estimated per piece: short enough that the worker answers calls
 * between pieces within a frame or two, long enough that a piece costs
 * more than the call. */
export const PIECE_ROWS = 8;

/**
 * @typedef {object} SweepOptions
 * @property {(p: {done: number, total: number, rows: number}) => void} [onProgress]
 *   after each piece: pieces done, pieces in all, rows gone through so far
 * @property {() => boolean} [shouldStop]  asked before each piece; true
 *   ends the sweep with {cancelled: true}
 * @property {() => Promise<void>} [pause]  awaited between pieces (lets a
 *   worker read its messages)
 * @property {number} [pieceRows]  rows per piece, PIECE_ROWS unless a test
 *   changes it
 */

/**
 * Runs `request` ({mode, ...inputs}, as engine.plan takes it) in pieces and
 * returns what engine.plan would, or {error}, or {cancelled: true}.
 * @param {{planBegin: (c: any, r: any) => any}} engine
 * @param {string|null|undefined} configText
 * @param {Record<string, unknown>} request
 * @param {SweepOptions} [opts]
 * @returns {Promise<object>}
 */
export async function runSweep(engine, configText, request, opts = {}) {
  const { onProgress = () => {}, shouldStop = () => false, pause = async () => {} } = opts;
  const step = Math.max(1, Math.floor(opts.pieceRows ?? PIECE_ROWS));
  if (shouldStop()) return { cancelled: true };
  const plan = engine.planBegin(configText, request);
  if ('error' in plan) return plan;
  try {
    const total = Math.max(1, Math.ceil(plan.rows / step));
    for (let done = 0; done < total; done++) {
      await pause();
      if (shouldStop()) return { cancelled: true };
      const from = done * step;
      const to = Math.min(plan.rows, from + step);
      const failed = plan.estimate(from, to);
      if (failed) return failed;
      onProgress({ done: done + 1, total, rows: to });
    }
    return plan.finish();
  } finally {
    plan.free();
  }
}
