// estimator.js — the only module of the page that talks to the engine
// (web/engine-client.js, a worker running the WebAssembly build of the C
// core). Components get results through the hooks below: the engine, the
// calculator's estimate, the Plan tab's sweep, the Compare tab's plan and
// the Schedules tab's estimates.

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { createEngineClient } from '../engine-client.js';
import { DEFAULTS, LAYOUT_INPUTS, MAX_CONFIG_CHARS, toParams, configOf } from './state.js';
import { curveFactors } from './routing-curve.js';
import { parameters } from './names.js';
import { timelineRank } from './timeline-data.js';
import { scheduleNames, scheduleParams, schedulesKey } from './schedules.js';
import { layoutPlan } from './plan/requests.js';

/**
 * The most events the timeline is given in a window `viewportWidth` CSS px
 * wide: about its plot's width in pixels (the plot is the window less the
 * form beside it on a wide screen, less the margins on a one-column one),
 * to the nearest hundred, from 300 to 2,000; so that a schedule of any length costs a
 * move the same. A rank with more events gets this many around its peak.
 */
export function timelineEvents(viewportWidth) {
  const plot = viewportWidth > 900 ? viewportWidth - 560 : viewportWidth - 110;
  return Math.min(2000, Math.max(300, Math.round(plot / 100) * 100));
}

/** timelineEvents() of the window as it is, following its resizing. */
export function useTimelineEvents() {
  const width = () => (typeof innerWidth === 'number' ? innerWidth : 1280);
  const [events, setEvents] = useState(() => timelineEvents(width()));
  useEffect(() => {
    const onResize = () => setEvents(timelineEvents(width()));
    addEventListener('resize', onResize);
    return () => removeEventListener('resize', onResize);
  }, []);
  return events;
}

/** The problems of inputs that have none (one array, so that it compares equal). */
export const NO_PROBLEMS = /** @type {any[]} */ (Object.freeze([]));

/** How long an estimate stays on screen before its routing curve is asked. */
export const CURVE_DELAY_MS = 200;

let clientPromise = null;

/** The engine client, started once per page. */
export function engineClient() {
  clientPromise ??= createEngineClient({
    // The worker is bundled next to the page, so name the engine's files
    // relative to the page rather than to the worker's source location.
    engine: { moduleUrl: new URL('memest.js', document.baseURI).href },
  });
  return clientPromise;
}

/**
 * Starts the engine and loads what the controls list: the model and GPU
 * presets; the parameter descriptions (the core's, core-tables.js) come
 * with them once the engine answers.
 * Returns { client, presets, parameters, version, error }.
 */
export function useEngine() {
  const [engine, setEngine] = useState({ client: null, presets: null, parameters: null, version: '', error: null });
  useEffect(() => {
    let live = true;
    (async () => {
      const client = await engineClient();
      const presets = await client.presets();
      if (live) setEngine({ client, presets, parameters: parameters(), version: client.version, error: null });
    })().catch((e) => {
      if (live) setEngine((s) => ({ ...s, error: `The calculator engine could not start: ${e.message}` }));
    });
    return () => {
      live = false;
    };
  }, []);
  return engine;
}

/** inputsKey()'s keys by state. */
const inputKeys = new WeakMap();

/**
 * What tells one answer from another: the config and the engine
 * parameters of `state` (not what the page asks besides, the suggestions
 * and the per-tensor detail). A card shows the answer for the inputs on
 * screen when its answer's key is the state's.
 */
export function inputsKey(state) {
  let key = inputKeys.get(state);
  if (key === undefined) {
    key = JSON.stringify([configOf(state), toParams(state)]);
    inputKeys.set(state, key);
  }
  return key;
}

/**
 * Inputs every model can take (one GPU, two micro-batches, a capacity of
 * its own), for reading a config while the inputs on screen are invalid.
 */
const PROBE = {
  ...Object.fromEntries(LAYOUT_INPUTS.map((key) => [key, DEFAULTS[key]])),
  pp_size: 1, ep_size: 1, cp_size: 1, total_gpus: 1, micro_batch_size: 1, global_batch_size: 2,
  gpu_memory_gb: DEFAULTS.gpu_memory_gb, pp_rank: -1,
};

