// schedules.js — the Schedules tab's data: the calculator's inputs under
// each pipeline schedule the core replays (one estimate each, the answers
// as estimator.js's useSchedules gives them), as the table's rows and as
// the chart's columns (each schedule's worst rank over the step, on one
// axis). Pure; the tab (SchedulesPanel.jsx) and the tests use it.

import { configOf, toParams } from './state.js';
import { enumNames } from './names.js';
import { eventIndices, timelineData } from './timeline-data.js';

/** The schedules the tab sets side by side: the core's, in its order (DualPipeV, the trainer's, first). */
export function scheduleNames() {
  return enumNames('schedule');
}

/** The line colours of the schedules, by position in scheduleNames() (chartColor() lightens them in the dark). */
export const SCHEDULE_COLORS = Object.freeze(['#2c6fbb', '#c2410c', '#15803d', '#7c3aed', '#a16207']);
/** Dash patterns by position, so that the lines differ without their colours too. */
export const SCHEDULE_DASHES = Object.freeze([[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4]]);

/**
 * The estimate's inputs for `state` under `schedule`: the calculator's,
 * the worst rank shown (each schedule's own worst, as its verdict is);
 * virtual_stages only with interleaved 1F1B (toParams).
 */
export function scheduleParams(state, schedule) {
  return toParams({ ...state, schedule, pp_rank: -1 });
}

/**
 * What tells one answer of the tab from another: the config and the inputs
 * but the schedule and the rank shown (virtual_stages stays: it changes
 * the interleaved row).
 */
export function schedulesKey(state) {
  const p = toParams({ ...state, schedule: 'interleaved-1f1b', pp_rank: -1 });
  delete p.schedule;
  return JSON.stringify([configOf(state), p]);
}

/**
 * One table row from one schedule's answer ({schedule, result} or
 * {schedule, error}, and `bubble`, a plan row's formula bubble, when the
 * estimate has no step time): the schedule in DualPipe's units (the
 * estimate's `schedule`), the bubble replayed (time.bubble_fraction) or by
 * the formula, the peak, verdict, step time and tokens/s; or the engine's
 * refusal.
 */
export function scheduleRow(answer) {
  const { schedule, result, error } = answer;
  if (error || !result) return { schedule, error: error ?? { message: 'no answer' } };
  const s = result.schedule;
  const time = result.time ?? null;
  return {
    schedule,
    title: s.title,
    trainer: s.trainer_runs === true,
    pp_stages: s.pp_stages,
    devices: s.devices,
    activations: s.activation_microbatches_per_device,
    parameter_copies: s.parameter_copies,
    bubble: time ? time.bubble_fraction : answer.bubble ?? null,
    bubble_from: time ? 'replay' : answer.bubble !== undefined && answer.bubble !== null ? 'formula' : null,
    peak_bytes: result.peak_bytes,
    headroom_bytes: result.headroom_bytes,
    status: result.status,
    worst_rank: result.worst_rank,
    step_seconds: time ? time.step_seconds : null,
    tokens_per_second: time ? time.tokens_per_second : null,
    command: result.command,
  };
}

/**
 * The chart's columns: each schedule's worst rank, its total (tensors,
 * non-PyTorch memory and fragmentation: the top of its timeline's stack,
 * timelineData()) at each of its events, on one x axis, the union of every
 * schedule's x in order; a schedule has null where another has an event
 * (drawn across, as a step line). x is the step's time in seconds when
 * every answer has it, else the event index. `names` are the schedules
 * drawn, in the columns' order; `peaks` their peak positions on x.
 * @param {{schedule: string, timeline: any}[]} answers  the answers that have a timeline
 */
export function schedulesPlot(answers) {
  const made = answers.map((a) => ({ schedule: a.schedule, rank: a.timeline, data: a.timeline ? timelineData(a.timeline) : null }))
    .filter((a) => a.data !== null);
  if (!made.length) return null;
  const seconds = made.every((a) => a.data.seconds);
  // Without a step time for every one, each is drawn against its event index.
  const shaped = made.map((a) => ({ ...a, xs: seconds || !a.data.seconds ? a.data.x : eventIndices(a.rank) }));
  const all = new Set();
  for (const a of shaped) for (const v of a.xs) all.add(v);
  const x = Float64Array.from([...all].sort((p, q) => p - q));
  const pos = new Map(Array.from(x, (v, i) => [v, i]));
  const series = shaped.map((a) => {
    /** @type {(number | null)[]} */
    const col = new Array(x.length).fill(null);
    const top = a.data.series[0];
    for (let i = 0; i < a.xs.length; i++) col[pos.get(a.xs[i])] = top[i];
    return col;
  });
  const peaks = shaped.map((a) => (a.data.peakPos >= 0 ? a.xs[a.data.peakPos] : null));
  return { x, seconds, names: shaped.map((a) => a.schedule), series, peaks };
}
