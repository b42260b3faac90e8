// estimator.js — the only module of the page that talks to the engine
// (web/engine-client.js, a worker running the WebAssembly build of the C
// core). Components get results through the hooks below: the engine, the
// calculator's estimate, the Plan tab's sweep and the Compare tab's plan.

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { createEngineClient } from '../engine-client.js';
import { toParams, configOf } from './state.js';
import { curveFactors } from './routing-curve.js';
import { setNames } from './names.js';
import { keptEvents, timelineRank } from './timeline-data.js';
import { recentAnswers } from '../recent-answers.js';

/**
 * The longest schedule the timeline shows whole. A rank with more events
 * gets a window of this many events centred on its peak.
 */
export const TIMELINE_LIMIT = 4000;

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
 * presets and the parameter descriptions.
 * Returns { client, presets, parameters, version, error }.
 */
export function useEngine() {
  const [engine, setEngine] = useState({ client: null, presets: null, parameters: null, version: '', error: null });
  useEffect(() => {
    let live = true;
    (async () => {
      const client = await engineClient();
      const [presets, parameters, names] = await Promise.all([client.presets(), client.parameters(), client.names()]);
      setNames(names);
      if (live) setEngine({ client, presets, parameters, version: client.version, error: null });
    })().catch((e) => {
      if (live) setEngine((s) => ({ ...s, error: `The calculator engine could not start: ${e.message}` }));
    });
    return () => {
      live = false;
    };
  }, []);
  return engine;
}

/**
 * The engine call behind one view of `state`: one estimate
 * (memest_estimate_view, latest wins while a slider moves) that carries the
 * shown rank's timeline — whole when its schedule has at most
 * TIMELINE_LIMIT events, else a window around its peak — the suggestions
 * only when `suggestions` is true (they are on screen), and, when one rank
 * is chosen (pp_rank >= 0), every rank's peak for the per-rank chart. The
 * timeline's components come as one array per component
 * (event_components), which parses in half the time of an object per
 * event, and its events apart from the result, parsed only when they are
 * first read (timeline-apart.js). Where the browser can move a canvas to
 * the worker, the worker also draws the timeline there as it answers
 * (useTimelineCanvas). On invalid inputs, validate() explains them.
 * Resolves to { result, timeline, ranks, suggested } or { problems }, or
 * null when a newer request replaced this one.
 */
export async function estimateView(client, state, { suggestions = false } = {}) {
  const config = configOf(state);
  const params = toParams(state, { detail: state.detail });
  const result = await client.estimate(config, params, { latestWins: true, view: pageView(suggestions) });
  if (result.superseded) return null;
  if (result.error) {
    const problems = await client.validate(config, params);
    return { problems: problems.length ? problems : [result.error] };
  }
  const timeline = timelineRank(result);
  const ranks = result.every_rank ? { ...result, ...result.every_rank } : result;
  return { result, timeline, ranks, suggested: suggestions };
}

/** What a page view estimate asks of the engine besides the inputs. */
function pageView(suggestions) {
  return {
    suggestions, timeline_window: TIMELINE_LIMIT, every_rank: true, timeline_columns: true, timeline_apart: true,
    draw_timeline: canDrawOffThread(),
  };
}

/**
 * Has the worker draw the timeline of an answer the page kept
 * (recentAnswers): the worker keeps the same answers, so it draws without
 * estimating again. Asked in turn with the estimates (latest wins), so the
 * canvas ends on what the page shows.
 */
function redrawKept(client, state, suggestions) {
  if (!canDrawOffThread()) return;
  client.estimate(configOf(state), toParams(state, { detail: state.detail }), {
    latestWins: true, view: { ...pageView(suggestions), draw_only: true },
  }).catch(() => {});
}

/** The answers a page keeps: enough for a slider moved to and fro over a few values. */
export const KEPT_ANSWERS = 8;