/**
 * The model as read from the config on screen, when the inputs are not
 * valid but the config is (no problem names the model, the config or one
 * of its keys): an estimate of the same config on one GPU, of which only
 * `model` is shown. Null otherwise.
 */
async function modelAlone(client, state, problems) {
  const layoutOnly = problems.every((p) => p.field && isInputField(p.field));
  if (!layoutOnly) return null;
  const { model, optimizer, sharding, fp8_training: fp8 } = toParams(state);
  const params = { model, optimizer, sharding, fp8_training: fp8, ...PROBE };
  const r = await client.estimate(configOf(state), params, { view: { timeline_window: 1 } });
  return r && !r.error ? { key: JSON.stringify(configOf(state)), model: r.model, command: r.command } : null;
}

/** Whether `field` names one of the calculator's inputs other than the model. */
function isInputField(field) {
  return field !== 'model' && field !== 'config' && (field in DEFAULTS || field === 'dp' || field === 'num_chunks' || field === 'layout');
}

/**
 * The problem of a config longer than the page takes (a link holds at most
 * MAX_CONFIG_CHARS of it), or null: such a config is on screen, and so an
 * input, but never estimated, so that the cards go stale as for a config
 * the engine refuses.
 * @param {string | null} config
 */
export function configTooLong(config) {
  if (config === null || config.length <= MAX_CONFIG_CHARS) return null;
  return {
    code: 'limit', field: 'config', fix: '',
    message: `this config has ${config.length.toLocaleString('en-US')} characters; the page takes at most ${MAX_CONFIG_CHARS.toLocaleString('en-US')}: remove what the model does not need, or run the CLI on the file`,
  };
}

/**
 * The engine call behind one view of `state`: one estimate
 * (memest_estimate_view, latest wins while a slider moves) that carries the
 * shown rank's timeline (at most `events`, around its peak: timelineEvents()),
 * its components as one array per component; the suggestions only when
 * `suggestions` is true (they are on screen); and, when one rank is chosen
 * (pp_rank >= 0), every rank's peak for the per-rank chart. On invalid
 * inputs, validate() explains them and the config alone is read for the
 * model summary (modelAlone). Resolves to {key, answer} or {key,
 * problems, model}, or null when a newer request replaced this one;
 * `answer` is {key, state, result, timeline, ranks, suggested}.
 */
export async function estimateView(client, state, { suggestions = false, events = 1000 } = {}) {
  const config = configOf(state);
  const params = toParams(state, { detail: state.detail });
  const tooLong = configTooLong(config);
  if (tooLong) return { key: inputsKey(state), problems: [tooLong], model: null };
  const view = { suggestions, timeline_window: events, every_rank: true, timeline_columns: true };
  const result = await client.estimate(config, params, { latestWins: true, view });
  if (result.superseded) return null;
  const key = inputsKey(state);
  if (result.error) {
    const found = await client.validate(config, params);
    const problems = found.length ? found : [result.error];
    return { key, problems, model: await modelAlone(client, state, problems) };
  }
  const ranks = result.every_rank ? { ...result, ...result.every_rank } : result;
  return { key, answer: { key, state, result, timeline: timelineRank(result), ranks, suggested: suggestions } };
}

/**
 * Estimates `state` whenever its request changes (its inputs, the detail
 * open, the timeline's events, the suggestions coming on screen) and keeps
 * what came back. The suggestions leaving the screen ask nothing: the
 * answer keeps those it has until the inputs change. Returns [view, pending, ask]:
 *   view { answer, problems, model, error, seq }: `answer` is the last valid
 * estimate (estimateView's), whatever inputs it was for: a card compares
 * its key with inputsKey() of the state on screen. `problems` (from
 * validate) explain why the last inputs answered gave none, NO_PROBLEMS
 * once they are valid; `model` is then the model as read from their
 * config, or null. The view changes only when an answer comes.
 *   pending: an estimate is on its way (apart from the view, so that
 * asking renders nothing the answer renders).
 *   ask(next): starts the estimate of a state about to be rendered, from
 * the input's own event, so that the worker runs while the page renders
 * the change; the render then asks nothing more for it. The change
 * renders at once either way.
 * @returns {[{answer: any, problems: any[], model: any, error: string | null, seq: number}, boolean, (next: any) => void]}
 */
