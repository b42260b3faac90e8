// downloads.js — the answer on screen as files that leave the page: the
// JSON object `memest --json` prints for the same inputs, a CSV of every
// rank's memory components at its peak, and a CSV of the shown rank's
// timeline, every event of its schedule with its time and components. Each is asked
// of the engine at the click, for the inputs of the answer shown (which
// its cards name in data-answer-for), and saved by the browser.

import { ALL_PARTS } from './palette.js';
import { configOf, toParams } from './state.js';

/** The fields of a CSV row, quoted where they need it (RFC 4180). */
export function csvLine(fields) {
  return fields.map((f) => {
    const text = f === null || f === undefined ? '' : String(f);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }).join(',');
}

/** The component keys of a rank's peak, static then dynamic (the result's order). */
function componentKeys(rank) {
  return [...Object.keys(rank.static ?? {}), ...Object.keys(rank.dynamic ?? {})];
}

/**
 * Every rank of `result` (`memest --json`'s object) at its peak: one row a
 * rank, its peak, tensors, non-PyTorch memory, fragmentation and each
 * component, in bytes.
 */
export function ranksCsv(result) {
  const keys = componentKeys(result.ranks[0] ?? {});
  const lines = [csvLine(['pp_rank', 'peak_bytes', 'tensor_peak_bytes', 'non_pytorch_bytes', 'fragmentation_bytes', ...keys])];
  for (const r of result.ranks) {
    const at = { ...r.static, ...r.dynamic };
    lines.push(csvLine([r.pp_rank, r.peak_bytes, r.tensor_peak_bytes, r.non_pytorch_bytes, r.fragmentation_bytes, ...keys.map((k) => at[k])]));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * A rank's timeline (`memest --json --timeline` events, each with its
 * components): one row an event, its op's end in the step (t_seconds, when
 * the estimate has a step time), its step, label, live chunks of each
 * module the rank holds, the tensors
 * after the op and inside it, and each component, in bytes.
 */
export function timelineCsv(rank) {
  const keys = ALL_PARTS.map(([k]) => k);
  const events = rank.events ?? [];
  const timed = events.length > 0 && events.every((e) => typeof e.t_seconds === 'number');
  // One live-chunk column per module the rank holds (the schedule's: 2 under DualPipeV, 1 under 1F1B, v interleaved).
  const modules = Math.max(1, ...events.map((e) => e.live_chunks?.length ?? 0));
  const live = Array.from({ length: modules }, (_, m) => m);
  const lines = [csvLine(['event', ...(timed ? ['t_seconds'] : []), 'step', 'label', ...live.map((m) => `live_chunks_${m}`), 'total_bytes', 'peak_bytes', ...keys])];
  for (const e of events) {
    lines.push(csvLine([e.index, ...(timed ? [e.t_seconds] : []), e.step, e.label, ...live.map((m) => e.live_chunks?.[m]), e.total_bytes, e.peak_bytes,
      ...keys.map((k) => e.components?.[k] ?? 0)]));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves `text` as a file called `name` through the browser's download. */
export function saveFile(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name for `state`'s answer: "memest-qwen3-30b-a3b-pp4-ep8-cp1-32gpus". */
export function fileStem(state) {
  const model = String(state.model).replace(/[^A-Za-z0-9._+-]+/g, '-');
  return `memest-${model}-pp${state.pp_size}-ep${state.ep_size}-cp${state.cp_size}-${state.total_gpus}gpus`;
}

/**
 * Asks the engine for `kind` of `state`'s answer and saves it: 'json' (the
 * CLI's object), 'ranks' (ranksCsv) or 'timeline' (timelineCsv of rank
 * `ppRank`). Resolves to null, or to the engine's problem.
 */
export async function download(client, state, kind, ppRank) {
  const config = configOf(state);
  const params = toParams(state);
  if (kind === 'timeline') {
    const r = await client.estimate(config, { ...params, pp_rank: ppRank, timeline: true, timeline_limit: 0 });
    if (r.error) return r.error;
    saveFile(`${fileStem(state)}-timeline-rank${ppRank}.csv`, timelineCsv(r.ranks[0]), 'text/csv');
    return null;
  }
  const r = await client.estimate(config, params);
  if (r.error) return r.error;
  if (kind === 'json') saveFile(`${fileStem(state)}.json`, `${JSON.stringify(r, null, 2)}\n`, 'application/json');
  else saveFile(`${fileStem(state)}-ranks.csv`, ranksCsv(r), 'text/csv');
  return null;
}
