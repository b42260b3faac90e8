// engine.js — the JavaScript API of the WebAssembly engine (public/memest.js
// and public/memest.wasm, built by scripts/build-wasm.sh from the same C core
// as the CLI). It owns moving strings in and out of the wasm heap and turning
// any argument into a result or an {error}; every decision about the inputs
// is the core's. No framework; runs in browsers, workers and Node 20.
// See docs/wasm.md.

/**
 * @typedef {object} Problem  One problem with the inputs (see docs/result-json.md).
 * @property {string} code     a name from memest_code_name(): "missing", "layout", ...
 *                             or "internal" when the engine itself failed
 * @property {string} [reason] why a layout or range check refused the inputs, a name from
 *                             memest_reason_name(): "pp_layers", "chunks_min", ...; "none"
 *                             for other problems
 * @property {string} message  one sentence naming the problem and the fix
 * @property {string} field    the snake_case parameter or config key, or ""
 * @property {string} fix      a nearer valid input as "name=value[,name=value]", or ""
 * @property {number} [line]   1-based line in the config, for code "json"
 * @property {number} [column] 1-based column, likewise
 */

/** @typedef {{error: Problem}} ErrorResult */

/**
 * Inputs by snake_case name (pp_size, ep_size, ..., model). Strings (the
 * text the user typed or the link held) pass to the core as they are,
 * numbers as their text (String(n)), booleans as "true"/"false": the text
 * a CLI flag would carry; null or undefined counts as not given.
 * @typedef {Record<string, unknown>} Params
 */

/**
 * A plan request: the inputs of `memest plan` / `memest compare` by
 * snake_case name (pp_size, ..., dp, nodes, gpus_per_node, vary, top),
 * numeric ones as a number or a list of them, plus mode: "plan" (the
 * default) or "compare".
 * @typedef {Record<string, unknown>} PlanRequest
 */

/**
 * @typedef {object} ParamInfo
 * @property {string} name      snake_case, e.g. "pp_size"
 * @property {string} flag      CLI flag, e.g. "--pp-size"
 * @property {string} kind      "int" | "number" | "enum" | "bool" | "text"
 * @property {string} meaning
 * @property {string} choose
 * @property {string[]} choices enum values
 * @property {string} default   default text for optional ones, "" if required
 * @property {boolean} required
 * @property {string} label     what a form calls it, e.g. "Pipeline parallel (pp)"
 * @property {string} short_name the same in a sentence or a table, e.g. "pp"
 * @property {number} [min]     accepted range of an "int" or "number"
 * @property {number} [max]
 * @property {string} [limit]   the bounds.h name of max, e.g. "MEMEST_MAX_PP"
 * @property {string} example   the worked example's value ("4"), or "" where the default serves
 * @property {string[]} choice_titles  an enum's values as a form titles them, in the order of
 *                             choices (["AdamW", "Muon"]); [] for others
 * @property {{min: number, max: number, step: number, log2: boolean}} [slider]
 *   a form's slider for the input (its range is the slider's only)
 */

/**
 * The names the core writes once: enum values in enum order, the memory
 * components with the labels the reports print, the reasons problems carry
 * and the headroom percentage below which a run is TIGHT.
 * @typedef {object} Names
 * @property {string[]} optimizer     e.g. ["adamw", "muon"]
 * @property {string[]} sharding
 * @property {string[]} fp8_training
 * @property {string[]} status        ["OK", "TIGHT", "OOM"]
 * @property {string[]} reasons
 * @property {{key: string, title: string, group: 'static'|'dynamic'}[]} components
 * @property {number} tight_percent
 * @property {Record<string, {noun: string, max_bytes: number, limit_name: string, typical: string, give: string}>} input_files
 *   each kind of file memest reads, by key (config, snapshot, log, script,
 *   wandb_config, wandb_json), with its reader's limit (core/base/input_files.c)
 */

/**
 * @typedef {object} Presets
 * @property {{name: string, title: string, id: string}[]} models  (id: the hub id)
 * @property {{name: string, title: string, bytes: number}[]} gpus
 */

