// goals.js — what "best" means in a plan of layouts, as the user chooses it:
// the fastest (most tokens/s, when the rows carry it: the planner's own
// answer), the fewest GPUs that fit, the most headroom, the smallest
// pipeline bubble, or the largest routing margin (when the rows carry
// one); and a vary
// plan's invalid rows set apart from its table. Pure functions
// over the planner's JSON: the engine computes every figure.

/** Goals: [key, label]. */
export const GOALS = Object.freeze([
  ['fastest', 'Fastest: most tokens/s'],
  ['gpus', 'Fewest GPUs that fit'],
  ['headroom', 'Most headroom'],
  ['bubble', 'Smallest bubble'],
  ['routing', 'Largest routing margin'],
]);

/** The goals a plan's rows allow: tokens/s and the routing margin only when they carry them. */
export function goalsFor(plan) {
  const rows = plan?.rows ?? [];
  const routing = rows.some((r) => typeof r.routing_margin === 'number');
  const fastest = rows.some((r) => typeof r.tokens_per_second === 'number');
  return GOALS.filter(([k]) => (k !== 'routing' || routing) && (k !== 'fastest' || fastest));
}

/**
 * The goal the planner answered by (its JSON's answer_by.objective:
 * "throughput" is the fastest, "headroom" the most headroom), or null.
 */
export function plannerGoal(plan) {
  const objective = plan?.answer_by?.objective;
  if (objective === 'throughput') return 'fastest';
  return objective === 'headroom' ? 'headroom' : null;
}

/**
 * The goal a plan is shown by: `asked` when its rows allow it, else the
 * planner's own, else the most headroom.
 */
export function shownGoal(plan, asked) {
  const allowed = goalsFor(plan);
  if (allowed.some(([k]) => k === asked)) return asked;
  const own = plannerGoal(plan);
  return own && allowed.some(([k]) => k === own) ? own : 'headroom';
}

const fits = (r) => r.status === 'OK' || r.status === 'TIGHT';
const num = (v, missing) => (typeof v === 'number' && Number.isFinite(v) ? v : missing);

/** Orders two rows by `goal`: negative when a is better. */
function compare(goal, a, b) {
  const headroom = num(b.headroom_bytes, -Infinity) - num(a.headroom_bytes, -Infinity);
  const bubble = num(a.bubble_fraction, Infinity) - num(b.bubble_fraction, Infinity);
  const gpus = num(a.total_gpus, Infinity) - num(b.total_gpus, Infinity);
  const routing = num(b.routing_margin, -Infinity) - num(a.routing_margin, -Infinity);
  const tokens = num(b.tokens_per_second, -Infinity) - num(a.tokens_per_second, -Infinity);
  const chain = {
    fastest: [tokens, headroom, gpus],
    gpus: [gpus, bubble, headroom],
    headroom: [headroom, bubble, gpus],
    bubble: [bubble, gpus, headroom],
    routing: [routing, headroom, bubble],
  }[goal] ?? [headroom];
  return chain.find((d) => d !== 0 && !Number.isNaN(d)) ?? 0;
}

/**
 * The goal rows of status tier `status` (0 OK, 1 TIGHT, 2 OOM) are ordered
 * by: `goal`, but for the fastest, whose rows that do not fit come closest
 * to fitting first (the most headroom), as the planner lists them.
 */
function tierGoal(goal, status) {
  return goal === 'fastest' && status === 2 ? 'headroom' : goal;
}

/**
 * The rows in the order of `goal`: those that fit (OK, then TIGHT) best
 * first, then the ones that do not fit (OOM) by the same order (the
 * fastest goal: by the most headroom), then the
 * invalid ones; ties keep the planner's order. With `inNodeFirst` (the
 * plan's answer_by.ep_inside_node_first), the rows whose expert parallelism
 * spans nodes come after the others of their status, as the planner ranks
 * them. Returns new arrays only.
 */
export function orderByGoal(rows, goal, inNodeFirst = false) {
  const status = (r) => (r.status === 'OK' ? 0 : r.status === 'TIGHT' ? 1 : r.status === 'OOM' ? 2 : 3);
  const tier = (r) => 2 * status(r) + (inNodeFirst && r.ep_across_nodes === true ? 1 : 0);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((x, y) => tier(x.row) - tier(y.row)
      || (status(x.row) < 3 ? compare(tierGoal(goal, status(x.row)), x.row, y.row) : 0) || x.i - y.i)
    .map((x) => x.row);
}

/** The best row for `goal`: the first that fits in its order, or null. */
export function bestRow(rows, goal, inNodeFirst = false) {
  const first = orderByGoal(rows, goal, inNodeFirst)[0];
  return first && fits(first) ? first : null;
}

/**
 * A plan's rows without its INVALID ones (a vary plan lists its invalid
 * values as rows), with the values of the varied input each reason had.
 * The counts are the planner's own (`counts`: tried = valid + invalid,
 * valid = ok + tight + oom; `invalid` by reason, which already counts the
 * INVALID rows): the page adds nothing up. Returns {...plan, rows,
 * invalid_values}.
 */
export function validRows(plan) {
  /** @type {Record<string, any[]>} */
  const values = {};
  // The planner names the varied input by its row field ("pp_size").
  const key = plan.mode === 'vary' ? plan.vary : null;
  const rows = [];
  for (const r of plan.rows ?? []) {
    if (r.status !== 'INVALID') rows.push(r);
    else if (key && r[key] !== undefined) (values[r.reason || 'not valid'] ??= []).push(r[key]);
  }
  return { ...plan, rows, invalid_values: values };
}
