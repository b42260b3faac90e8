// engine-worker.js — runs one engine (engine.js) off the page's thread, in a
// module Web Worker or a Node worker thread. It owns only the message
// protocol that engine-client.js speaks:
//   in:  {id, method: 'init', args: [options]}, then {id, method, args}
//   out: {id, value}, {id, json: text} (an estimate: its answer as JSON
//        text, which posts in a copy where a structured clone of the
//        object would walk every timeline event twice) or
//        {id, failure: message}; a sweep also sends
//        {id, progress: {done, total, rows}} after each of its pieces
// A routing curve (routingCurve: peaks at a list of routing factors) runs
// in pieces of CURVE_PIECE factors the same way, so that an estimate asked
// for meanwhile (a slider) waits for one piece at most.
// Calls are answered in the order they arrive, except that a sweep
// (engine-sweep.js) yields between its pieces: calls that arrive meanwhile
// are answered between them, and {method: 'cancel', args: [sweepId]} stops
// it before its next piece. See docs/wasm.md; sweeps: docs/page.md
// ("Long sweeps").
import { createEngine } from './engine.js';
import { runSweep } from './engine-sweep.js';

/** @typedef {{id: number, method: string, args?: unknown[]}} Request */

const METHODS = new Set(['validate', 'heapBytes', 'presets', 'modelConfig', 'parameters', 'names', 'plan',
  'snapshot', 'runLog', 'ppRankOf', 'rankOfName', 'readTrainerFiles', 'hubIdProblem', 'hubIdRead', 'configProblem']);

/** @type {Promise<import('./engine.js').Engine> | null} */
let ready = null;

/** Routing factors estimated between two looks at the message queue. */
const CURVE_PIECE = 2;

/** Sweeps and curves running, by request id: true once cancelled. */
const sweeps = new Map();

/**
 * Lets the worker read the messages that arrived while a piece ran. A
 * message on a channel is not throttled as a chain of setTimeout(0) is.
 * @returns {Promise<void>}
 */
function pause() {
  const scope = /** @type {any} */ (globalThis);
  if (typeof scope.setImmediate === 'function') return new Promise((resolve) => scope.setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Runs a sweep, posting its progress, unless it is cancelled.
 * @param {import('./engine.js').Engine} engine
 * @param {number} id
 * @param {unknown[]} args  [configText, request]
 * @param {(m: unknown) => void} post
 */
async function sweep(engine, id, args, post) {
  sweeps.set(id, false);
  try {
    const value = await runSweep(engine, /** @type {any} */ (args[0]), /** @type {any} */ (args[1]), {
      onProgress: (progress) => post({ id, progress }),
      shouldStop: () => sweeps.get(id) === true,
      pause,
    });
    post({ id, value });
  } finally {
    sweeps.delete(id);
  }
}

/**
 * Computes a routing curve in pieces, unless it is cancelled:
 * {factors, peak_bytes}, the engine's {error}, or {cancelled: true}.
 * @param {import('./engine.js').Engine} engine
 * @param {number} id
 * @param {unknown[]} args  [configText, params, factors]
 * @param {(m: unknown) => void} post
 */
async function curve(engine, id, args, post) {
  sweeps.set(id, false);
  try {
    const factors = Array.isArray(args[2]) ? args[2] : [];
    /** @type {number[]} */
    const peaks = [];
    for (let i = 0; i < factors.length; i += CURVE_PIECE) {
      if (i > 0) await pause();
      if (sweeps.get(id) === true) {
        post({ id, value: { cancelled: true } });
        return;
      }
      const piece = /** @type {any} */ (engine.routingPeaks(/** @type {any} */ (args[0]), /** @type {any} */ (args[1]),
        factors.slice(i, i + CURVE_PIECE)));
      if (piece.error) {
        post({ id, value: piece });
        return;
      }
      peaks.push(...piece.peak_bytes);
    }
    post({ id, value: { factors, peak_bytes: peaks } });
  } finally {
    sweeps.delete(id);
  }
}

/**
 * Answers one request through post.
 * @param {Request} req
 * @param {(m: unknown) => void} post
 */
async function handle(req, post) {
  const { id, method } = req ?? {};
  const args = Array.isArray(req?.args) ? req.args : [];
  try {
    if (method === 'init') {
      ready ??= createEngine(/** @type {object} */ (args[0] ?? {}));
      post({ id, value: { version: (await ready).version } });
      return;
    }
    if (!ready) throw new Error('the engine was not initialised');
    const engine = await ready;
    if (method === 'sweep') {
      await sweep(engine, id, args, post);
      return;
    }
    if (method === 'routingCurve') {
      await curve(engine, id, args, post);
      return;
    }
    if (method === 'cancel') {
      const running = sweeps.has(args[0]);
      if (running) sweeps.set(args[0], true);
      post({ id, value: running });
      return;
    }
    if (method === 'estimate') {
      post({ id, json: engine.estimateJson(/** @type {any} */ (args[0]), /** @type {any} */ (args[1]), /** @type {any} */ (args[2])) });
      return;
    }
    if (!METHODS.has(method)) throw new Error(`unknown method ${String(method)}`);
    const fn = /** @type {(...a: unknown[]) => unknown} */ (engine[/** @type {keyof typeof engine} */ (method)]);
    post({ id, value: fn(...args) });
  } catch (e) {
    post({ id, failure: e instanceof Error ? e.message : String(e) });
  }
}

// In a browser the listener must be in place before the first message
// arrives, so it is attached synchronously; Node queues messages on the
// parent port until a listener is attached.
const scope = /** @type {any} */ (globalThis);
if (typeof scope.WorkerGlobalScope === 'function' && scope instanceof scope.WorkerGlobalScope) {
  scope.addEventListener('message', (/** @type {MessageEvent} */ e) => handle(e.data, (m) => scope.postMessage(m)));
} else {
  const name = 'node:worker_threads';
  const { parentPort } = await import(/* @vite-ignore */ name);
  if (!parentPort) throw new Error('engine-worker.js must run in a worker');
  parentPort.on('message', (/** @type {Request} */ m) => handle(m, (x) => parentPort.postMessage(x)));
}