/**
 * @typedef {object} View  what one page view asks of an estimate
 * @property {boolean} [suggestions]
 * @property {number} [timeline_window]
 * @property {boolean} [every_rank]
 * @property {boolean} [timeline_columns]
 */

/**
 * @typedef {object} Engine
 * @property {string} version
 * @property {(configText: string|null|undefined, params: Params, view?: View) => object} estimate
 *   the result object of `memest --json`, or {error}; with `view`, one page
 *   view (memest_estimate_view): the shown rank (pp_rank, else the worst)
 *   carries its timeline (a window of timeline_window events around its
 *   peak when longer; 0 = every event), suggestions are computed only
 *   when `suggestions` is true, with `every_rank` a chosen pp_rank's
 *   result also has `every_rank: {worst_rank, peak_bytes, ranks}`, and
 *   with `timeline_columns` the shown rank's events carry no `components`:
 *   its `event_components` has one array per component instead, and
 *   `event_steps` each event's step
 * @property {(configText: string|null|undefined, params: Params, view?: View) => string} estimateJson
 *   estimate()'s answer as JSON text (what the worker posts: a string is
 *   cheaper to send than a structured clone of a large object)
 * @property {(configText: string|null|undefined, params: Params) => Problem[]} validate
 *   every problem with the inputs; [] when they are valid
 * @property {(configText: string|null|undefined, params: Params, factors: number[]) => object} routingPeaks
 *   {factors, peak_bytes}: the grand-total peak at each routing factor (at
 *   most 64, each within 1..the cap), or {error}
 * @property {() => number} heapBytes  bytes allocated in the wasm heap
 * @property {() => Presets} presets
 * @property {(name: string) => string|null} modelConfig  a preset's config.json text
 * @property {() => ParamInfo[]} parameters
 * @property {() => Names} names
 * @property {(configText: string|null|undefined, request: PlanRequest) => object} plan
 *   the planner's JSON (`memest plan --json` / `memest compare --json`), or {error}
 * @property {(configText: string|null|undefined, request: PlanRequest) => PlanPieces | ErrorResult} planBegin
 *   the same plan in pieces (memest_plan_begin in the core): every error plan()
 *   would give comes here, before any estimate
 * @property {(bytes: ArrayBuffer|Uint8Array, points?: number) => object} snapshot
 *   a memory snapshot pickle read by the core (memest_snapshot_json: peak,
 *   largest allocations, sites, fragmentation, curve), or {error}
 * @property {(text: string) => object} runLog
 *   the trainer's log read for its peak-gpu-memory lines (memest_runlog_json), or {error}
 * @property {(rank: number, ppSize: number, totalGpus: number) => number} ppRankOf
 *   the pipeline rank of a global rank on the trainer's mesh, or -1
 * @property {(name: string) => number} rankOfName
 *   the global rank in a snapshot's name (snapshot-rank00012.pickle: 12), or -1
 * @property {(request: TrainerFilesRequest) => TrainerFilesAnswer | ErrorResult} readTrainerFiles
 *   the run's inputs from the trainer's own files (memest_wasm_trainer_read): a
 *   launch script with its setup.py, a log's launch line or a W&B run's files
 * @property {(id: string) => string} hubIdProblem
 *   why `id` is not a hub model id "org/name" (the CLI's rule,
 *   memest_hub_id_check), or '' when it is one
 * @property {(text: string) => {id: string} | {problem: string}} hubIdRead
 *   the hub id `text` names, an id or its model page's address
 *   (memest_hub_id_read, as the CLI's --model reads it), or why none
 * @property {(configText: string) => string} configProblem
 *   why a config's text is not one memest reads (memest_config_check, as the
 *   CLI checks a downloaded one), or '' when it is one
 */

