// estimator.js — the only module of the page that talks to the engine
// (web/engine-client.js, a worker running the WebAssembly build of the C
// core). Components get results through the two hooks below.

import { useEffect, useRef, useState } from 'preact/hooks';
import { createEngineClient } from '../engine-client.js';
import { toParams, configOf } from './state.js';

/**
 * Events requested per rank for the timeline. A schedule of up to this many
 * events comes back whole (the same as timeline_limit 0); a longer one comes
 * back as a window of this many events centred on the peak.
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
 * Estimates `state` whenever it changes. Answers arrive in request order and
 * a newer one always replaces an older one; while a slider moves, requests
 * that a newer one overtook are skipped by the client ("latest wins").
 * Returns { result, problems, stale, pending, error, seq }: `result` is the
 * last good estimate; `problems` (from validate) explain why the current
 * inputs give none, and then `stale` is true.
 */
export function useEstimate(client, state) {
  const [view, setView] = useState({ result: null, problems: [], stale: false, pending: true, error: null, seq: 0 });
  const sent = useRef(0);
  const shown = useRef(0);
  useEffect(() => {
    if (!client) return;
    const seq = ++sent.current;
    const config = configOf(state);
    const params = toParams(state, { timeline: true, timelineLimit: TIMELINE_LIMIT, detail: state.detail });
    const show = (next) => {
      if (seq < shown.current) return;
      shown.current = seq;
      setView((v) => ({ ...v, ...next, pending: seq < sent.current, seq }));
    };
    client
      .estimate(config, params, { latestWins: true })
      .then(async (r) => {
        if (r.superseded) return;
        if (!r.error) {
          show({ result: r, problems: [], stale: false, error: null });
          return;
        }
        const problems = await client.validate(config, params);
        show({ problems: problems.length ? problems : [r.error], stale: true, error: null });
      })
      .catch((e) => show({ error: `The estimate failed: ${e.message}` }));
  }, [client, state]);
  return view;
}
