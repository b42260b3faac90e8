// Unit tests of the page's time model parts (no browser): the Time card's
// parts and formats, the timeline's x in seconds, the Plan table's tokens/s
// columns and goal, and the time inputs in the state and the link.
// node --test tests/page/time.test.mjs (needs public/memest.wasm: the state
// takes its inputs from the core's table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TIME_PARTS, stepParts, rankSeconds, hardwareFacts } from '../../web/app/time-parts.js';
import { duration, rate } from '../../web/app/format.js';
import { eventSeconds, eventX, timelineData } from '../../web/app/timeline-data.js';
import { xAxisTitle, xRange, eventAt } from '../../web/app/timeline-plot.js';
import { bestRow, goalsFor, orderByGoal, plannerGoal, shownGoal } from '../../web/app/plan/goals.js';
import { cellText, planColumns, sortRows } from '../../web/app/plan/columns.js';
import { DEFAULTS, SCHEMA, TIME_INPUTS, COMPARE_KEYS, coerceField, normalize, toParams } from '../../web/app/state.js';
import { encodeState, decodeFragment } from '../../web/app/url.js';
import { paramInfo } from '../../web/app/names.js';

const GIB = 2 ** 30;

test('the step\'s parts keep the table\'s order, each with its share of the step', () => {
  const time = { step_seconds: 10, parts: { compute_seconds: 7, exposed_comm_seconds: 1, idle_seconds: 1.5, step_end_seconds: 0.25, optimizer_seconds: 0.25 } };
  const parts = stepParts(time);
  assert.deepEqual(parts.map((p) => p.key), TIME_PARTS.map(([k]) => k));
  assert.deepEqual(parts.map((p) => p.share), [0.7, 0.1, 0.15, 0.025, 0.025]);
  assert.deepEqual(rankSeconds({ rank: 1, compute_seconds: 3, exposed_comm_seconds: 0, idle_seconds: 2, step_end_seconds: 0.1, optimizer_seconds: 0.2 }), [3, 0, 2, 0.1, 0.2]);
  assert.equal(stepParts(null).length, 5, 'no time: five empty parts, never a throw');
});

test('durations read in s from a second on and in ms below; rates with separators', () => {
  assert.equal(duration(19.290051), '19.29 s');
  assert.equal(duration(0.132505), '132.5 ms');
  assert.equal(duration(Number.NaN), '—');
  assert.equal(rate(217433.5), '217,434');
  assert.equal(rate(42.46), '42.5');
  assert.equal(rate(null), '—');
});

test('the hardware row names the peaks, HBM, the links and the node', () => {
  const facts = Object.fromEntries(hardwareFacts({ bf16_tflops: 989.4, fp8_tflops: 0, hbm_gb_per_s: 3350, nvlink_gb_per_s: 450, network_gbit_per_s: 400, gpus_per_node: 8 }));
  assert.deepEqual(Object.keys(facts), ['BF16 peak', 'HBM', 'NVLink', 'Network', 'GPUs per node'], 'no FP8 row without FP8 tensor cores');
  assert.equal(facts['BF16 peak'], '989.4 TFLOP/s');
  assert.equal(facts.HBM, '3,350 GB/s');
  assert.deepEqual(hardwareFacts(null), []);
});

/** A rank of the page view with `n` events at indices 10.. (times when `t` is given: on each event, or as a column). */
function viewRank(n, t = null, column = false) {
  const events = Array.from({ length: n }, (_, i) => ({
    index: 10 + i, step: 4, label: `op ${i}`, total_bytes: GIB, peak_bytes: GIB, live_chunks: [1, 0],
    ...(t && !column ? { t_seconds: t[i] } : {}),
  }));
  return {
    pp_rank: 0, peak_event_index: 11, events_total: n, events, event_steps: events.map(() => 4),
    event_components: { activations: events.map(() => GIB) }, ...(t && column ? { t_seconds: t } : {}),
  };
}