/**
 * About how many bytes an answer takes once its timeline is read: the
 * shown rank's events (a few hundred bytes each) and the rest.
 */
function answerSize(r) {
  const kept = r?.timeline ? keptEvents(r.timeline) : 0;
  return 400 * kept + 64 * 1024;
}

/** Whether this browser can move a canvas to the engine's worker (OffscreenCanvas). */
export function canDrawOffThread() {
  return typeof HTMLCanvasElement === 'function' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function';
}

/**
 * The timeline's canvas, drawn by the engine's worker: on mount the canvas
 * element (`canvasRef`) moves there (transferControlToOffscreen) with
 * `look` ({width, height, dpr, scheme, zoom}, CSS px); a changed look is
 * sent on; on unmount the worker lets the canvas go. Every page view
 * estimate is then drawn on it as it is answered (estimateView), and
 * `onDrawn(signature)` hears timelineSignature() of each drawing. Returns
 * true while the worker draws it, false where the page must.
 */
export function useTimelineCanvas(canvasRef, look, onDrawn) {
  const [offThread, setOffThread] = useState(canDrawOffThread);
  const sent = useRef('');
  const heard = useRef(onDrawn);
  heard.current = onDrawn;
  const key = JSON.stringify(look);
  useLayoutEffect(() => {
    if (!offThread || !canvasRef.current) return undefined;
    let offscreen;
    try {
      offscreen = canvasRef.current.transferControlToOffscreen();
    } catch {
      setOffThread(false);
      return undefined;
    }
    sent.current = key;
    let live = true;
    let stop = () => {};
    const attached = engineClient().then((c) => {
      if (live) stop = c.onTimelineDrawn((signature) => heard.current(signature));
      return c.timelineCanvas(offscreen, look).then(() => c);
    });
    return () => {
      live = false;
      stop();
      attached.then((c) => c.timelineRelease()).catch(() => {});
    };
  }, []);
  useEffect(() => {
    if (!offThread || key === sent.current) return;
    sent.current = key;
    engineClient().then((c) => c.timelineLook(look)).catch(() => {});
  }, [key]);
  return offThread;
}

/** viewKey()'s keys by state, with and without suggestions: a change asks for them four times. */
const viewKeys = new WeakMap();

/** What tells one calculator estimate from another: its inputs and whether it has suggestions. */
function viewKey(state, suggestions) {
  let keys = viewKeys.get(state);
  if (!keys) viewKeys.set(state, (keys = {}));
  const k = suggestions ? 'with' : 'without';
  return (keys[k] ??= JSON.stringify([configOf(state), toParams(state, { detail: state.detail }), suggestions]));
}

/**
 * Estimates `state` whenever it changes; an answer is shown unless a newer
 * one is already on screen. Returns [view, ask]:
 *   view { result, timeline, ranks, problems, stale, pending, error, seq }:
 * `result` is the last good estimate, `timeline` its shown rank with
 * events, `ranks` a result with every rank, `suggested` whether its
 * suggestions were computed (`suggestions`: they are on screen); `problems` (from validate)
 * explain why the current inputs give none, and then `stale` is true.
 *   ask(state) starts the estimate of a state before it is rendered
 * (useAskedUpdate): the render then takes that answer instead of asking
 * again. Resolves once the answer is in (null when superseded).
 *   present(state, answer) shows ask(state)'s answer now, in the render
 * that applies the change it was asked for, so that the inputs and their
 * results render once, not twice; the render of `state` then asks nothing.
 *   estimates(state) tells whether `state` needs an estimate other than
 * the one on screen (or on its way): its key differs from the rendered
 * state's.
 */
