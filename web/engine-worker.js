// engine-worker.js — runs one engine (engine.js) off the page's thread, in a
// module Web Worker or a Node worker thread. It owns only the message
// protocol that engine-client.js speaks:
//   in:  {id, method: 'init', args: [options]}, then {id, method, args}
//   out: {id, value} or {id, failure: message}
// Calls are answered in the order they arrive. See docs/wasm.md.
import { createEngine } from './engine.js';

/** @typedef {{id: number, method: string, args?: unknown[]}} Request */

const METHODS = new Set(['estimate', 'validate', 'heapBytes', 'presets', 'modelConfig', 'parameters', 'plan']);

/** @type {Promise<import('./engine.js').Engine> | null} */
let ready = null;

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
