// measured.js — the measured run beside the estimate: snapshots and log
// lines read by the engine (the core's restricted unpickler and log
// parser), kept in this browser only. Not part of the URL state: a shared
// link never carries a snapshot. Pure helpers for the charts, and the hook
// that holds what was dropped or pasted. See docs/measured-runs.md.

import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';

/** A snapshot's curve is reduced to this many points by the engine. */
export const CURVE_POINTS = 1200;

/** True when the file is a pickle (by its first byte, 0x80 PROTO) or named one. */
export function isPickle(name, bytes) {
  return /\.pickle$|\.pkl$/i.test(name) || (bytes.length > 0 && bytes[0] === 0x80);
}

/**
 * The markers of the per-rank chart: the largest measured peak of each
 * pipeline rank, with its source. The log's figure (a MAX over every rank)
 * is one marker for the worst rank when no snapshot gives that rank.
 * @param {{name: string, ppRank: number, data: any}[]} snapshots
 * @param {any} log  memest_runlog_json, or null
 * @param {number} worst  the estimate's worst rank
 * @returns {{pp_rank: number, bytes: number, source: string}[]}
 */
export function markersFor(snapshots, log, worst) {
  /** @type {Map<number, {pp_rank: number, bytes: number, source: string}>} */
  const by = new Map();
  for (const s of snapshots) {
    if (s.ppRank < 0) continue;
    const bytes = s.data.peak_allocated_bytes;
    const had = by.get(s.ppRank);
    if (!had || bytes > had.bytes) by.set(s.ppRank, { pp_rank: s.ppRank, bytes, source: s.name });
  }
  if (log && worst >= 0 && !by.has(worst)) {
    by.set(worst, { pp_rank: worst, bytes: log.compared_bytes, source: 'log (largest over all ranks)' });
  }
  return [...by.values()].sort((a, b) => a.pp_rank - b.pp_rank);
}

/**
 * The measured curve on a normalised axis (0 at the first trace entry, 1
 * at the last), with the estimate's tensor bytes after each event of the
 * same rank's timeline on the same axis, when one is given. The two are
 * not aligned in time: the snapshot records wall-clock microseconds, the
 * estimate events of the schedule.
 * @param {any} snap  memest_snapshot_json
 * @param {any} [timelineRank]  a result rank with events, or null
 * @returns {{x: number[], measured: (number|null)[], estimated: (number|null)[] | null}}
 */
export function curveData(snap, timelineRank) {
  const t = snap.curve.t_us;
  const b = snap.curve.bytes;
  const t0 = t[0];
  const span = t[t.length - 1] - t0 || 1;
  const mx = t.map((v) => (v - t0) / span);
  const ev = timelineRank?.events ?? [];
  if (!ev.length) return { x: mx, measured: b.map((v) => v / 2 ** 30), estimated: null };
  const ex = ev.map((_, i) => (ev.length > 1 ? i / (ev.length - 1) : 0));
  // One x axis for both: merge the two sorted lists; a series is null where
  // it has no point (uPlot draws a line across the gaps with spanGaps).
  const x = [];
  const measured = [];
  const estimated = [];
  let i = 0;
  let j = 0;
  while (i < mx.length || j < ex.length) {
    if (j >= ex.length || (i < mx.length && mx[i] <= ex[j])) {
      x.push(mx[i]);
      measured.push(b[i] / 2 ** 30);
      estimated.push(null);
      i++;
    } else {
      x.push(ex[j]);
      measured.push(null);
      estimated.push(ev[j].total_bytes / 2 ** 30);
      j++;
    }
  }
  return { x, measured, estimated };
}

/** The snapshot with the largest measured peak, or null. */
export function largest(snapshots) {
  let best = null;
  for (const s of snapshots) if (!best || s.data.peak_allocated_bytes > best.data.peak_allocated_bytes) best = s;
  return best;
}

/** The fragmentation a measured run suggests, as the estimate's input (0..1, 3 decimals). */
export function fragmentationInput(snap) {
  return Math.min(1, Math.max(0, Math.round(snap.fragmentation * 1000) / 1000));
}

/**
 * Where a log's own launch line differs from the calculator's inputs
 * `state`: [{field, log, page}] for each input the line sets otherwise
 * (`patch`: applyRun's, the inputs the line gives), the model included
 * (a preset, or a config the line names among the files). Empty when the
 * runs are alike, or when the line gave nothing.
 * @param {Record<string, any>} patch  @param {Record<string, any>} state
 * @returns {{field: string, log: any, page: any}[]}
 */
