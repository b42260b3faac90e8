// state.js — the page's input state: one plain, URL-serialisable object.
//
// DEFAULTS is both the page's opening view and the whitelist of the URL
// format (url.js): a key that is not here is never read from a link, and a
// value is coerced to the type of its default. Ranges are not checked here:
// the engine's validate() explains out-of-range values next to the control
// that can fix them, so nothing is clamped silently.

/** The opening view: Qwen3-30B-A3B, pp 4, ep 8, cp 1, 32 x H100. */
export const DEFAULTS = Object.freeze({
  model: 'qwen3-30b-a3b', // preset name, or a label when `config` is given
  config: '', // pasted or dropped config.json text; '' = the preset
  pp_size: 4,
  ep_size: 8,
  cp_size: 1,
  total_gpus: 32,
  gpus_per_node: 8, // only for the nodes x GPUs-per-node view of total_gpus
  micro_batch_size: 1,
  global_batch_size: 1024,
  sequence_length: 4096,
  gpu: 'h100', // GPU preset name; '' = custom capacity in gpu_memory_gb
  gpu_memory_gb: 80,
  optimizer: 'adamw',
  sharding: 'fsdp',
  fp8_training: 'disabled',
  pp_rank: -1, // -1 = the worst rank
  ep_imbalance: 1, // older links: scales the measured routing factor
  routing: 'measured', // measured (1.18), balanced (the trainer's benchmark mode) or factor
  routing_factor: 1.18, // the busiest EP rank's routed rows over m*k, when routing is factor
  fragmentation: 0.1,
  detail: false, // per-tensor table expanded

  // The tab shown, and the Plan and Compare tabs' own inputs (docs/page.md
  // "Plan and Compare"). Everything else they use is the calculator's.
  view: 'calculator', // calculator | plan | compare
  plan_question: 'layouts', // layouts: the best layouts for a GPU budget; vary: one input swept
  plan_budget: 'gpus', // the budget as total GPUs, or as nodes of gpus_per_node
  plan_total_gpus: 32,
  plan_nodes: 4,
  plan_pp: 0, // pins of a layouts plan: one value each, 0 = every valid value
  plan_ep: 0,
  plan_cp: 0,
  plan_dp: 0,
  plan_mbs: 7, // micro batches tried, one bit per power of two (bit k = 2^k): 7 = 1, 2, 4
  plan_vary: 'pp', // the input a vary plan sweeps
  plan_hold: 'dp', // varying pp, ep or cp: dp stays (GPUs follow) or the GPUs stay (dp follows)
  plan_sort: 'rank', // the plan table's sort column; rank = the planner's order
  plan_desc: false,
  plan_goal: 'gpus', // what the best layout is: gpus | headroom | bubble | routing (plan/goals.js)
  plan_ok_only: false, // the plan table lists only the rows that are OK
  // Compare: the second configuration, as the calculator's with these
  // changes; -1 (numbers) or '' (choices) = the same as the calculator.
  cmp_pp_size: -1,
  cmp_ep_size: -1,
  cmp_cp_size: -1,
  cmp_total_gpus: -1,
  cmp_micro_batch_size: -1,
  cmp_global_batch_size: -1,
  cmp_sequence_length: -1,
  cmp_gpu_memory_gb: -1, // another GPU, by its capacity in GiB
  cmp_optimizer: '',
  cmp_sharding: '',
  cmp_fp8_training: '',
  cmp_ep_imbalance: -1,
  cmp_fragmentation: -1,
  cmp_model: '', // B's own model (a preset), '' = A's
  cmp_routing: '', // B's routing, '' = A's
  cmp_routing_factor: -1,
});

/** The inputs the Compare tab can change, by state key. */
export const COMPARE_KEYS = Object.freeze([
  'pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'global_batch_size', 'sequence_length',
  'gpu_memory_gb', 'optimizer', 'sharding', 'fp8_training', 'ep_imbalance', 'fragmentation', 'routing', 'routing_factor',
  'model',
]);

/** The inputs a vary plan can sweep (the planner's names). */
export const VARY_INPUTS = Object.freeze(['pp', 'ep', 'cp', 'dp', 'gpus', 'nodes', 'mbs', 'seq']);

/** The plan table's sort columns (rank = the planner's order). */
export const SORT_KEYS = Object.freeze([
  'rank', 'pp_size', 'ep_size', 'cp_size', 'dp', 'total_gpus', 'nodes', 'micro_batch_size', 'sequence_length',
  'num_chunks', 'status', 'peak_bytes', 'headroom_bytes', 'bubble_fraction', 'routing_margin',
]);

/** Longest config text a state (and so a link) may carry. */
export const MAX_CONFIG_CHARS = 32768;
/** Model labels: what a file name or a preset name may look like, and "<preset> (edited)". */
export const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9._+() -]{0,99}$/;
const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,15}$/;

const INT = { kind: 'int', min: -(2 ** 31), max: 2 ** 40 };
const NUM = { kind: 'number', min: -1e9, max: 1e9 };

