// state.js — the page's input state: one plain, URL-serialisable object.
//
// Its keys are the core's parameters (core-tables.js: names, kinds, enum
// values, the worked example and the defaults), the page's own inputs
// (PAGE_INPUTS) and B's inputs in Compare (cmp_*). DEFAULTS is both the
// page's opening view and the whitelist of the URL format (url.js): a key
// that is not here is never read from a link, and a value is coerced to
// the type of its default. Ranges are not checked here: the engine's
// validate() explains out-of-range values next to the control that can
// fix them, so nothing is clamped silently.

import { PARAMETERS } from './core-tables.js';
import { PLAN_COLUMNS } from './plan/columns.js';
import { GOALS } from './plan/goals.js';

/** Longest config text a state (and so a link) may carry. */
export const MAX_CONFIG_CHARS = 32768;
/** Model labels: what a file name or a preset name may look like, and "<preset> (edited)". */
export const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9._+() -]{0,99}$/;
const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,15}$/;

/**
 * How a link's value of one key is read: its kind, and a number's range, an
 * enum's values, a text's pattern or length.
 * @typedef {{kind: string, min?: number, max?: number, values?: readonly string[], re?: RegExp, empty?: boolean}} Spec
 */

/** @type {Spec} */
const INT = { kind: 'int', min: -(2 ** 31), max: 2 ** 40 };
/** @type {Spec} */
const NUM = { kind: 'number', min: -1e9, max: 1e9 };

/**
 * The inputs a vary plan can sweep: [the planner's --vary name, the input
 * or derived degree it is (a plan row's field, which names.js labels)].
 */
export const VARY_INPUTS = Object.freeze([
  ['pp', 'pp_size'], ['ep', 'ep_size'], ['cp', 'cp_size'], ['dp', 'dp'], ['gpus', 'total_gpus'], ['nodes', 'nodes'],
  ['mbs', 'micro_batch_size'], ['seq', 'sequence_length'],
]);

/** The plan table's sort columns: its columns, and rank (the planner's order). */
export const SORT_KEYS = Object.freeze(['rank', ...PLAN_COLUMNS]);

/**
 * The page's own inputs, beyond the core's parameters: [default, type].
 * The core's parameters join them from its table (below); this is the one
 * list of the state's other fields.
 * @type {Record<string, [unknown, Spec]>}
 */
const PAGE_INPUTS = {
  config: ['', { kind: 'text', max: MAX_CONFIG_CHARS }], // pasted or dropped config.json text; '' = the preset
  gpus_per_node: [8, INT], // only for the nodes x GPUs-per-node view of total_gpus
  // The tab shown, and the Plan tab's own inputs (docs/page.md "Plan and
  // Compare"). Everything else it uses is the calculator's.
  view: ['calculator', { kind: 'enum', values: ['calculator', 'plan', 'compare', 'schedules'] }],
  plan_question: ['layouts', { kind: 'enum', values: ['layouts', 'vary'] }], // the best layouts for a GPU budget, or one input swept
  plan_budget: ['gpus', { kind: 'enum', values: ['gpus', 'nodes'] }], // total GPUs, or nodes of gpus_per_node
  plan_total_gpus: [32, INT],
  plan_nodes: [4, INT],
  plan_pp: [0, INT], // pins of a layouts plan: one value each, 0 = every valid value
  plan_ep: [0, INT],
  plan_cp: [0, INT],
  plan_dp: [0, INT],
  plan_mbs: [7, INT], // micro batches tried, one bit per power of two (bit k = 2^k): 7 = 1, 2, 4
  plan_vary: ['pp', { kind: 'enum', values: VARY_INPUTS.map(([name]) => name) }], // the input a vary plan sweeps
  plan_hold: ['dp', { kind: 'enum', values: ['dp', 'gpus'] }], // varying pp, ep or cp: dp stays (GPUs follow) or the GPUs stay
  plan_sort: ['rank', { kind: 'enum', values: SORT_KEYS }], // the plan table's sort column; rank = the planner's order
  plan_desc: [false, { kind: 'bool' }],
  plan_goal: ['fastest', { kind: 'enum', values: GOALS.map(([key]) => key) }], // what the best layout is (plan/goals.js): the planner's own, the fastest, by default
  plan_ok_only: [false, { kind: 'bool' }], // the plan table lists only the rows that are OK
};

/** The core's parameters the state does not hold: a view asks for them (estimator.js). */
const VIEW_PARAMETERS = new Set(['timeline', 'timeline_limit']);
/**
 * The time model's inputs (the core's link bandwidths and efficiency
 * overrides), in the core's order: the Time model group of the form
 * (TimePanel.jsx). They change the step time, never the memory.
 */
export const TIME_INPUTS = Object.freeze(['nvlink_gb_per_s', 'network_gbit_per_s', 'efficiency']);
/**
 * The core's parameters B of the Compare tab does not change: its GPU is a
 * capacity; it shows the worst rank; it compares memory, so it keeps A's
 * time model.
 */
const NOT_COMPARED = new Set(['gpu', 'pp_rank', 'detail', ...TIME_INPUTS]);
/** Longest text a core input of kind text (other than the model) may hold in a state; the engine refuses longer ones by name. */
export const MAX_TEXT_INPUT_CHARS = 400;
/**
 * The names the page reads from a link as text rather than by their core kind.
 * @type {Record<string, Spec>}
 */