/**
 * What readTrainerFiles() reads (docs/trainer-files.md).
 * @typedef {object} TrainerFilesRequest
 * @property {'script'|'log'|'wandb'} kind
 * @property {Record<string, string>} files  each file's name (a path where the
 *   drop has one: "benchmarks/.../h100-4n8g/x.py") and its text; for a script,
 *   the modules it imports (setup.py) are found among them
 * @property {string} [script]  kind "script": the launch script's name among files
 * @property {string} [folder]  a benchmark folder's name ("h100-4n8g") giving the GPU and count
 * @property {string} [trainer_commit]  the trainer commit the run used
 * @property {Params} [params]  inputs the page already has: they win over the files
 */

/**
 * readTrainerFiles()'s answer.
 * @typedef {object} TrainerFilesAnswer
 * @property {object} source  {kind, files, read: {input: "file:line"}, values,
 *   refused, model, ignored, warnings, notes, regime, trainer_commit}
 *   (docs/result-json.md, "source")
 * @property {Record<string, string>} params  the inputs the files give, as
 *   memest_params_set takes them
 * @property {Problem[]} problems  an input the files set in a way memest
 *   cannot read or refuses (empty when every input read)
 * @property {{file?: string, preset?: string, hub_id?: string, missing?: string}} model
 *   how training.model was resolved: a config among the files, a preset
 *   (the trainer's own config path, or a preset's hub id), a hub id to
 *   fetch, or a path not among the files; {} when the run names none
 */

/**
 * A plan begun by planBegin(), held in the wasm heap until finish() or free().
 * @typedef {object} PlanPieces
 * @property {number} rows  rows to go through: estimate() takes ranges of [0, rows)
 * @property {(from: number, to: number) => ErrorResult | null} estimate
 *   estimates rows [from, to) (memest_plan_estimate_rows); null when done
 * @property {() => object} finish  what plan() gives for the request, or {error};
 *   frees the plan
 * @property {() => void} free  drops the plan unfinished (a stopped sweep);
 *   harmless after finish()
 */

/**
 * @typedef {object} EngineOptions
 * @property {(args: object) => Promise<any>} [factory]  the default export of
 *   memest.js, for pages that bundle or import it themselves
 * @property {string|URL} [moduleUrl]  where memest.js is, resolved against this
 *   file (default ../public/memest.js)
 * @property {string|URL} [wasmUrl]    where memest.wasm is, resolved against
 *   moduleUrl (default memest.wasm next to it)
 * @property {ArrayBuffer|Uint8Array} [wasmBinary]  the wasm bytes, if already loaded
 */

const isNode =
  typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

// A computed specifier keeps bundlers from resolving Node built-ins for the web.
const nodeImport = (/** @type {string} */ name) => import(/* @vite-ignore */ name);

/**
 * @param {string} code
 * @param {string} field
 * @param {string} message
 * @returns {ErrorResult}
 */
function failure(code, field, message) {
  return { error: { code, message, field, fix: '', reason: 'none' } };
}

/**
 * One value as the glue takes it: text. A string as it is; a number or a
 * bigint as JavaScript writes it (String(v): 0.3, 1e+21, NaN), the text a
 * CLI flag given String(v) carries; booleans as they are (the glue reads
 * them as "true"/"false"); anything else as {} so that the glue refuses it.
 * @param {unknown} v
 * @returns {unknown}
 */