export function launchDifferences(patch, state) {
  const out = [];
  for (const [field, value] of Object.entries(patch ?? {})) {
    if (field === 'config' || field === 'view') continue;
    // The GPU's capacity counts only for a custom GPU, and the patch keeps the page's.
    if (field === 'gpu_memory_gb') continue;
    if (field === 'model') {
      if (value !== state.model || (patch.config ?? '') !== (state.config ?? '')) out.push({ field, log: value, page: state.model });
      continue;
    }
    if (value !== state[field]) out.push({ field, log: value, page: state[field] });
  }
  return out;
}

/**
 * What was dropped or pasted, read by the engine. Props of the run: the
 * state's pp_size and total_gpus give each snapshot its pipeline rank.
 * @param {any} client  the engine client, or null while it starts
 * @param {number} ppSize
 * @param {number} totalGpus
 */
export function useMeasured(client, ppSize, totalGpus) {
  const [snapshots, setSnapshots] = useState(/** @type {any[]} */ ([]));
  const [log, setLog] = useState(/** @type {any} */ (null));
  const [problems, setProblems] = useState(/** @type {{source: string, message: string}[]} */ ([]));
  const [busy, setBusy] = useState(false);
  // The log's own launch line, read as the trainer's files are
  // (readTrainerFiles): {answer, texts}, or null when it has none.
  const [launch, setLaunch] = useState(/** @type {{answer: any, texts: Record<string, string>} | null} */ (null));
  const readLaunch = useCallback(async (name, text) => {
    const texts = { [name]: text };
    const answer = await client.readTrainerFiles({ kind: 'log', files: texts });
    setLaunch(answer && !answer.error ? { answer, texts } : null);
  }, [client]);

  // Pipeline ranks follow the layout shown.
  useEffect(() => {
    if (!client || !snapshots.length) return;
    let live = true;
    Promise.all(snapshots.map((s) => (s.rank >= 0 ? client.ppRankOf(s.rank, ppSize, totalGpus) : -1))).then((pp) => {
      if (!live || pp.every((r, i) => r === snapshots[i].ppRank)) return;
      setSnapshots((list) => list.map((s, i) => (s === snapshots[i] ? { ...s, ppRank: pp[i] } : s)));
    });
    return () => { live = false; };
  }, [client, snapshots, ppSize, totalGpus]);

  // The layout a dropped file is placed in, read when it arrives, so that
  // addFiles (and the hook's answer) keep their identity while pp moves.
  const layout = useRef({ ppSize, totalGpus });
  layout.current = { ppSize, totalGpus };
  const addFiles = useCallback(async (files) => {
    if (!client) return;
    const { ppSize, totalGpus } = layout.current;
    setBusy(true);
    const bad = [];
    const read = [];
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (isPickle(file.name, bytes)) {
        const data = await client.snapshot(bytes, CURVE_POINTS);
        if (data.error) {
          bad.push({ source: file.name, message: data.error.message });
          continue;
        }
        const rank = await client.rankOfName(file.name);
        const ppRank = rank >= 0 ? await client.ppRankOf(rank, ppSize, totalGpus) : -1;
        if (rank < 0) bad.push({ source: file.name, message: 'the name carries no global rank (the trainer names it snapshot-rankNNNNN.pickle), so it is shown without a pipeline rank' });
        read.push({ name: file.name, rank, ppRank, data });
      } else {
        const text = new TextDecoder().decode(bytes);
        const data = await client.runLog(text);
        if (data.error) bad.push({ source: file.name, message: data.error.message });
        else {
          setLog({ ...data, source: file.name });
          await readLaunch(file.name, text);
        }
      }
    }
    // One update for all the files dropped together.
    const names = new Set(read.map((s) => s.name));
    setSnapshots((list) => [...list.filter((s) => !names.has(s.name)), ...read]);
    setProblems(bad);
    setBusy(false);
  }, [client, readLaunch]);

  const pasteLog = useCallback(async (text) => {
    if (!client) return;
    const data = await client.runLog(text);
    if (data.error) setProblems([{ source: 'pasted log', message: data.error.message }]);
    else {
      setLog({ ...data, source: 'pasted log' });
      setProblems([]);
      await readLaunch('pasted log', text);
    }
  }, [client, readLaunch]);

  const clear = useCallback(() => {
    setSnapshots([]);
    setLog(null);
    setLaunch(null);
    setProblems([]);
  }, []);
  const remove = useCallback((name) => setSnapshots((list) => list.filter((s) => s.name !== name)), []);

  return useMemo(() => ({ snapshots, log, launch, problems, busy, addFiles, pasteLog, clear, remove }),
    [snapshots, log, launch, problems, busy, addFiles, pasteLog, clear, remove]);
}