/** The type of every key; enums list their values as the C header does. */
export const SCHEMA = Object.freeze({
  model: { kind: 'text', re: LABEL_RE },
  config: { kind: 'text', max: MAX_CONFIG_CHARS },
  pp_size: INT,
  ep_size: INT,
  cp_size: INT,
  total_gpus: INT,
  gpus_per_node: INT,
  micro_batch_size: INT,
  global_batch_size: INT,
  sequence_length: INT,
  gpu: { kind: 'text', re: NAME_RE, empty: true },
  gpu_memory_gb: NUM,
  optimizer: { kind: 'enum', values: ['adamw', 'muon'] },
  sharding: { kind: 'enum', values: ['fsdp', 'hsdp'] },
  fp8_training: { kind: 'enum', values: ['disabled', 'deep-gemm'] },
  pp_rank: INT,
  ep_imbalance: NUM,
  routing: { kind: 'enum', values: ['measured', 'balanced', 'factor'] },
  routing_factor: NUM,
  fragmentation: NUM,
  detail: { kind: 'bool' },
  view: { kind: 'enum', values: ['calculator', 'plan', 'compare'] },
  plan_question: { kind: 'enum', values: ['layouts', 'vary'] },
  plan_budget: { kind: 'enum', values: ['gpus', 'nodes'] },
  plan_total_gpus: INT,
  plan_nodes: INT,
  plan_pp: INT,
  plan_ep: INT,
  plan_cp: INT,
  plan_dp: INT,
  plan_mbs: INT,
  plan_vary: { kind: 'enum', values: VARY_INPUTS },
  plan_hold: { kind: 'enum', values: ['dp', 'gpus'] },
  plan_sort: { kind: 'enum', values: SORT_KEYS },
  plan_desc: { kind: 'bool' },
  plan_goal: { kind: 'enum', values: ['gpus', 'headroom', 'bubble', 'routing'] },
  plan_ok_only: { kind: 'bool' },
  cmp_pp_size: INT,
  cmp_ep_size: INT,
  cmp_cp_size: INT,
  cmp_total_gpus: INT,
  cmp_micro_batch_size: INT,
  cmp_global_batch_size: INT,
  cmp_sequence_length: INT,
  cmp_gpu_memory_gb: NUM,
  cmp_optimizer: { kind: 'enum', values: ['', 'adamw', 'muon'] },
  cmp_sharding: { kind: 'enum', values: ['', 'fsdp', 'hsdp'] },
  cmp_fp8_training: { kind: 'enum', values: ['', 'disabled', 'deep-gemm'] },
  cmp_ep_imbalance: NUM,
  cmp_fragmentation: NUM,
  cmp_model: { kind: 'text', re: LABEL_RE, empty: true },
  cmp_routing: { kind: 'enum', values: ['', 'measured', 'balanced', 'factor'] },
  cmp_routing_factor: NUM,
});

const BAD = Symbol('bad');

function coerceNumber(v, spec) {
  let n = v;
  if (typeof v === 'string' && v.trim() !== '' && v.length <= 32) n = Number(v);
  if (typeof n !== 'number' || !Number.isFinite(n)) return BAD;
  if (spec.kind === 'int' && !Number.isInteger(n)) return BAD;
  if (n < spec.min || n > spec.max) return BAD;
  return n === 0 ? 0 : n; // no -0: it does not survive JSON
}

/**
 * Coerces `value` to the type of state key `key`.
 * Returns the coerced value, or throws a TypeError whose message says why.
 */
export function coerceField(key, value) {
  const spec = Object.prototype.hasOwnProperty.call(SCHEMA, key) ? SCHEMA[key] : null;
  if (!spec) throw new TypeError(`"${String(key).slice(0, 40)}" is not an input of this page`);
  /** @type {unknown} */
  let out = BAD;
  switch (spec.kind) {
    case 'int':
    case 'number':
      out = coerceNumber(value, spec);
      break;
    case 'bool':
      if (value === true || value === 'true' || value === 1 || value === '1') out = true;
      else if (value === false || value === 'false' || value === 0 || value === '0') out = false;
      break;
    case 'enum':
      if (typeof value === 'string' && spec.values.includes(value)) out = value;
      break;
    case 'text':
      if (typeof value !== 'string') break;
      if (spec.max !== undefined && value.length <= spec.max) out = value;
      if (spec.re && (spec.re.test(value) || (spec.empty && value === ''))) out = value;
      break;
  }
  if (out === BAD) {
    throw new TypeError(`${key}: ${describe(value)} is not ${expected(spec)}`);
  }
  return out;
}

function describe(v) {
  if (typeof v === 'string') return v.length > 24 ? `a ${v.length}-character text` : JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'a list' : 'an object';
}

function expected(spec) {
  switch (spec.kind) {
    case 'int': return 'a whole number';
    case 'number': return 'a number';
    case 'bool': return 'true or false';
    case 'enum': return `one of ${spec.values.join(', ')}`;
    default: return spec.max !== undefined ? `a text of at most ${spec.max} characters` : 'a valid name';
  }
}