function normalizeValue(v) {
  if (typeof v === 'string') return wellFormed(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v;
  return {};
}

/**
 * Prepares params (or, with `lists`, a plan request) for the wasm and for
 * postMessage: a plain object of values the glue takes (normalizeValue),
 * lists' items likewise when `lists` is set. null and undefined are
 * dropped. Returns `params` itself when it is not an object, for the
 * caller to refuse.
 * @param {unknown} params
 * @param {boolean} [lists]
 * @returns {unknown}
 */
export function normalizeParams(params, lists = false) {
  if (params === null || params === undefined) return {};
  if (typeof params !== 'object' || Array.isArray(params)) return params;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    const v = lists && Array.isArray(value)
      ? value.map((x) => (Array.isArray(x) ? {} : normalizeValue(x)))
      : normalizeValue(value);
    Object.defineProperty(out, wellFormed(key), { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * s with each lone surrogate replaced by U+FFFD, so that it has a UTF-8
 * form (JSON.stringify would escape it into text the core cannot read).
 * @param {string} s
 * @returns {string}
 */
function wellFormed(s) {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * The params (or plan request) as JSON text for the glue, or an error for
 * a non-object.
 * @param {unknown} params
 * @param {boolean} [lists]
 * @returns {{json: string} | ErrorResult}
 */
function encodeParams(params, lists = false) {
  const p = normalizeParams(params, lists);
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    return failure('value', '', `the ${lists ? 'plan request' : 'parameters'} must be an object of name: value pairs`);
  }
  return { json: JSON.stringify(p) };
}

/**
 * @param {unknown} configText
 * @returns {ErrorResult | null}
 */
function checkConfig(configText) {
  if (configText === null || configText === undefined || typeof configText === 'string') return null;
  return failure('value', 'config',
    'the config must be the text of a config.json, or null for the preset named by the model parameter');
}

/**
 * Loads and instantiates the wasm module.
 * @param {EngineOptions} options
 * @returns {Promise<any>}
 */
async function instantiate(options) {
  const moduleUrl = new URL(String(options.moduleUrl ?? '../public/memest.js'), import.meta.url);
  const wasmUrl = new URL(String(options.wasmUrl ?? 'memest.wasm'), moduleUrl);
  const factory = options.factory ?? (await import(/* @vite-ignore */ moduleUrl.href)).default;
  /** @type {Record<string, unknown>} */
  const args = {};
  if (options.wasmBinary) {
    args.wasmBinary = options.wasmBinary;
  } else if (isNode) {
    // Node 20's fetch cannot read file: URLs; read the bytes directly.
    const fs = await nodeImport('node:fs/promises');
    args.wasmBinary = await fs.readFile(wasmUrl);
  } else if (options.wasmUrl || options.moduleUrl) {
    args.locateFile = () => wasmUrl.href;
  }
  return factory(args);
}

/**
 * Creates an engine. It works synchronously once created; in a page, run it
 * in a worker (engine-client.js) so that the page never blocks.
 * @param {EngineOptions} [options]
 * @returns {Promise<Engine>}
 */
export async function createEngine(options = {}) {
  /** @type {any} */
  let wasm = await instantiate(options);
  const version = wasm.UTF8ToString(wasm._memest_wasm_version());
  const presetsText = take(wasm, wasm._memest_wasm_presets());
  const parametersText = take(wasm, wasm._memest_wasm_parameters());
  const namesText = take(wasm, wasm._memest_wasm_names());
  if (presetsText === null || parametersText === null || namesText === null) {
    throw new Error('memest: the engine ran out of memory while starting');
  }

  /**
   * Runs fn on the instance. A trap leaves the instance unusable, so the
   * engine answers with an error and starts a fresh instance.
   * @template T
   * @param {(w: any) => T} fn
   * @param {(e: ErrorResult) => T} onError
   * @returns {T}
   */
  function guarded(fn, onError) {
    if (!wasm) {
      return onError(failure('internal', '', 'the engine is restarting after an internal failure; try again'));
    }
    try {
      return fn(wasm);
    } catch (e) {
      wasm = null;
      instantiate(options).then((w) => { wasm = w; }, () => {});
      return onError(failure('internal', '',
        `the engine failed (${e instanceof Error ? e.message : String(e)}) and is restarting`));
    }
  }

  /**
   * Calls a glue function that takes one text and returns why it is
   * refused, '' when it is not.
   * @param {string} name
   * @param {string} text
   * @returns {string}
   */
  function textCheck(name, text) {
    return guarded((w) => {
      const ptr = put(w, wellFormed(text));
      try {
        if (!ptr) return 'the engine ran out of memory';
        return take(w, w[name](ptr)) ?? 'the engine ran out of memory';
      } finally {
        if (ptr) w._free(ptr);
      }
    }, (e) => e.error.message);
  }

  /**
   * Calls a glue function that takes (config, json[, extra]) and returns
   * JSON text; a failure comes back as the text of its {error} object.
   * @param {string} name
   * @param {unknown} configText
   * @param {string} json
   * @param {string} [extra]  a third JSON argument (the view options)
   * @returns {string}
   */
  function callText(name, configText, json, extra) {
    const nomem = () => JSON.stringify(failure('nomem', '', 'the engine ran out of memory'));
    return guarded((w) => {
      const config = put(w, typeof configText === 'string' ? wellFormed(configText) : null);
      const arg = put(w, json);
      const more = extra === undefined ? null : put(w, extra);
      try {
        if (config === 0 || arg === 0 || more === 0) return nomem();
        const text = take(w, more === null ? w[name](config ?? 0, arg) : w[name](config ?? 0, arg, more));
        return text === null ? nomem() : text;
      } finally {
        if (config) w._free(config);
        if (arg) w._free(arg);
        if (more) w._free(more);
      }
    }, (e) => JSON.stringify(e));
  }

  /**
   * callText's answer as an object.
   * @param {string} name
   * @param {unknown} configText
   * @param {string} json
   * @returns {unknown}
   */
  function callJson(name, configText, json) {
    return JSON.parse(callText(name, configText, json));
  }

  /** @type {Engine} */
  const engine = {
    version,

    estimate(configText, params, view) {
      return JSON.parse(engine.estimateJson(configText, params, view));
    },

    estimateJson(configText, params, view) {
      const bad = checkConfig(configText);
      if (bad) return JSON.stringify(bad);
      const enc = encodeParams(params);
      if ('error' in enc) return JSON.stringify(enc);
      if (view !== undefined && view !== null) {
        // One page view: the shown rank's timeline in the result, the
        // suggestions only when asked for, every rank's peak when one rank
        // is chosen (memest_estimate_view).
        const v = typeof view === 'object' ? /** @type {any} */ (view) : {};
        const options = JSON.stringify({
          suggestions: v.suggestions === true,
          timeline_window: Number.isInteger(v.timeline_window) ? v.timeline_window : 0,
          every_rank: v.every_rank === true,
          timeline_columns: v.timeline_columns === true,
        });
        return callText('_memest_wasm_view', configText, enc.json, options);
      }
      return callText('_memest_wasm_estimate', configText, enc.json);
    },

    validate(configText, params) {
      const bad = checkConfig(configText) ?? encodeParams(params);
      if ('error' in bad) return [bad.error];
      const out = callJson('_memest_wasm_validate', configText, bad.json);
      return Array.isArray(out) ? out : [/** @type {ErrorResult} */ (out).error];
    },

    heapBytes() {
      return guarded((w) => Number(w._memest_wasm_heap_bytes()) >>> 0, () => NaN);
    },

    presets() {
      return JSON.parse(presetsText);
    },

    modelConfig(name) {
      if (typeof name !== 'string') return null;
      return guarded((w) => {
        const arg = put(w, name);
        try {
          return arg ? take(w, w._memest_wasm_model_config(arg)) : null;
        } finally {
          if (arg) w._free(arg);
        }
      }, () => null);
    },

    parameters() {
      return JSON.parse(parametersText);
    },

    names() {
      return JSON.parse(namesText);
    },

    plan(configText, request) {
      const bad = checkConfig(configText);
      if (bad) return bad;
      const enc = encodeParams(request, true);
      if ('error' in enc) return enc;
      return /** @type {object} */ (callJson('_memest_wasm_plan', configText, enc.json));
    },

    routingPeaks(configText, params, factors) {
      const bad = checkConfig(configText);
      if (bad) return bad;
      const enc = encodeParams(params);
      if ('error' in enc) return enc;
      if (!Array.isArray(factors) || factors.length > 64 || !factors.every((f) => typeof f === 'number' && Number.isFinite(f))) {
        return failure('value', 'routing_factor', 'the routing factors must be a list of at most 64 finite numbers');
      }
      const list = JSON.stringify(factors);
      return /** @type {object} */ (guarded((w) => {
        const config = put(w, typeof configText === 'string' ? wellFormed(configText) : null);
        const arg = put(w, enc.json);
        const fs = put(w, list);
        try {
          if (config === 0 || arg === 0 || fs === 0) return failure('nomem', '', 'the engine ran out of memory');
          const text = take(w, w._memest_wasm_routing_peaks(config ?? 0, arg, fs));
          return text === null ? failure('nomem', '', 'the engine ran out of memory') : JSON.parse(text);
        } finally {
          if (config) w._free(config);
          if (arg) w._free(arg);
          if (fs) w._free(fs);
        }
      }, (e) => e));
    },

    snapshot(bytes, points = 1200) {
      const data = bytes instanceof Uint8Array ? bytes : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : null;
      if (!data) return failure('value', 'snapshot', "the snapshot must be the file's bytes (an ArrayBuffer or Uint8Array)");
      const n = Number.isFinite(points) ? Math.max(2, Math.min(100000, Math.floor(points))) : 1200;
      return guarded((w) => {
        const ptr = w._malloc(Math.max(1, data.length));
        if (!ptr) return failure('nomem', 'snapshot', `the engine has no room for a snapshot of ${data.length} bytes`);
        try {
          w.HEAPU8.set(data, ptr);
          const text = take(w, w._memest_wasm_snapshot(ptr, data.length, n));
          return text === null ? failure('nomem', 'snapshot', 'the engine ran out of memory reading the snapshot') : JSON.parse(text);
        } finally {
          w._free(ptr);
        }
      }, (e) => e);
    },

    runLog(text) {
      if (typeof text !== 'string') return failure('value', 'log', 'the log must be text');
      return guarded((w) => {
        const s = wellFormed(text);
        const ptr = put(w, s);
        if (!ptr) return failure('nomem', 'log', 'the engine ran out of memory');
        try {
          const out = take(w, w._memest_wasm_runlog(ptr, w.lengthBytesUTF8(s)));
          return out === null ? failure('nomem', 'log', 'the engine ran out of memory') : JSON.parse(out);
        } finally {
          w._free(ptr);
        }
      }, (e) => e);
    },

    readTrainerFiles(request) {
      const r = /** @type {any} */ (request);
      if (typeof r !== 'object' || r === null || Array.isArray(r)) {
        return failure('value', '', 'the request must be an object {kind, files, ...}');
      }
      if (typeof r.files !== 'object' || r.files === null || Array.isArray(r.files) ||
          !Object.values(r.files).every((t) => typeof t === 'string')) {
        return failure('value', 'files', 'files must be an object of name: text');
      }
      /** @type {Record<string, unknown>} */
      const files = {};
      for (const [name, text] of Object.entries(r.files)) {
        Object.defineProperty(files, wellFormed(name), { value: wellFormed(/** @type {string} */ (text)), enumerable: true });
      }
      const enc = encodeParams(r.params ?? {});
      if ('error' in enc) return enc;
      /** @type {Record<string, unknown>} */
      const body = { kind: r.kind, files, params: JSON.parse(enc.json) };
      for (const key of ['script', 'folder', 'trainer_commit']) {
        if (typeof r[key] === 'string') body[key] = wellFormed(r[key]);
      }
      return /** @type {any} */ (guarded((w) => {
        const arg = put(w, JSON.stringify(body));
        try {
          if (!arg) return failure('nomem', '', 'the engine ran out of memory');
          const text = take(w, w._memest_wasm_trainer_read(arg));
          return text === null ? failure('nomem', '', 'the engine ran out of memory') : JSON.parse(text);
        } finally {
          if (arg) w._free(arg);
        }
      }, (e) => e));
    },

    hubIdProblem(id) {
      if (typeof id !== 'string') return 'a hub id is org/name, with one \'/\'';
      return textCheck('_memest_wasm_hub_id_check', id);
    },

    hubIdRead(text) {
      if (typeof text !== 'string') return { problem: 'a hub id is org/name, with one \'/\'' };
      return guarded((w) => {
        const ptr = put(w, wellFormed(text));
        try {
          const answer = ptr ? take(w, w._memest_wasm_hub_id_read(ptr)) : null;
          return answer === null ? { problem: 'the engine ran out of memory' } : JSON.parse(answer);
        } finally {
          if (ptr) w._free(ptr);
        }
      }, (e) => ({ problem: e.error.message }));
    },

    configProblem(configText) {
      if (typeof configText !== 'string') return 'the config must be text';
      return textCheck('_memest_wasm_config_check', configText);
    },

    ppRankOf(rank, ppSize, totalGpus) {
      if (![rank, ppSize, totalGpus].every((x) => Number.isSafeInteger(x))) return -1;
      return guarded((w) => w._memest_wasm_pp_rank_of(rank, ppSize, totalGpus), () => -1);
    },

    rankOfName(name) {
      if (typeof name !== 'string') return -1;
      return guarded((w) => {
        const ptr = put(w, wellFormed(name));
        try {
          return ptr ? w._memest_wasm_rank_of_name(ptr) : -1;
        } finally {
          if (ptr) w._free(ptr);
        }
      }, () => -1);
    },

    planBegin(configText, request) {
      const bad = checkConfig(configText);
      if (bad) return bad;
      const enc = encodeParams(request, true);
      if ('error' in enc) return enc;
      const begun = /** @type {any} */ (callJson('_memest_wasm_plan_begin', configText, enc.json));
      if ('error' in begun) return begun;
      return planPieces(wasm, begun.plan, begun.rows);
    },
  };

  /**
   * The calls on a begun plan at `address` in instance `owner`. After a
   * trap the engine has a fresh instance, where that address means nothing:
   * the calls then answer with an error.
   * @param {any} owner
   * @param {number} address
   * @param {number} rows
   * @returns {PlanPieces}
   */
  function planPieces(owner, address, rows) {
    let live = true;
    const gone = () => (live
      ? failure('internal', '', 'the plan was lost when the engine restarted; run it again')
      : failure('value', '', 'the plan is finished or freed; begin it again with planBegin'));
    return {
      rows,
      estimate(from, to) {
        if (!live || wasm !== owner) return gone();
        return guarded((w) => {
          const text = take(w, w._memest_wasm_plan_estimate(address, from, to));
          return text === null ? null : /** @type {ErrorResult} */ (JSON.parse(text));
        }, (e) => e);
      },
      finish() {
        if (!live || wasm !== owner) return gone();
        live = false;
        return guarded((w) => {
          const text = take(w, w._memest_wasm_plan_finish(address));
          return text === null ? failure('nomem', '', 'the engine ran out of memory') : JSON.parse(text);
        }, (e) => e);
      },
      free() {
        if (!live || wasm !== owner) return;
        live = false;
        guarded((w) => w._memest_wasm_plan_free(address), () => {});
      },
    };
  }
  return engine;
}

/**
 * Copies a JS string into the wasm heap; null for null/undefined, 0 when
 * out of memory. The caller frees it with _free.
 * @param {any} w
 * @param {string|null|undefined} s
 * @returns {number|null}
 */
function put(w, s) {
  if (s === null || s === undefined) return null;
  const size = w.lengthBytesUTF8(s) + 1;
  const ptr = w._malloc(size);
  if (ptr) w.stringToUTF8(s, ptr, size);
  return ptr;
}

/**
 * Reads and frees a string the glue returned; null for a NULL pointer.
 * @param {any} w
 * @param {number} ptr
 * @returns {string|null}
 */
function take(w, ptr) {
  if (!ptr) return null;
  try {
    return w.UTF8ToString(ptr);
  } finally {
    w._memest_wasm_free(ptr);
  }
}