export function useEstimate(client, state, { suggestions = false } = {}) {
  const [view, setView] = useState({
    result: null, timeline: null, ranks: null, problems: NO_PROBLEMS, stale: false, pending: true, error: null, seq: 0,
    suggested: false,
  });
  const sent = useRef(0);
  const shown = useRef(0);
  // Only the calculator's inputs start an estimate (not the Plan and
  // Compare tabs' own fields).
  const key = viewKey(state, suggestions);
  const latest = useRef(state);
  latest.current = state;
  // The last estimate asked for, by key, until a newer one replaces it.
  const asked = useRef({ key: '', answer: /** @type {Promise<any> | null} */ (null) });
  // The last answers, by key: a slider moved back to a value it had is
  // answered at once, in the task of its move.
  const kept = useRef(/** @type {import('../recent-answers.js').RecentAnswers<any> | null} */ (null));
  kept.current ??= recentAnswers({ entries: KEPT_ANSWERS, bytes: 32 * 1024 * 1024 });
  const ask = useCallback((s) => {
    if (!client) return Promise.resolve(null);
    const k = viewKey(s, suggestions);
    if (asked.current.key === k && asked.current.answer) return asked.current.answer;
    const known = kept.current.get(k);
    if (known) {
      asked.current = { key: k, answer: Promise.resolve(known) };
      redrawKept(client, s, suggestions);
      return asked.current.answer;
    }
    const answer = estimateView(client, s, { suggestions }).then((r) => {
      if (r === null && asked.current.answer === answer) asked.current = { key: '', answer: null };
      if (r) kept.current.put(k, r, answerSize(r));
      return r;
    });
    asked.current = { key: k, answer };
    return answer;
  }, [client, suggestions]);
  /** Shows `next` as estimate `seq` unless a later one is on screen. */
  const show = useCallback((seq, next) => {
    if (seq < shown.current) return;
    shown.current = seq;
    setView((v) => ({ ...v, ...next, pending: seq < sent.current, seq }));
  }, []);
  const showAnswer = useCallback((seq, r) => {
    if (r.problems) show(seq, { problems: r.problems, stale: true, error: null });
    else show(seq, { ...r, problems: NO_PROBLEMS, stale: false, error: null });
  }, [show]);
  // The key of the state whose answer present() showed, until a render's
  // effect looks at it.
  const presented = useRef('');
  const present = useCallback((s, r) => {
    if (!r) return;
    presented.current = viewKey(s, r.suggested ?? suggestions);
    showAnswer(++sent.current, r);
  }, [suggestions, showAnswer]);
  // A layout effect starts the estimate right after the render instead of
  // after the next frame, which a slider would feel. A state rendered with
  // its answer (present) needs none.
  useLayoutEffect(() => {
    if (!client) return;
    const done = presented.current === key;
    presented.current = '';
    if (done) return;
    const seq = ++sent.current;
    ask(latest.current)
      .then((r) => r && showAnswer(seq, r))
      .catch((e) => show(seq, { error: `The estimate failed: ${e.message}` }));
  }, [client, key]);
  const rendered = useRef(key);
  rendered.current = key;
  const estimates = useCallback((s) => viewKey(s, suggestions) !== rendered.current, [suggestions]);
  return /** @type {[typeof view, (s: any) => Promise<any>, (s: any, r: any) => void, (s: any) => boolean]} */ (
    [view, ask, present, estimates]);
}

/** The longest an input change waits for its estimate before it is rendered alone. */
export const ASK_AHEAD_MS = 50;

/**
 * update(patch) for the calculator's state that asks for the new state's
 * estimate first (`ask`, useEstimate's) and renders the change when that
 * answer is in (shown by `present`, useEstimate's, in the same render), or
 * after ASK_AHEAD_MS at the latest: the inputs and the results they give
 * then change in one render and one frame, not in two. A change that
 * leaves the estimate as it is (`estimates`, useEstimate's: a Plan or
 * Compare field, say) renders at once: a render meanwhile would show the
 * control as it was.
 * Patches that arrive while one waits are merged into it, in order, and
 * applied to the state as it is then (setState's updater), so a change
 * made meanwhile by other means (a fix, a link) is kept.
 * @param {(f: (s: any) => any) => void} setState
 * @param {any} state  the state on screen
 * @param {(s: any) => Promise<any>} ask
 * @param {(s: any, answer: any) => void} present
 * @param {(s: any) => boolean} estimates
 * @returns {(patch: Record<string, unknown>) => void}
 */