/**
 * Builds a complete state from a partial object `obj`: every key of DEFAULTS
 * is present and typed. Keys that are unknown or badly typed are left at the
 * default and described in the returned `notes`.
 */
export function normalize(obj) {
  const state = { ...DEFAULTS };
  const notes = [];
  for (const key of Object.keys(obj)) {
    try {
      state[key] = coerceField(key, obj[key]);
    } catch (e) {
      notes.push(e.message);
    }
  }
  return { state, notes };
}

/** The keys of `state` whose values differ from DEFAULTS, with their values. */
export function changedFields(state) {
  const out = {};
  for (const key of Object.keys(DEFAULTS)) {
    if (!Object.is(state[key], DEFAULTS[key])) out[key] = state[key];
  }
  return out;
}

/** Applies a `fix` from validate() ("name=value[,name=value]") to `state`. */
export function applyFix(state, fix) {
  const next = { ...state };
  for (const part of String(fix).split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new TypeError(`cannot read the fix "${fix}"`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'gpu_memory_gb') next.gpu = '';
    next[key] = coerceField(key, value);
  }
  return next;
}

/** Whether every part of `fix` names a key this page can set. */
export function canApplyFix(fix) {
  if (!fix) return false;
  try {
    applyFix(DEFAULTS, fix);
    return true;
  } catch {
    return false;
  }
}

/**
 * The fix a suggestion of the result stands for, as "name=value[,...]" (the
 * engine's `fix`). Null when the page cannot apply it.
 */
export function suggestionFix(s) {
  if (typeof s?.fix !== 'string' || !s.fix) return null;
  return canApplyFix(s.fix) ? s.fix : null;
}

/**
 * The derived degrees shown next to the controls: dp = total/(pp*ep*cp) and
 * num_chunks = gbs/(mbs*dp*ep). Either is a number (possibly fractional, so
 * the page can say it does not divide) or null when a divisor is zero.
 */
export function derive(state) {
  const cells = state.pp_size * state.ep_size * state.cp_size;
  const dp = cells > 0 ? state.total_gpus / cells : null;
  const per = dp ? state.micro_batch_size * dp * state.ep_size : 0;
  const chunks = per > 0 ? state.global_batch_size / per : null;
  const gpn = state.gpus_per_node;
  const nodes = gpn > 0 ? state.total_gpus / gpn : null;
  return { dp, num_chunks: chunks, nodes };
}

/**
 * The engine parameters (snake_case, see engine-client.js) for `state`.
 * `opts.timelineLimit` (0 = all events) and `opts.detail` ask for the
 * timeline and the per-tensor tables.
 */
export function toParams(state, opts = {}) {
  const p = {
    model: state.model,
    pp_size: state.pp_size,
    ep_size: state.ep_size,
    cp_size: state.cp_size,
    total_gpus: state.total_gpus,
    micro_batch_size: state.micro_batch_size,
    global_batch_size: state.global_batch_size,
    sequence_length: state.sequence_length,
    optimizer: state.optimizer,
    sharding: state.sharding,
    fp8_training: state.fp8_training,
    pp_rank: state.pp_rank,
    fragmentation: state.fragmentation,
  };
  Object.assign(p, routingParams(state));
  if (state.gpu) p.gpu = state.gpu;
  else p.gpu_memory_gb = state.gpu_memory_gb;
  if (opts.timeline) {
    p.timeline = true;
    p.timeline_limit = opts.timelineLimit || 0;
  }
  if (opts.detail) p.detail = true;
  return p;
}

/**
 * The routing inputs of `state` as engine parameters: the measured factor
 * (ep_imbalance scales it; 1 unless an older link or the Compare tab set
 * it), routing "balanced", or routing_factor for a factor of one's own.
 */
/** @returns {Record<string, any>} */
export function routingParams(state) {
  if (state.routing === 'balanced') return { routing: 'balanced' };
  if (state.routing === 'factor') return { routing_factor: state.routing_factor };
  return { ep_imbalance: state.ep_imbalance };
}

/** The config text to hand the engine: null selects the preset `state.model`. */
export function configOf(state) {
  return state.config ? state.config : null;
}

/** A label for a pasted config: from a file name, or from the config itself. */
export function labelFor(configText, fileName) {
  const clean = (s) =>
    String(s)
      .replace(/\.json$/i, '')
      .replace(/[^A-Za-z0-9._+-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 100);
  if (fileName) {
    const base = clean(String(fileName).split(/[\\/]/).pop());
    if (base && base !== 'config') return base;
  }
  try {
    const obj = JSON.parse(configText);
    const name = obj && (obj._name_or_path || obj.model_type);
    if (typeof name === 'string') {
      const c = clean(name.split('/').pop());
      if (LABEL_RE.test(c)) return c;
    }
  } catch {
    /* not JSON: the engine will say so */
  }
  return 'custom';
}
