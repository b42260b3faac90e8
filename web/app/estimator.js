// estimator.js — the only module of the page that talks to the engine
// (web/engine-client.js, a worker running the WebAssembly build of the C
// core). Components get results through the two hooks below.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { createEngineClient } from '../engine-client.js';
import { toParams, configOf } from './state.js';

/**
 * The longest schedule the timeline shows whole. A rank with more events
 * gets a window of this many events centred on its peak.
 */
export const TIMELINE_LIMIT = 4000;

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
      const [presets, parameters] = await Promise.all([client.presets(), client.parameters()]);
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
 * The engine calls behind one view of `state`:
 *   1. the estimate itself (latest wins while a slider moves);
 *   2. the shown rank again with its timeline: whole when the schedule has
 *      at most TIMELINE_LIMIT events (timeline_limit 0), else a window;
 *   3. when one rank is shown, every rank, for the per-rank chart.
 * Asking for the timeline of one rank rather than of all keeps the answer
 * small (a rank's schedule can run to thousands of events).
 * Resolves to { result, timeline, ranks } or { problems }, or null when a
 * newer request replaced this one.
 */
export async function estimateView(client, state) {
  const config = configOf(state);
  const params = toParams(state, { detail: state.detail });
  const result = await client.estimate(config, params, { latestWins: true });
  if (result.superseded) return null;
  if (result.error) {
    const problems = await client.validate(config, params);
    return { problems: problems.length ? problems : [result.error] };
  }
  const rank = result.ranks.find((r) => r.pp_rank === result.worst_rank) ?? result.ranks[0];
  const limit = rank.events_total <= TIMELINE_LIMIT ? 0 : TIMELINE_LIMIT;
  const base = toParams(state);
  const [withTimeline, all] = await Promise.all([
    client.estimate(config, { ...base, pp_rank: rank.pp_rank, timeline: true, timeline_limit: limit }),
    state.pp_rank >= 0 ? client.estimate(config, { ...base, pp_rank: -1 }) : result,
  ]);
  const timeline = withTimeline.error ? null : withTimeline.ranks.find((r) => r.pp_rank === rank.pp_rank) ?? null;
  return { result, timeline, ranks: all.error ? result : all };
}

/**
 * Estimates `state` whenever it changes; an answer is shown unless a newer
 * one is already on screen. Returns
 *   { result, timeline, ranks, problems, stale, pending, error, seq }:
 * `result` is the last good estimate, `timeline` its shown rank with
 * events, `ranks` a result with every rank; `problems` (from validate)
 * explain why the current inputs give none, and then `stale` is true.
 */
export function useEstimate(client, state) {
  const [view, setView] = useState({
    result: null, timeline: null, ranks: null, problems: [], stale: false, pending: true, error: null, seq: 0,
  });
  const sent = useRef(0);
  const shown = useRef(0);
  // A layout effect starts the estimate right after the render instead of
  // after the next frame, which a slider would feel.
  useLayoutEffect(() => {
    if (!client) return;
    const seq = ++sent.current;
    const show = (next) => {
      if (seq < shown.current) return;
      shown.current = seq;
      setView((v) => ({ ...v, ...next, pending: seq < sent.current, seq }));
    };
    estimateView(client, state)
      .then((r) => {
        if (!r) return;
        if (r.problems) show({ problems: r.problems, stale: true, error: null });
        else show({ ...r, problems: [], stale: false, error: null });
      })
      .catch((e) => show({ error: `The estimate failed: ${e.message}` }));
  }, [client, state]);
  return view;
}