export function useEstimate(client, state, { suggestions = false, events = 1000 } = {}) {
  const [view, setView] = useState({ answer: null, problems: NO_PROBLEMS, model: null, error: null, seq: 0 });
  const [pending, setPending] = useState(true);
  const sent = useRef({ seq: 0, request: '', suggestions: false });
  const shown = useRef(0);
  const options = useRef({ client, suggestions, events });
  options.current = { client, suggestions, events };
  const requestOf = (s) => `${inputsKey(s)}|${s.detail}|${options.current.events}`;
  /** Asks for `s` unless its request is the last one asked: the same
   * inputs, with the suggestions if they are wanted (suggestions computed
   * stay when their card leaves the screen). An answer that comes after a
   * newer one (an invalid input's, explained by validate() while the next
   * estimate ran) is dropped. */
  const ask = useCallback((s) => {
    const { client: c, suggestions: withSuggestions, events: n } = options.current;
    const request = requestOf(s);
    if (!c || (request === sent.current.request && (!withSuggestions || sent.current.suggestions))) return;
    const seq = ++sent.current.seq;
    sent.current.request = request;
    sent.current.suggestions = withSuggestions;
    const fresh = () => {
      if (seq < shown.current) return false;
      shown.current = seq;
      setPending(seq < sent.current.seq);
      return true;
    };
    setPending(true);
    estimateView(c, s, { suggestions: withSuggestions, events: n }).then((r) => {
      if (!r || !fresh()) return;
      if (r.answer) setView({ answer: r.answer, problems: NO_PROBLEMS, model: null, error: null, seq });
      else setView((v) => ({ ...v, problems: r.problems, model: r.model, error: null, seq }));
    }).catch((e) => fresh() && setView((v) => ({ ...v, error: `The estimate failed: ${e.message}`, seq })));
  }, []);
  // Whatever changed the request without asking (a link, a fix, the
  // suggestions coming on screen) is asked right after its render, not
  // after the next frame, which a slider would feel.
  useLayoutEffect(() => ask(state), [client, requestOf(state), suggestions]);
  return [view, pending, ask];
}

/**
 * The routing chart's curve for `answer` (useEstimate's): the peak at each
 * factor of curveFactors(result.routing), asked once the answer has been
 * on screen for CURVE_DELAY_MS with no estimate on its way (a moving
 * slider asks none) and computed by the worker in small pieces, so that a
 * slider's next estimate never waits long for it; a newer answer stops the
 * old curve. Returns {factors, peak_bytes, key} (key: the answer's) or
 * null; the last curve stays until the next one comes.
 */