test('the timeline\'s x is each event\'s time in the step when every event has one, else its index', () => {
  const t = [0.5, 0.75, 0.75, 2];
  for (const column of [false, true]) {
    const r = viewRank(4, t, column);
    assert.deepEqual([...eventSeconds(r)], t, column ? 'the view\'s column' : 'on each event');
    const d = timelineData(r);
    assert.equal(d.seconds, true);
    assert.deepEqual([...d.x], t);
  }
  const plain = timelineData(viewRank(3));
  assert.equal(plain.seconds, false);
  assert.deepEqual([...plain.x], [10, 11, 12]);
  assert.equal(eventSeconds(viewRank(3, [0.5, 0.2, 1])), null, 'times that go back are not an axis');
  assert.equal(eventX(viewRank(2, [0.5, null])).seconds, false, 'one event without a time: indices');
});

test('the x axis is titled by its unit, and the pointer finds the event whose memory holds there', () => {
  const steps = [{ pos: 0, step: 1 }, { pos: 3, step: 8 }];
  assert.equal(xAxisTitle(800, steps, true), 'time in step (s), steps 1–8 marked above');
  assert.equal(xAxisTitle(320, steps, true), 'time in step (s), steps 1–8 above');
  assert.equal(xAxisTitle(800, steps, false), 'event in the schedule (steps 1–8 marked above)');
  const x = [0.5, 0.75, 2];
  assert.deepEqual(xRange(x), [0.5, 2]);
  assert.deepEqual(xRange([1, 1]), [1, 2], 'one x for every event: one unit wide');
  // 400 px over 0.5–2 s: 1.9 s is still the second event's memory (it holds until 2 s).
  assert.equal(eventAt(x, [0.5, 2], 373, 400, 0), 1);
  assert.equal(eventAt(x, [0.5, 2], 398, 400, 0), 1);
  assert.equal(eventAt(x, [0.5, 2], 399, 400, 0), 2, 'the last pixel is the range\'s end');
  assert.equal(eventAt(x, [0.5, 1.9], 399, 400, 0), 1, 'zoomed: the last event inside');
});

const row = (pp, status, headroom, tokens, extra = {}) => ({
  pp_size: pp, ep_size: 8, cp_size: 1, dp: 32 / (pp * 8), total_gpus: 32, micro_batch_size: 1, status,
  peak_bytes: 60 * GIB, headroom_bytes: headroom * GIB, bubble_fraction: 0.01,
  tokens_per_second: tokens, tokens_per_second_per_gpu: tokens === null ? null : tokens / 32, mfu: tokens === null ? null : tokens / 2e6, ...extra,
});

test('fastest is a goal when the rows carry tokens/s: most tokens/s first, ties by headroom', () => {
  const rows = [row(1, 'OK', 30, 200000), row(2, 'OK', 20, 250000), row(4, 'OK', 25, 250000), row(8, 'OOM', -2, 400000)];
  assert.deepEqual(goalsFor({ rows }).map(([k]) => k), ['fastest', 'gpus', 'headroom', 'bubble']);
  assert.deepEqual(orderByGoal(rows, 'fastest').map((r) => r.pp_size), [4, 2, 1, 8], 'OK before OOM; 250k twice: more headroom first');
  assert.equal(bestRow(rows, 'fastest').pp_size, 4);
  const oom = [row(8, 'OOM', -9, 400000), row(16, 'OOM', -1, 100000)];
  assert.deepEqual(orderByGoal(oom, 'fastest').map((r) => r.pp_size), [16, 8], 'those that do not fit: closest to fitting first');
  const untimed = rows.map((r) => ({ ...r, tokens_per_second: null }));
  assert.deepEqual(goalsFor({ rows: untimed }).map(([k]) => k), ['gpus', 'headroom', 'bubble']);
});

test('the goal shown is the one asked when the rows allow it, else the planner\'s own', () => {
  const timed = { rows: [row(1, 'OK', 30, 200000)], answer_by: { rule: 'fastest_ok', objective: 'throughput' } };
  const untimed = { rows: [row(1, 'OK', 30, null)], answer_by: { rule: 'most_headroom', objective: 'headroom' } };
  assert.equal(plannerGoal(timed), 'fastest');
  assert.equal(plannerGoal(untimed), 'headroom');
  assert.equal(plannerGoal({ rows: [] }), null);
  assert.equal(shownGoal(timed, 'fastest'), 'fastest');
  assert.equal(shownGoal(timed, 'gpus'), 'gpus');
  assert.equal(shownGoal(untimed, 'fastest'), 'headroom');
  assert.equal(DEFAULTS.plan_goal, 'fastest', 'the page opens on the planner\'s own goal');
});

