// requests.js — what the Plan and Compare tabs ask the engine, built from
// the one page state (state.js): the plan request, the second configuration
// of a compare and its request, and a plan row as calculator inputs. Pure
// functions; the engine decides what is valid (docs/planner.md).

import { COMPARE_KEYS, CORE_INPUTS, DEFAULTS, VARY_INPUTS, derive, routingParams, toParams } from '../state.js';

/** Micro batches a plan may try: 2^0 .. 2^(MBS_BITS-1). */
export const MBS_BITS = 7;

/** The micro batch sizes of a plan_mbs mask (bit k = 2^k), ascending. */
export function mbsList(mask) {
  const out = [];
  for (let k = 0; k < MBS_BITS; k++) if (mask & (1 << k)) out.push(2 ** k);
  return out;
}

/**
 * Whether `gpus` is a whole number (at least one) of nodes of `perNode`
 * GPUs: then a plan counts nodes too, as the calculator's nodes × GPUs per
 * node does; a budget of part of a node counts GPUs alone.
 */
export function wholeNodes(gpus, perNode) {
  return Number.isInteger(gpus) && Number.isInteger(perNode) && perNode > 0 && gpus >= perNode && gpus % perNode === 0;
}

/** What a vary plan holds fixed when it sweeps `vary` (state.plan_hold applies to pp, ep, cp). */
export function holds(vary) {
  return ['pp', 'ep', 'cp'].includes(vary);
}

/** The calculator's inputs a plan gives per row: the layout it sweeps, and the rank shown (every plan shows the worst). */
export const PER_ROW = ['pp_size', 'ep_size', 'cp_size', 'total_gpus', 'micro_batch_size', 'pp_rank'];

/** The calculator's inputs that every plan keeps: model, GPU, options, gbs, seq. */
function fixedInputs(state) {
  /** @type {Record<string, any>} */
  const out = toParams(state);
  for (const key of PER_ROW) delete out[key];
  return out;
}

/**
 * The engine's plan request for the Plan tab: {request}, or {problem} (a
 * sentence) when the page can tell at once that there is none to make.
 *   layouts: every valid (pp, ep, cp, dp, mbs) for the budget, the pins
 *            narrowing pp, ep, cp, dp to one value each;
 *   vary:    one input swept over the planner's default values (mbs over
 *            the chosen micro batches), the others the calculator's.
 */
export function planRequest(state) {
  const r = fixedInputs(state);
  const mbs = mbsList(state.plan_mbs);
  const inNodes = state.plan_budget === 'nodes';
  if (state.plan_question === 'layouts') {
    if (!mbs.length) return { problem: 'Choose at least one micro batch size.' };
    if (inNodes) {
      r.nodes = state.plan_nodes;
      r.gpus_per_node = state.gpus_per_node;
    } else {
      r.total_gpus = state.plan_total_gpus;
      // A budget of whole nodes is laid out on the calculator's nodes: the
      // planner marks (and by default avoids) expert parallelism across them.
      if (wholeNodes(state.plan_total_gpus, state.gpus_per_node)) r.gpus_per_node = state.gpus_per_node;
    }
    for (const [key, name] of [['plan_pp', 'pp_size'], ['plan_ep', 'ep_size'], ['plan_cp', 'cp_size'], ['plan_dp', 'dp']]) {
      if (state[key] !== 0) r[name] = state[key];
    }
    r.micro_batch_size = mbs;
    return { request: r };
  }
  const vary = state.plan_vary;
  r.vary = vary;
  // The varied input is the planner's to sweep (the calculator's seq, say, is not kept).
  const varied = VARY_INPUTS.find(([name]) => name === vary);
  if (varied) delete r[varied[1]];
  if (vary !== 'pp') r.pp_size = state.pp_size;
  if (vary !== 'ep') r.ep_size = state.ep_size;
  if (vary !== 'cp') r.cp_size = state.cp_size;
  if (vary === 'mbs') {
    if (!mbs.length) return { problem: 'Choose at least one micro batch size.' };
    r.micro_batch_size = mbs;
  } else {
    r.micro_batch_size = state.micro_batch_size;
  }
  if (inNodes || vary === 'nodes') r.gpus_per_node = state.gpus_per_node;
  if (holds(vary) && state.plan_hold === 'dp') {
    const { dp } = derive(state);
    if (!Number.isInteger(dp) || dp < 1) {
      return { problem: `The calculator's layout gives dp = ${dp === null ? '—' : +dp.toFixed(2)}, not a whole number: fix it there, or keep the GPUs fixed instead.` };
    }
    r.dp = dp;
  } else if (!['dp', 'gpus', 'nodes'].includes(vary)) {
    r.total_gpus = state.total_gpus;
    // The calculator's GPUs held, in whole nodes: the rows count its nodes.
    if (wholeNodes(state.total_gpus, state.gpus_per_node)) r.gpus_per_node = state.gpus_per_node;
  }
  return { request: r };
}