export function useRoutingCurve(client, answer, pending) {
  const [curve, setCurve] = useState(/** @type {any} */ (null));
  const routing = answer?.result.routing;
  const ask = routing?.applies && !pending ? answer : null;
  useEffect(() => {
    if (!client || !ask) return undefined;
    const controller = new AbortController();
    /** @type {Record<string, any>} */
    const params = { ...toParams(ask.state), pp_rank: -1 };
    delete params.routing;
    delete params.routing_factor;
    delete params.ep_imbalance;
    const timer = setTimeout(() => {
      client.routingCurve(configOf(ask.state), params, curveFactors(routing), { signal: controller.signal }).then((r) => {
        if (!controller.signal.aborted && !r.cancelled && !r.error) setCurve({ ...r, key: ask.key });
      }, () => {});
    }, CURVE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, ask]);
  return routing?.applies ? curve : null;
}

/** The Plan tab before its first sweep. */
const NO_PLAN = { plan: null, error: null, running: false, stopped: false, progress: null, ms: null, key: '' };

/**
 * The Plan tab's sweep (engine-client.js sweep(): the plan in pieces, with
 * progress). `request` is planRequest()'s, or null when there is none. A
 * sweep starts while `active` (the tab is shown) for a request that has no
 * answer on screen yet; a changed request stops the sweep of the old one at
 * once, shown or not. Returns
 *   { plan, error, running, stopped, progress, ms, key, stop, rerun }:
 * `plan` is the last answer (for the request `key`, which may be an older
 * one), `error` the engine's problem instead, `progress` {done, total,
 * rows} while `running`, `ms` the time from asking to the answer,
 * `stopped` after stop(); rerun() asks again; `want` is the key of
 * today's request ('' for none): the answer is current when key === want.
 */
export function usePlan(client, config, request, active) {
  const key = request ? JSON.stringify([config, request]) : '';
  const [view, setView] = useState(NO_PLAN);
  const [runs, setRuns] = useState(0);
  const job = useRef(null); // { key, controller } of the sweep running
  const settled = useRef(''); // the key whose answer (or stop) is on screen
  useEffect(() => {
    if (job.current && job.current.key !== key) {
      job.current.controller.abort();
      job.current = null;
      setView((v) => ({ ...v, running: false, progress: null }));
    }
    if (!client || !active || !request || job.current || settled.current === key) return;
    const mine = { key, controller: new AbortController() };
    job.current = mine;
    const t0 = performance.now();
    const mineNow = () => job.current === mine;
    setView((v) => ({ ...v, running: true, stopped: false, progress: { done: 0, total: 0, rows: 0 } }));
    const finish = (next) => {
      if (!mineNow()) return;
      job.current = null;
      settled.current = key;
      setView((v) => ({ ...v, running: false, progress: null, ...next }));
    };
    client.sweep(config, request, {
      signal: mine.controller.signal,
      onProgress: (progress) => mineNow() && setView((v) => ({ ...v, progress })),
    }).then((r) => {
      if (r.cancelled) finish({ stopped: true });
      else if (r.error) finish({ plan: null, error: r.error, ms: performance.now() - t0, key });
      else finish({ plan: r, error: null, ms: performance.now() - t0, key });
    }, (e) => finish({ plan: null, error: { message: `The plan failed: ${e.message}` }, key }));
  }, [client, key, active, runs]);
  useEffect(() => () => job.current?.controller.abort(), []);
  const stop = useCallback(() => job.current?.controller.abort(), []);
  const rerun = useCallback(() => {
    settled.current = '';
    setRuns((n) => n + 1);
  }, []);
  return { ...view, stop, rerun, want: key };
}

/**
 * One side of a pair compare as a row of the planner's compare shape: the
 * inputs, status and headline figures, and the worst rank's components.
 * `bubble` is the planner's row of the same layout (layoutPlan), or null.
 */
function pairRow(result, bubble) {
  const worst = result.ranks.find((r) => r.pp_rank === result.worst_rank) ?? result.ranks[0];
  const i = result.inputs;
  return {
    model: i.model, ...Object.fromEntries(LAYOUT_INPUTS.map((key) => [key, i[key]])), dp: result.derived.dp,
    num_chunks: result.derived.num_chunks, routing: i.routing, routing_factor: result.routing?.factor ?? null,
    schedule: i.schedule, virtual_stages: i.virtual_stages,
    status: result.status, peak_bytes: result.peak_bytes, headroom_bytes: result.headroom_bytes,
    tensor_peak_bytes: result.tensor_peak_bytes, bubble_fraction: bubble?.bubble_fraction ?? null,
    non_pytorch_bytes: worst.non_pytorch_bytes, fragmentation_bytes: worst.fragmentation_bytes,
    static: worst.static, dynamic: worst.dynamic,
  };
}

/** B − A of every figure of two pair rows (the planner's `delta`). */
function pairDelta(a, b) {
  const d = {};
  for (const k of ['peak_bytes', 'headroom_bytes', 'tensor_peak_bytes', 'non_pytorch_bytes', 'fragmentation_bytes']) d[k] = b[k] - a[k];
  for (const group of ['static', 'dynamic']) {
    d[group] = Object.fromEntries(Object.keys({ ...a[group], ...b[group] }).map((k) => [k, (b[group][k] ?? 0) - (a[group][k] ?? 0)]));
  }
  return d;
}

/**
 * Two configurations the planner cannot compare in one plan (two models,
 * two routings): an estimate of each, with its pipeline bubble from a plan
 * of its one layout; the planner's compare shape, {mode, rows: [a, b]}, or
 * {error} naming the side.
 */
async function comparePair(client, request) {
  const sides = [['A', request.a], ['B', request.b]];
  const view = { suggestions: false, timeline_window: 1, every_rank: false, timeline_columns: true };
  const results = await Promise.all(sides.map(([, s]) => client.estimate(s.config, s.params, { view })));
  for (const [i, r] of results.entries()) {
    if (r.error) return { error: { ...r.error, message: `${sides[i][0]}: ${r.error.message}` } };
  }
  const plans = await Promise.all(sides.map(([, s]) => client.plan(s.config, s.plan)));
  const bubbles = plans.map((p) => (p.error ? null : p.rows?.find((r) => r.status !== 'INVALID') ?? null));
  const a = pairRow(results[0], bubbles[0]);
  const b = pairRow(results[1], bubbles[1]);
  return { mode: 'compare', rows: [a, { ...b, delta: pairDelta(a, b) }] };
}

/**
 * The Compare tab's plan (`memest compare`) for `request`
 * (compareRequest(), or null), asked while `active`; a pair request (two
 * models or two routings) is two estimates (comparePair). Returns
 *   { result, error, pending, key, want }: the answer is current when
 *   key === want.
 */
export function useCompare(client, config, request, active) {
  const key = request ? JSON.stringify([config, request]) : '';
  const [view, setView] = useState({ result: null, error: null, pending: false, key: '' });
  const sent = useRef(0);
  const settled = useRef('');
  useEffect(() => {
    if (!client || !active || !request || settled.current === key) return;
    const seq = ++sent.current;
    setView((v) => ({ ...v, pending: true }));
    const show = (next) => {
      if (seq !== sent.current) return;
      settled.current = key;
      setView({ pending: false, key, ...next });
    };
    (request.mode === 'pair' ? comparePair(client, request) : client.plan(config, request)).then(
      (r) => show(r.error ? { result: null, error: r.error } : { result: r, error: null }),
      (e) => show({ result: null, error: { message: `The comparison failed: ${e.message}` } }),
    );
  }, [client, key, active]);
  return { ...view, want: key };
}

/** The Schedules tab before its first answer. */
const NO_SCHEDULES = { answers: null, error: null, pending: false, key: '', state: null };

/** The most events each schedule's timeline is given on the Schedules tab (every one, when fewer). */
export const SCHEDULE_EVENTS = 2000;

/**
 * One schedule's answer for the Schedules tab: an estimate of `state` under
 * `schedule` with its worst rank's timeline (the columns form), and, when
 * the estimate has no step time (no GPU kind), the plan of its one layout
 * for the schedule's formula bubble. {schedule, result, timeline, bubble}
 * or {schedule, error} (the engine's refusal: a layout the schedule cannot
 * take).
 */
async function scheduleAnswer(client, state, schedule) {
  const view = { suggestions: false, timeline_window: SCHEDULE_EVENTS, every_rank: false, timeline_columns: true };
  const result = await client.estimate(configOf(state), scheduleParams(state, schedule), { view });
  if (result.error) return { schedule, error: result.error };
  let bubble = null;
  if (!result.time) {
    const plan = await client.plan(configOf(state), layoutPlan({ ...state, schedule }));
    bubble = plan.error ? null : plan.rows?.find((r) => r.status !== 'INVALID')?.bubble_fraction ?? null;
  }
  return { schedule, result, timeline: timelineRank(result), bubble };
}

/**
 * The Schedules tab's answers: the calculator's inputs under every schedule
 * the core replays (scheduleAnswer, one after another in the worker), asked
 * while `active` (the tab is shown) for inputs whose answer is not on
 * screen. Returns { answers, error, pending, key, state, want }: the
 * answers are for `state`, and for the inputs on screen when key === want
 * (schedulesKey()).
 */
export function useSchedules(client, state, active) {
  const want = schedulesKey(state);
  const [view, setView] = useState(NO_SCHEDULES);
  const sent = useRef(0);
  const settled = useRef('');
  const latest = useRef(state);
  latest.current = state;
  useEffect(() => {
    if (!client || !active || settled.current === want) return;
    const seq = ++sent.current;
    const s = latest.current;
    const show = (next) => {
      if (seq !== sent.current) return;
      settled.current = want;
      setView({ pending: false, key: want, state: s, ...next });
    };
    const tooLong = configTooLong(configOf(s));
    if (tooLong) {
      show({ answers: null, error: tooLong });
      return;
    }
    setView((v) => ({ ...v, pending: true }));
    Promise.all(scheduleNames().map((name) => scheduleAnswer(client, s, name))).then(
      (answers) => show({ answers, error: null }),
      (e) => show({ answers: null, error: { message: `The schedules failed: ${e.message}` } }),
    );
  }, [client, want, active]);
  return { ...view, want };
}