export function useAskedUpdate(setState, state, ask, present, estimates) {
  const shown = useRef(state);
  shown.current = state;
  const waiting = useRef(/** @type {{patch: Record<string, unknown>, timer: any, asks: number} | null} */ (null));
  const engine = useRef({ ask, present, estimates });
  engine.current = { ask, present, estimates };
  useEffect(() => () => clearTimeout(waiting.current?.timer), []);
  return useCallback((patch) => {
    // `ready` is the state the answer was asked for, built on `base`: when
    // the state is still `base`, it is that object, whose estimate key is
    // already known (viewKey).
    const apply = (ready = null, base = null) => {
      const w = waiting.current;
      if (!w) return;
      waiting.current = null;
      clearTimeout(w.timer);
      setState((s) => (ready && s === base ? ready : { ...s, ...w.patch }));
    };
    if (waiting.current) waiting.current.patch = { ...waiting.current.patch, ...patch };
    else waiting.current = { patch: { ...patch }, timer: setTimeout(apply, ASK_AHEAD_MS), asks: 0 };
    const mine = waiting.current;
    const n = ++mine.asks;
    const base = shown.current;
    const asked = { ...base, ...mine.patch };
    if (!engine.current.estimates(asked)) {
      apply();
      return;
    }
    // Only the answer for every patch so far renders the change.
    const mineStill = () => waiting.current === mine && mine.asks === n;
    engine.current.ask(asked).then((r) => {
      if (!mineStill()) return;
      engine.current.present(asked, r);
      apply(asked, base);
    }, () => mineStill() && apply());
  }, [setState]);
}

/**
 * The routing chart's curve for the estimate on screen: the peak at each
 * factor of curveFactors(result.routing), asked once the estimate has been
 * shown for CURVE_DELAY_MS (a moving slider asks none) and computed by the
 * worker in small pieces, so that a slider's next estimate never waits
 * long for it; a newer estimate stops the old curve.
 * While an estimate is still on its way (`pending`) no curve is asked; the
 * last one stays on screen. Returns { curve: {factors, peak_bytes} | null,
 * key }, key naming the inputs the curve belongs to.
 */
export function useRoutingCurve(client, state, result, pending) {
  const [view, setView] = useState({ curve: null, key: '' });
  const routing = result?.routing;
  const key = routing?.applies && !pending
    ? JSON.stringify([configOf(state), toParams(state), routing.cap, routing.margin]) : '';
  const latest = useRef(state);
  latest.current = state;
  useEffect(() => {
    if (!client || !key) return undefined;
    const controller = new AbortController();
    /** @type {Record<string, any>} */
    const params = { ...toParams(latest.current), pp_rank: -1 };
    delete params.routing;
    delete params.routing_factor;
    delete params.ep_imbalance;
    const ask = () => client.routingCurve(configOf(latest.current), params, curveFactors(routing), { signal: controller.signal })
      .then((r) => {
        if (!controller.signal.aborted && !r.cancelled && !r.error) setView({ curve: r, key });
      }, () => {});
    const timer = setTimeout(ask, CURVE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, key]);
  return routing?.applies ? view : { curve: null, key: '' };
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
 * The Compare tab's plan (`memest compare`) for `request`
 * (compareRequest(), or null), asked while `active`. Returns
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
    client.plan(config, request).then(
      (r) => show(r.error ? { result: null, error: r.error } : { result: r, error: null }),
      (e) => show({ result: null, error: { message: `The comparison failed: ${e.message}` } }),
    );
  }, [client, key, active]);
  return { ...view, want: key };
}