/** Whether compare key `key` keeps the calculator's value. */
function same(state, key) {
  const v = state[`cmp_${key}`];
  return v === -1 || v === '';
}

/**
 * The second configuration of the Compare tab: the calculator's state with
 * the cmp_* changes applied (a GPU changed by capacity becomes custom).
 */
export function compareState(state) {
  const b = { ...state };
  for (const key of COMPARE_KEYS) {
    if (same(state, key)) continue;
    b[key] = state[`cmp_${key}`];
    if (key === 'gpu_memory_gb') b.gpu = '';
    // B's own model is a preset, not A's pasted config.
    if (key === 'model') b.config = '';
  }
  return b;
}

/** The patch that makes the second configuration the calculator's again. */
export function sameAsA() {
  return Object.fromEntries(COMPARE_KEYS.map((key) => [`cmp_${key}`, DEFAULTS[`cmp_${key}`]]));
}

/**
 * The patch that loads the second configuration into the calculator (and
 * makes it A, with nothing left to change); a capacity that is a preset's
 * (`gpus`) becomes that preset.
 */
export function loadB(b, gpus) {
  const patch = sameAsA();
  for (const key of COMPARE_KEYS) patch[key] = b[key];
  patch.config = b.config;
  patch.gpu = b.gpu || (gpus.find((g) => g.bytes / 2 ** 30 === b.gpu_memory_gb)?.name ?? '');
  patch.pp_rank = -1;
  return patch;
}

/** A state's GPU capacity in GiB: its preset's (from `gpus`), or its own. */
export function capacityGib(state, gpus) {
  if (!state.gpu) return state.gpu_memory_gb;
  const preset = gpus.find((g) => g.name === state.gpu);
  return preset ? preset.bytes / 2 ** 30 : null;
}

/**
 * The engine's compare request for configurations a and b: every input
 * once where they agree, as [a, b] where they differ; null when they do
 * not differ. A GPU given by preset in one and by capacity in the other is
 * given by capacity in both.
 */
export function compareRequest(a, b, gpus) {
  const pa = toParams(a);
  const pb = toParams(b);
  // Two models, two routings, or an input one side is given and the other
  // is not (virtual_stages beside a schedule other than interleaved 1F1B),
  // which one plan cannot hold: two estimates.
  const keys = (p) => Object.keys(p).filter((k) => k !== 'gpu' && k !== 'gpu_memory_gb').sort().join();
  if (a.config !== b.config || pa.model !== pb.model || JSON.stringify(routingParams(a)) !== JSON.stringify(routingParams(b))
    || keys(pa) !== keys(pb)) {
    return { mode: 'pair', a: { config: a.config || null, params: pa, plan: layoutPlan(a) }, b: { config: b.config || null, params: pb, plan: layoutPlan(b) } };
  }
  delete pa.pp_rank;
  delete pb.pp_rank;
  if (('gpu' in pa) !== ('gpu' in pb)) {
    delete pa.gpu;
    delete pb.gpu;
    pa.gpu_memory_gb = capacityGib(a, gpus);
    pb.gpu_memory_gb = capacityGib(b, gpus);
  }
  const request = { mode: 'compare' };
  let differ = false;
  for (const key of Object.keys(pa)) {
    const same = Object.is(pa[key], pb[key]);
    request[key] = same ? pa[key] : [pa[key], pb[key]];
    differ ||= !same;
  }
  return differ ? request : null;
}

/** A plan row as calculator inputs: the core's inputs the row carries (its layout and batches), the worst rank shown. */
export function rowPatch(row) {
  /** @type {Record<string, any>} */
  const patch = {};
  for (const key of CORE_INPUTS) if (key in row) patch[key] = row[key];
  patch.pp_rank = -1;
  return patch;
}

/**
 * The plan of one layout of `state` (every degree pinned, its micro batch
 * alone): the planner's row of it carries the pipeline bubble, which an
 * estimate does not.
 */
export function layoutPlan(state) {
  const r = fixedInputs(state);
  const { dp } = derive(state);
  Object.assign(r, {
    pp_size: state.pp_size, ep_size: state.ep_size, cp_size: state.cp_size, total_gpus: state.total_gpus,
    micro_batch_size: [state.micro_batch_size],
  });
  if (Number.isInteger(dp) && dp > 0) r.dp = dp;
  return r;
}