const TEXT_PARAMETERS = {
  model: { kind: 'text', re: LABEL_RE }, // a preset name, or a label when `config` is given
  gpu: { kind: 'text', re: NAME_RE, empty: true }, // a GPU preset; '' = a capacity of one's own (gpu_memory_gb)
};

/**
 * The core's parameters toParams gives by a rule rather than as the state
 * holds them: the GPU by name or by capacity, the routing by its mode
 * (routingParams), the per-tensor tables when a view asks.
 */
const GIVEN_APART = new Set(['gpu', 'gpu_memory_gb', 'routing', 'routing_factor', 'ep_imbalance', 'detail']);

/** The core's parameters the state holds, in the core's order. */
const STATE_PARAMETERS = PARAMETERS.filter((p) => !VIEW_PARAMETERS.has(p.name));

/** A core parameter's value from its text (the example's, else the default's). */
function valueOf(p, text) {
  if (p.kind === 'int' || p.kind === 'number') return Number(text);
  if (p.kind === 'bool') return text === 'true';
  return text;
}

/**
 * How a link's value of core parameter `p` is read.
 * @returns {Spec}
 */
function specOf(p) {
  if (TEXT_PARAMETERS[p.name]) return TEXT_PARAMETERS[p.name];
  if (p.kind === 'int') return INT;
  if (p.kind === 'number') return NUM;
  if (p.kind === 'bool') return { kind: 'bool' };
  if (p.kind === 'text') return { kind: 'text', max: MAX_TEXT_INPUT_CHARS };
  return { kind: 'enum', values: p.choices };
}

/** The inputs the Compare tab can change, by state key: B's own values are cmp_<key>. */
export const COMPARE_KEYS = Object.freeze(STATE_PARAMETERS.filter((p) => !NOT_COMPARED.has(p.name)).map((p) => p.name));

/**
 * A cmp_ key's [default, type]: -1 (numbers) or '' (choices, a model) = the same as the calculator.
 * @returns {[unknown, Spec]}
 */
function compareInput(name) {
  const spec = specOf(PARAMETERS.find((p) => p.name === name));
  if (spec.kind === 'int' || spec.kind === 'number') return [-1, spec];
  if (spec.kind === 'enum') return ['', { kind: 'enum', values: ['', ...spec.values] }];
  return ['', { ...spec, empty: true }];
}

/** @type {Record<string, [unknown, Spec]>} */
const INPUTS = {
  ...Object.fromEntries(STATE_PARAMETERS.map((p) => [p.name, [valueOf(p, p.example || p.default), specOf(p)]])),
  ...PAGE_INPUTS,
  ...Object.fromEntries(COMPARE_KEYS.map((name) => [`cmp_${name}`, compareInput(name)])),
};

/**
 * The opening view (the core's worked example: Qwen3-30B-A3B, pp 4, ep 8,
 * cp 1, 32 x H100, the core's defaults for the rest) and the whitelist of
 * the URL format (url.js): a key that is not here is never read from a
 * link, and a value is coerced to the type of its default.
 * @type {Readonly<Record<string, any>>}
 */
export const DEFAULTS = Object.freeze(Object.fromEntries(Object.entries(INPUTS).map(([k, [v]]) => [k, v])));

/**
 * The type of every key; enums list their values as the core's table does.
 * @type {Readonly<Record<string, Spec>>}
 */
export const SCHEMA = Object.freeze(Object.fromEntries(Object.entries(INPUTS).map(([k, [, spec]]) => [k, spec])));

/** The core's parameters the state holds under the same names, in the core's order. */
export const CORE_INPUTS = Object.freeze(STATE_PARAMETERS.map((p) => p.name));

/**
 * The pipeline schedule and what only one schedule reads: virtual_stages,
 * interleaved 1F1B's stages per GPU, which the engine refuses with any
 * other schedule (toParams gives it only then).
 */
export const SCHEDULE_INPUTS = Object.freeze(['schedule', 'virtual_stages']);
/** The schedule that reads virtual_stages. */
export const INTERLEAVED = 'interleaved-1f1b';

/** The core's whole-number inputs a layout and its batches are made of (all but the rank shown and the schedule's), in the core's order. */
export const LAYOUT_INPUTS = Object.freeze(STATE_PARAMETERS
  .filter((p) => p.kind === 'int' && p.name !== 'pp_rank' && !SCHEDULE_INPUTS.includes(p.name)).map((p) => p.name));

/** The core's choices of a run beside its routing (optimizer, sharding, FP8), in the core's order. */
export const OPTION_INPUTS = Object.freeze(STATE_PARAMETERS.filter((p) => specOf(p).kind === 'enum' && p.name !== 'routing').map((p) => p.name));

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
  /** @type {Record<string, any>} */
  const p = {};
  for (const { name, kind } of STATE_PARAMETERS) {
    if (GIVEN_APART.has(name)) continue;
    // An empty text (the efficiency overrides) is the core's default: not given.
    if (kind === 'text' && name !== 'model' && state[name] === '') continue;
    // The state keeps virtual_stages for every schedule; only interleaved 1F1B is given it.
    if (name === 'virtual_stages' && state.schedule !== INTERLEAVED) continue;
    p[name] = state[name];
  }
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
