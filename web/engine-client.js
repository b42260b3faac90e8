// engine-client.js — the page's side of engine-worker.js: the engine's
// methods as promises, matched to answers by request id, so that the page
// never blocks on an estimate. For inputs that change faster than estimates
// finish (a slider), "latest wins" keeps at most one estimate queued behind
// the running one; a queued estimate that a newer one replaces resolves to
// {superseded: true} without running. A sweep (a plan in pieces, see
// engine-sweep.js) reports progress and can be stopped. See docs/wasm.md;
// sweeps: docs/page.md ("Long sweeps").
import { normalizeParams } from './engine.js';

/** @typedef {import('./engine.js').Params} Params */
/** @typedef {import('./engine.js').Problem} Problem */
/** @typedef {{superseded: true}} Superseded */

/**
 * @typedef {object} SweepOptions
 * @property {(p: {done: number, total: number, rows: number}) => void} [onProgress]
 *   called after each piece of the sweep
 * @property {AbortSignal} [signal]  aborting it stops the sweep before its
 *   next piece; the promise then resolves to {cancelled: true}
 */

/**
 * @typedef {object} ClientOptions
 * @property {any} [worker]  a started Worker (browser) or worker_threads Worker
 *   running engine-worker.js; by default one is started next to this file
 * @property {boolean} [latestWins]  the default for estimate(); false
 * @property {{moduleUrl?: string, wasmUrl?: string}} [engine]  createEngine
 *   options for the worker, as absolute URLs
 */

/**
 * @typedef {object} EngineClient
 * @property {string} version
 * @property {(configText: string|null|undefined, params: Params, opts?: {latestWins?: boolean, view?: import('./engine.js').View}) => Promise<object>} estimate
 *   (`view`: one page view in one call, see engine.js)
 * @property {(configText: string|null|undefined, params: Params) => Promise<Problem[]>} validate
 * @property {() => Promise<number>} heapBytes
 * @property {() => Promise<import('./engine.js').Presets>} presets
 * @property {(name: string) => Promise<string|null>} modelConfig
 * @property {() => Promise<import('./engine.js').ParamInfo[]>} parameters
 * @property {() => Promise<import('./engine.js').Names>} names
 * @property {(configText: string|null|undefined, request: import('./engine.js').PlanRequest) => Promise<object>} plan
 * @property {(configText: string|null|undefined, request: import('./engine.js').PlanRequest, opts?: SweepOptions) => Promise<object>} sweep
 *   what plan() answers, computed in pieces with progress; or {cancelled: true}
 * @property {(configText: string|null|undefined, params: Params, factors: number[], opts?: {signal?: AbortSignal}) => Promise<object>} routingCurve
 *   {factors, peak_bytes}: the peak at each routing factor, computed in the
 *   worker in small pieces so that estimates asked meanwhile go first; or
 *   {error}, or {cancelled: true} once the signal aborts
 * @property {(bytes: ArrayBuffer|Uint8Array, points?: number) => Promise<object>} snapshot
 *   a memory snapshot read in the worker (the bytes are copied to it)
 * @property {(text: string) => Promise<object>} runLog
 * @property {(rank: number, ppSize: number, totalGpus: number) => Promise<number>} ppRankOf
 * @property {(name: string) => Promise<number>} rankOfName
 * @property {(request: import('./engine.js').TrainerFilesRequest) => Promise<object>} readTrainerFiles
 *   the run's inputs from the trainer's files, read in the worker
 * @property {(id: string) => Promise<string>} hubIdProblem  why an id is not a hub id, or ''
 * @property {(text: string) => Promise<{id: string} | {problem: string}>} hubIdRead  the hub id a text names (an id or its page's address), or why none
 * @property {(text: string) => Promise<string>} configProblem  why a config is not one memest reads, or ''
 * @property {() => void} close  stops the worker; pending calls reject
 */

const isNode =
  typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

/**
 * Starts the default worker.
 * @returns {Promise<any>}
 */
async function startWorker() {
  const url = new URL('./engine-worker.js', import.meta.url);
  if (isNode) {
    const name = 'node:worker_threads';
    const { Worker } = await import(/* @vite-ignore */ name);
    return new Worker(url);
  }
  return new Worker(url, { type: 'module' });
}

/**
 * Starts (or adopts) a worker and resolves once its engine is ready.
 * @param {ClientOptions} [options]
 * @returns {Promise<EngineClient>}
 */