test('the plan table has tokens/s and MFU columns only when the rows carry them (per GPU where the GPUs differ), and sorts by them', () => {
  const rows = [row(1, 'OK', 30, 200000), row(2, 'OK', 20, 250000.4), row(4, 'INVALID', 0, null)];
  const keys = planColumns({ mode: 'layouts', rows }).map((c) => c.key);
  assert.deepEqual(keys.slice(0, 4), ['status', 'peak_bytes', 'tokens_per_second', 'mfu'], 'the speed beside the peak');
  assert.ok(!keys.includes('tokens_per_second_per_gpu') && !keys.includes('total_gpus'), 'one budget: no GPUs, no per GPU');
  const wider = planColumns({ mode: 'vary', vary: 'total_gpus', rows: [...rows, row(1, 'OK', 30, 300000, { total_gpus: 64 })] }).map((c) => c.key);
  for (const k of ['total_gpus', 'tokens_per_second', 'tokens_per_second_per_gpu', 'mfu']) assert.ok(wider.includes(k), k);
  assert.equal(wider[2], 'total_gpus', 'the varied input after the verdict');
  const none = planColumns({ mode: 'layouts', rows: rows.map((r) => ({ ...r, tokens_per_second: null })) }).map((c) => c.key);
  assert.ok(!none.includes('tokens_per_second') && !none.includes('mfu'));
  assert.equal(cellText(rows[1], 'tokens_per_second'), '250,000');
  assert.equal(cellText(rows[1], 'tokens_per_second_per_gpu'), '7,813');
  assert.equal(cellText(rows[0], 'mfu'), '10.0%');
  assert.equal(cellText(rows[2], 'tokens_per_second'), '—');
  assert.deepEqual(sortRows(rows, 'tokens_per_second', true).map((x) => x.row.pp_size), [2, 1, 4], 'fastest first, none last');
  assert.ok(SCHEMA.plan_sort.values.includes('tokens_per_second'));
});

test('the time inputs are the core\'s, in the state and the link, and B of Compare keeps A\'s', () => {
  for (const name of TIME_INPUTS) {
    assert.ok(paramInfo(name), `${name} is a row of the core's table`);
    assert.ok(name in DEFAULTS, name);
    assert.ok(!COMPARE_KEYS.includes(name), `${name}: B keeps A's time model`);
  }
  assert.equal(DEFAULTS.nvlink_gb_per_s, 0);
  assert.equal(DEFAULTS.network_gbit_per_s, 0);
  assert.equal(DEFAULTS.efficiency, '');
  assert.equal(SCHEMA.efficiency.kind, 'text');
  const state = { ...DEFAULTS, nvlink_gb_per_s: 300, network_gbit_per_s: 200, efficiency: 'gemm=0.6,nvlink=0.5' };
  const back = decodeFragment(`#${encodeState(state)}`);
  assert.deepEqual(back.notes ?? [], []);
  for (const name of TIME_INPUTS) assert.equal(back.state[name], state[name], name);
  const p = toParams(state);
  assert.equal(p.efficiency, 'gemm=0.6,nvlink=0.5');
  assert.equal(p.nvlink_gb_per_s, 300);
  assert.equal('efficiency' in toParams(DEFAULTS), false, 'no overrides: the core’s table, not an empty text');
  assert.equal(coerceField('efficiency', ''), '');
  // A link's value of the wrong type is left at the default, with a note.
  const { state: s, notes } = normalize({ efficiency: 5, nvlink_gb_per_s: 'fast' });
  assert.equal(s.efficiency, '');
  assert.equal(s.nvlink_gb_per_s, 0);
  assert.equal(notes.length, 2);
});