export async function createEngineClient(options = {}) {
  const worker = options.worker ?? (await startWorker());
  /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void, progress?: (p: any) => void}>} */
  const pending = new Map();
  let nextId = 1;
  /** @type {Error | null} */
  let dead = null;

  /** @param {any} msg */
  const onMessage = (msg) => {
    const call = pending.get(msg?.id);
    if (!call) return;
    if ('progress' in msg) {
      call.progress?.(msg.progress);
      return;
    }
    pending.delete(msg.id);
    if ('failure' in msg) call.reject(new Error(`memest worker: ${msg.failure}`));
    else if ('json' in msg) call.resolve(JSON.parse(msg.json));
    else call.resolve(msg.value);
  };
  /** @param {Error} err */
  const fail = (err) => {
    dead ??= err;
    for (const call of pending.values()) call.reject(dead);
    pending.clear();
  };
  /** @param {any} e */
  const onError = (e) => fail(new Error(`memest worker: ${e?.message || 'it failed to start or stopped'}`));
  if (typeof worker.on === 'function') {
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', () => fail(new Error('memest worker: stopped')));
  } else {
    worker.addEventListener('message', (/** @type {MessageEvent} */ e) => onMessage(e.data));
    worker.addEventListener('error', onError);
  }

  /**
   * Posts one request; resolves with its answer.
   * @param {string} method
   * @param {unknown[]} args
   * @param {(p: any) => void} [progress]  called with the call's progress messages
   * @param {(id: number) => void} [started]  told the request's id once it is posted
   * @returns {Promise<any>}
   */
  function call(method, args, progress, started) {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, progress });
      started?.(id);
      try {
        worker.postMessage({ id, method, args });
      } catch (e) {
        // Arguments that cannot be cloned (functions, say) are bad input.
        pending.delete(id);
        const message = `the arguments of ${method} must be plain data`;
        resolve(method === 'validate'
          ? [{ code: 'value', message, field: '', fix: '' }]
          : { error: { code: 'value', message, field: '', fix: '' } });
      }
    });
  }

  // Latest wins: one estimate running, at most one waiting behind it.
  /** @type {Promise<void> | null} */
  let running = null;
  /** @type {{args: unknown[], resolve: (v: any) => void, reject: (e: Error) => void} | null} */
  let waiting = null;
  function pump() {
    if (running || !waiting) return;
    const job = waiting;
    waiting = null;
    running = call('estimate', job.args)
      .then(job.resolve, job.reject)
      .finally(() => {
        running = null;
        pump();
      });
  }

  /** @param {unknown} configText */
  const config = (configText) => (typeof configText === 'function' || typeof configText === 'symbol' ? {} : configText);

  let version;
  try {
    ({ version } = await call('init', [options.engine ?? {}]));
  } catch (e) {
    if (!options.worker) worker.terminate();
    throw e;
  }
  return {
    version,
    estimate(configText, params, opts = {}) {
      const args = [config(configText), normalizeParams(params)];
      if (opts.view) {
        args.push({
          suggestions: opts.view.suggestions === true, timeline_window: opts.view.timeline_window ?? 0,
          every_rank: opts.view.every_rank === true, timeline_columns: opts.view.timeline_columns === true,
        });
      }
      if (!(opts.latestWins ?? options.latestWins ?? false)) return call('estimate', args);
      return new Promise((resolve, reject) => {
        if (waiting) waiting.resolve({ superseded: true });
        waiting = { args, resolve, reject };
        pump();
      });
    },
    validate: (configText, params) => call('validate', [config(configText), normalizeParams(params)]),
    heapBytes: () => call('heapBytes', []),
    presets: () => call('presets', []),
    modelConfig: (name) => call('modelConfig', [typeof name === 'string' ? name : null]),
    parameters: () => call('parameters', []),
    names: () => call('names', []),
    plan: (configText, request) => call('plan', [config(configText), normalizeParams(request, true)]),
    snapshot: (bytes, points) => call('snapshot', [bytes, points]),
    runLog: (text) => call('runLog', [text]),
    ppRankOf: (rank, ppSize, totalGpus) => call('ppRankOf', [rank, ppSize, totalGpus]),
    rankOfName: (name) => call('rankOfName', [typeof name === 'string' ? name : null]),
    readTrainerFiles: (request) => call('readTrainerFiles', [request]),
    hubIdProblem: (id) => call('hubIdProblem', [typeof id === 'string' ? id : null]),
    hubIdRead: (text) => call('hubIdRead', [typeof text === 'string' ? text : null]),
    configProblem: (text) => call('configProblem', [typeof text === 'string' ? text : null]),
    sweep(configText, request, opts = {}) {
      const { signal, onProgress } = opts;
      if (signal?.aborted) return Promise.resolve({ cancelled: true });
      /** @type {number} */
      let id = 0;
      const cancel = () => {
        if (id) call('cancel', [id]).catch(() => {});
      };
      signal?.addEventListener('abort', cancel, { once: true });
      return call('sweep', [config(configText), normalizeParams(request, true)], onProgress, (n) => { id = n; })
        .finally(() => signal?.removeEventListener('abort', cancel));
    },
    routingCurve(configText, params, factors, opts = {}) {
      const { signal } = opts;
      if (signal?.aborted) return Promise.resolve({ cancelled: true });
      /** @type {number} */
      let id = 0;
      const cancel = () => {
        if (id) call('cancel', [id]).catch(() => {});
      };
      signal?.addEventListener('abort', cancel, { once: true });
      const list = Array.isArray(factors) ? factors.slice(0, 64) : [];
      return call('routingCurve', [config(configText), normalizeParams(params), list], undefined, (n) => { id = n; })
        .finally(() => signal?.removeEventListener('abort', cancel));
    },
    close() {
      fail(new Error('memest worker: closed'));
      worker.terminate();
    },
  };
}
