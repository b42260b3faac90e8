/*
** layout.c — the parallel layout of one estimate: every check that spans
** several inputs (divisibility, the trainer's asserts, the schedule's
** stages and chunk minimum), each with the nearest valid value as a
** fix, and the sizes derived from a valid layout (memory-model.md §1, §4.1, §6).
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/presets.h"
#include "sim/layout.h"
#include "sim/routing.h"
#include "sim/schedule.h"

/* Spec §2.1: base layers per stage, the remainder handed out one at a time
** to the first inner stage at the minimum, else the first stage at it. */
void memi_layout_partition(int64_t layers, int stages, int *first) {
  int counts[MEMEST_MAX_MODULES * MEMEST_MAX_PP];
  int64_t rem = layers % stages;
  int i, r;
  for (i = 0; i < stages; i++) counts[i] = (int)(layers / stages);
  for (r = 0; r < rem; r++) {
    int min = counts[0], best = -1;
    for (i = 1; i < stages; i++) {
      if (counts[i] < min) min = counts[i];
    }
    for (i = 1; i < stages - 1 && best < 0; i++) {
      if (counts[i] == min) best = i;
    }
    for (i = 0; i < stages && best < 0; i++) {
      if (counts[i] == min) best = i;
    }
    counts[best]++;
  }
  first[0] = 0;
  for (i = 0; i < stages; i++) first[i + 1] = first[i] + counts[i];
}

int64_t memi_layout_capacity(const memest_params *p) {
  const preset_gpu *g = p->gpu[0] ? memi_preset_gpu_find(p->gpu) : NULL;
  if (g != NULL) return g->bytes;
  return (int64_t)llround(p->gpu_memory_gb * GIB);
}

/* The divisor of n nearest to want that is at most cap (>= 1). */
static int64_t nearest_divisor(int64_t n, int64_t want, int64_t cap) {
  int64_t best = 1, d;
  for (d = 1; d <= cap && d <= n; d++) {
    if (n % d == 0 && llabs(d - want) <= llabs(best - want)) best = d;
  }
  return best;
}

/* The multiple of step nearest to v, at least lo. */
static int64_t nearest_multiple(int64_t v, int64_t step, int64_t lo) {
  int64_t down = v / step * step, up = down + step;
  int64_t best = (v - down <= up - v && down >= lo) ? down : up;
  if (best < lo) best = ceil_div(lo, step) * step;
  return best;
}

typedef struct problems {
  memest_error *errs;
  int max, n;
} problems;

/* Returns the slot for the next problem (a scratch one past max). */
static memest_error *next_problem(problems *pr, memest_error *scratch) {
  memest_error *e = pr->n < pr->max ? &pr->errs[pr->n] : scratch;
  pr->n++;
  return e;
}

static int given(const memest_params *p, memest_param_id id) {
  return (p->given >> id) & 1u;
}

static void check_missing(const memest_params *p, problems *pr) {
  static const memest_param_id req[] = {
    MEMEST_P_MODEL, MEMEST_P_PP_SIZE, MEMEST_P_EP_SIZE, MEMEST_P_CP_SIZE, MEMEST_P_TOTAL_GPUS,
    MEMEST_P_MICRO_BATCH_SIZE, MEMEST_P_GLOBAL_BATCH_SIZE, MEMEST_P_SEQUENCE_LENGTH};
  memest_error scratch;
  size_t i;
  for (i = 0; i < sizeof req / sizeof req[0]; i++) {
    const memest_param_info *pi = memest_param_describe(req[i]);
    if (!given(p, req[i])) {
      memest_error *e = next_problem(pr, &scratch);
      memi_err_set(e, MEMEST_E_MISSING, pi->name, "missing required parameter %s: %s (%s)", pi->flag,
              pi->meaning, pi->choose);
      memi_err_reason(e, MEMEST_R_MISSING);
    }
  }
  if (!given(p, MEMEST_P_GPU_MEMORY_GB) && !given(p, MEMEST_P_GPU)) {
    memest_error *e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_MISSING, "gpu_memory_gb",
            "missing required parameter --gpu-memory-gb or --gpu: the GPU's memory capacity "
            "(give --gpu h100|h200|b200|a100-80|a100-40, or --gpu-memory-gb N for N GiB)");
    memi_err_reason(e, MEMEST_R_MISSING);
  } else if (given(p, MEMEST_P_GPU_MEMORY_GB) && given(p, MEMEST_P_GPU)) {
    memest_error *e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_VALUE, "gpu", "give either --gpu or --gpu-memory-gb, not both");
    memi_err_reason(e, MEMEST_R_GPU_BOTH);
  }
}

/* The routing inputs that contradict each other. */
static void check_routing(const memest_params *p, problems *pr) {
  memest_error scratch, *e;
  if (given(p, MEMEST_P_ROUTING_FACTOR) && p->routing != MEMEST_ROUTING_FACTOR) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_VALUE, "routing_factor",
            "--routing-factor %g needs --routing factor, not %s",
            p->routing_factor, memest_routing_name(p->routing));
    memi_err_reason(e, MEMEST_R_ROUTING_MODE);
    memi_err_fix(e, "routing=factor");
  }
  if (p->routing != MEMEST_ROUTING_MEASURED && p->ep_imbalance != 1.0) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_VALUE, "ep_imbalance",
            "--ep-imbalance scales only the measured factor, not --routing %s; give "
            "--routing-factor %g (1.18 x %g) instead",
            memest_routing_name(p->routing), 1.18 * p->ep_imbalance, p->ep_imbalance);
    memi_err_reason(e, MEMEST_R_ROUTING_MODE);
    memi_err_fix(e, "ep_imbalance=1");
  }
}

/* Every value memest_params_set guarantees, checked again from the
** parameter table (params.c) for callers that fill memest_params directly
** (the planner, a C program): nothing past this point may divide by zero,
** index past an array or print a lie. */
static void check_ranges(const memest_params *p, problems *pr) {
  int room = pr->max > pr->n ? pr->max - pr->n : 0;
  int n = memi_params_refused(p, room > 0 ? pr->errs + pr->n : NULL, room);
  pr->n += n;
  if (n == 0) check_routing(p, pr);
}

/* The replay's work and the kept timeline: chunks x ranks simulated, and
** the events kept over every rank, each within its limit so that an
** estimate takes bounded time and memory; `per` bounds the events of any
** rank (the schedule's max_events). */
static void check_work(const memest_params *p, int64_t chunks, problems *pr) {
  memest_error scratch, *e;
  int64_t pp = p->pp_size, ranks = p->pp_rank < 0 ? pp : 1;
  int64_t per = memi_schedule_of(p->schedule)->max_events(pp, memi_schedule_v(p), chunks);
  int64_t kept = p->timeline_limit > 0 && p->timeline_limit < per ? p->timeline_limit : per;
  if (chunks * ranks > MEMEST_MAX_REPLAY_CHUNKS) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_LIMIT, "global_batch_size",
            "simulating %lld micro-batches on each of %lld pipeline ranks (%lld in all) exceeds "
            "MEMEST_MAX_REPLAY_CHUNKS = %lld; simulate one rank with --pp-rank N, or use a "
            "larger --micro-batch-size or a smaller --global-batch-size",
            (long long)chunks, (long long)ranks, (long long)(chunks * ranks),
            (long long)MEMEST_MAX_REPLAY_CHUNKS);
    memi_err_reason(e, MEMEST_R_REPLAY_WORK);
    if (chunks <= MEMEST_MAX_REPLAY_CHUNKS) memi_err_fix(e, "pp_rank=0");
  }
  if (p->timeline && kept * ranks > MEMEST_MAX_TIMELINE_EVENTS) {
    int64_t fix = MEMEST_MAX_TIMELINE_EVENTS / ranks;
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_LIMIT, "timeline_limit",
            "a timeline of %lld events on each of %lld pipeline ranks (%lld in all) exceeds "
            "MEMEST_MAX_TIMELINE_EVENTS = %lld; give --timeline-limit %lld or less to keep the "
            "events around the peak, or one rank with --pp-rank N",
            (long long)kept, (long long)ranks, (long long)(kept * ranks),
            (long long)MEMEST_MAX_TIMELINE_EVENTS, (long long)fix);
    memi_err_reason(e, MEMEST_R_TIMELINE_EVENTS);
    memi_err_fix(e, "timeline_limit=%lld", (long long)fix);
  }
}

/* {======================================================================
** The checks that need the config and every layout input: one small
** function each, walked in order from the table below. A check adds at
** most one problem and says whether it did.
** ======================================================================= */

/* What the checks read: the inputs, the schedule, and the sizes derived
** from them once the checks before have passed. */
typedef struct layout_ctx {
  const model_config *mc;
  const memest_params *p;
  const schedule *sc;
  int64_t group;   /* pp*cp*ep */
  int64_t dp;      /* total_gpus / group, once total_gpus divides */
  int64_t unit;    /* mbs*dp*ep: sequences per micro-batch row */
} layout_ctx;

static int ep_above_max(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t ep = c->p->ep_size;
  if (ep <= MEMEST_MAX_EP) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_UNSUPPORTED, "ep_size",
          "--ep-size %lld is above 32: the trainer's EP dispatch packs ranks into a 32-bit mask "
          "and asserts ep <= 32; use --ep-size 32 or less",
          (long long)ep);
  memi_err_reason(e, MEMEST_R_EP_ABOVE_MAX);
  memi_err_fix(e, "ep_size=%lld", (long long)nearest_divisor(c->mc->experts > 0 ? c->mc->experts : 32, 32,
                                                         MEMEST_MAX_EP));
  return 1;
}

static int ep_experts(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t ep = c->p->ep_size, experts = c->mc->experts;
  if (experts == 0 || experts % ep == 0) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "ep_size",
          "the model's %lld experts do not divide over --ep-size %lld (the trainer would drop "
          "experts); use a divisor of %lld",
          (long long)experts, (long long)ep, (long long)experts);
  memi_err_reason(e, MEMEST_R_EP_EXPERTS);
  memi_err_fix(e, "ep_size=%lld", (long long)nearest_divisor(experts, ep, MEMEST_MAX_EP));
  return 1;
}

static int routing_cap(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  const memest_params *p = c->p;
  double cap;
  if (c->mc->experts == 0 || p->ep_size <= 1 || p->routing != MEMEST_ROUTING_FACTOR) return 0;
  cap = memi_routing_cap(c->mc->experts, c->mc->top_k, p->ep_size);
  if (p->routing_factor <= cap * (1.0 + 1e-12)) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_VALUE, "routing_factor",
          "--routing-factor %g is above what routing can reach at --ep-size %lld, "
          "min(ep, experts/top_k) = %g",
          p->routing_factor, (long long)p->ep_size, cap);
  memi_err_reason(e, MEMEST_R_ROUTING_CAP);
  memi_err_fix(e, "routing_factor=%.4g", floor(cap * 1000.0) / 1000.0);
  return 1;
}

static int ep_dense(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  if (c->mc->experts != 0 || c->p->ep_size <= 1) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "ep_size",
          "--ep-size %lld needs experts, and this config has none (a dense model); use "
          "--ep-size 1",
          (long long)c->p->ep_size);
  memi_err_reason(e, MEMEST_R_EP_DENSE);
  memi_err_fix(e, "ep_size=1");
  return 1;
}

static int cp_arch(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  if (c->p->cp_size <= 1 || c->mc->arch->supports_cp) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_UNSUPPORTED, "cp_size",
          "the trainer runs %s without context parallelism (it raises NotImplementedError for "
          "cp > 1); use --cp-size 1",
          c->mc->arch->title);
  memi_err_reason(e, MEMEST_R_CP_ARCH);
  memi_err_fix(e, "cp_size=1");
  return 1;
}

static int seq_cp(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t cp = c->p->cp_size, seq = c->p->sequence_length;
  if (cp <= 1 || seq % (2 * cp) == 0) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "sequence_length",
          "--sequence-length %lld is not a multiple of 2*cp = %lld (the zigzag split needs "
          "it); use a multiple of %lld",
          (long long)seq, (long long)(2 * cp), (long long)(2 * cp));
  memi_err_reason(e, MEMEST_R_SEQ_CP);
  memi_err_fix(e, "sequence_length=%lld", (long long)nearest_multiple(seq, 2 * cp, 2 * cp));
  return 1;
}

static int pp_layers(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  const schedule *sc = c->sc;
  int64_t pp = c->p->pp_size, layers = c->mc->layers, fix;
  int v = memi_schedule_v(c->p);
  if (layers >= sc->stages(pp, v)) return 0;
  fix = layers / (sc->stages(pp, v) / pp) > 0 ? layers / (sc->stages(pp, v) / pp) : 1;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "pp_size",
          "the model has %lld layers, fewer than the %s = %lld stages %s needs; use "
          "--pp-size %lld or less",
          (long long)layers, sc->stages_text, (long long)sc->stages(pp, v), sc->name, (long long)fix);
  memi_err_reason(e, MEMEST_R_PP_LAYERS);
  memi_err_fix(e, "pp_size=%lld", (long long)fix);
  return 1;
}

static int gpus_group(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t gpus = c->p->total_gpus, group = c->group;
  if (gpus % group == 0) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "total_gpus",
          "--total-gpus %lld is not a multiple of pp*cp*ep = %lld, so the data-parallel degree "
          "is not a whole number; use a multiple of %lld GPUs (or change pp, ep or cp)",
          (long long)gpus, (long long)group, (long long)group);
  memi_err_reason(e, MEMEST_R_GPUS_GROUP);
  memi_err_fix(e, "total_gpus=%lld", (long long)nearest_multiple(gpus, group, group));
  return 1;
}

static int dp_limit(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  if (c->dp <= MEMEST_MAX_DP) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LIMIT, "total_gpus",
          "the data-parallel degree total_gpus/(pp*cp*ep) = %lld exceeds MEMEST_MAX_DP = %lld; "
          "use fewer --total-gpus",
          (long long)c->dp, (long long)MEMEST_MAX_DP);
  memi_err_reason(e, MEMEST_R_DP_LIMIT);
  return 1;
}

static int gbs_unit(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  const memest_params *p = c->p;
  int64_t gbs = p->global_batch_size, unit = c->unit;
  if (gbs % unit == 0) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LAYOUT, "global_batch_size",
          "--global-batch-size %lld is not a multiple of micro_batch_size*dp*ep = %lld*%lld*%lld "
          "= %lld; use a multiple of %lld",
          (long long)gbs, (long long)p->micro_batch_size, (long long)c->dp, (long long)p->ep_size,
          (long long)unit, (long long)unit);
  memi_err_reason(e, MEMEST_R_GBS_UNIT);
  memi_err_fix(e, "global_batch_size=%lld",
               (long long)nearest_multiple(gbs, unit, c->sc->min_chunks(p->pp_size, memi_schedule_v(p)) * unit));
  return 1;
}

/* The largest micro-batch below mbs that divides the global batch into
** at least `need` chunks, or 0. */
static int64_t smaller_mbs(const layout_ctx *c, int64_t need) {
  int64_t gbs = c->p->global_batch_size, m;
  for (m = c->p->micro_batch_size - 1; m >= 1; m--) {
    if (gbs % (m * c->dp * c->p->ep_size) == 0 && gbs / (m * c->dp * c->p->ep_size) >= need) return m;
  }
  return 0;
}

static int chunks_min(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  const schedule *sc = c->sc;
  int64_t need = sc->min_chunks(c->p->pp_size, memi_schedule_v(c->p)), chunks = c->p->global_batch_size / c->unit;
  int64_t gbs_fix = need * c->unit, mbs_fix;
  if (chunks >= need) return 0;
  mbs_fix = smaller_mbs(c, need);
  e = next_problem(pr, &scratch);
  if (mbs_fix > 0)
    memi_err_set(e, MEMEST_E_LAYOUT, "global_batch_size",
            "num_chunks = gbs/(mbs*dp*ep) = %lld is below %s = %lld, which %s "
            "asserts; use --global-batch-size %lld or more, or --micro-batch-size %lld",
            (long long)chunks, sc->chunks_text, (long long)need, sc->name, (long long)gbs_fix,
            (long long)mbs_fix);
  else
    memi_err_set(e, MEMEST_E_LAYOUT, "global_batch_size",
            "num_chunks = gbs/(mbs*dp*ep) = %lld is below %s = %lld, which %s "
            "asserts; use --global-batch-size %lld or more",
            (long long)chunks, sc->chunks_text, (long long)need, sc->name, (long long)gbs_fix);
  memi_err_reason(e, MEMEST_R_CHUNKS_MIN);
  memi_err_fix(e, "global_batch_size=%lld", (long long)gbs_fix);
  return 1;
}

/* Too many chunks for the limit; else the replay's work within its own. */
static int chunks_work(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t chunks = c->p->global_batch_size / c->unit;
  if (chunks <= MEMEST_MAX_CHUNKS) {
    check_work(c->p, chunks, pr);
    return 0;
  }
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_LIMIT, "global_batch_size",
          "num_chunks = %lld exceeds MEMEST_MAX_CHUNKS = %lld micro-batches per step; use a "
          "larger --micro-batch-size or a smaller --global-batch-size",
          (long long)chunks, (long long)MEMEST_MAX_CHUNKS);
  memi_err_reason(e, MEMEST_R_CHUNKS_MAX);
  return 1;
}

static int pp_rank(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  int64_t pp = c->p->pp_size, rank = c->p->pp_rank;
  if (rank < pp) return 0;
  e = next_problem(pr, &scratch);
  memi_err_set(e, MEMEST_E_VALUE, "pp_rank",
          "--pp-rank %lld does not exist with --pp-size %lld; use 0..%lld, or -1 for every rank",
          (long long)rank, (long long)pp, (long long)(pp - 1));
  memi_err_reason(e, MEMEST_R_PP_RANK);
  memi_err_fix(e, "pp_rank=-1");
  return 1;
}

/* What one schedule needs beyond the others: DualPipe's even pp (its two
** halves of ranks) and even chunk count (half for each copy); and
** --virtual-stages, which only interleaved 1F1B reads. */
static int schedule_needs(const layout_ctx *c, problems *pr) {
  memest_error scratch, *e;
  const memest_params *p = c->p;
  int64_t chunks = c->unit > 0 ? p->global_batch_size / c->unit : 0;
  if (p->schedule != MEMEST_SCHED_INTERLEAVED && ((p->given >> MEMEST_P_VIRTUAL_STAGES) & 1u)) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_LAYOUT, "virtual_stages",
                 "--virtual-stages sets the stages per GPU of interleaved-1f1b, and --schedule is "
                 "%s; leave it out, or give --schedule interleaved-1f1b",
                 memest_schedule_name(p->schedule));
    memi_err_reason(e, MEMEST_R_SCHEDULE);
    memi_err_fix(e, "schedule=interleaved-1f1b");
    return 1;
  }
  if (p->schedule != MEMEST_SCHED_DUALPIPE) return 0;
  if (p->pp_size % 2 != 0) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_LAYOUT, "pp_size",
                 "DualPipe splits the ranks into two halves that start the two model copies, so "
                 "--pp-size must be even, not %lld; use --pp-size %lld",
                 (long long)p->pp_size, (long long)(p->pp_size + 1));
    memi_err_reason(e, MEMEST_R_SCHEDULE);
    memi_err_fix(e, "pp_size=%lld", (long long)(p->pp_size + 1));
    return 1;
  }
  if (c->unit > 0 && p->global_batch_size % c->unit == 0 && chunks % 2 != 0) {
    e = next_problem(pr, &scratch);
    memi_err_set(e, MEMEST_E_LAYOUT, "global_batch_size",
                 "DualPipe sends half the micro-batches through each model copy, so num_chunks = "
                 "gbs/(mbs*dp*ep) = %lld must be even; use --global-batch-size %lld",
                 (long long)chunks, (long long)((chunks + 1) * c->unit));
    memi_err_reason(e, MEMEST_R_SCHEDULE);
    memi_err_fix(e, "global_batch_size=%lld", (long long)((chunks + 1) * c->unit));
    return 1;
  }
  return 0;
}

/* The checks in the order they run. `last`: a problem found here ends the
** walk, because the checks after it divide by what it found wrong. */
static const struct layout_check {
  int (*found)(const layout_ctx *c, problems *pr);
  int last;
} layout_checks[] = {
  {ep_above_max, 1}, {ep_experts, 0}, {routing_cap, 0}, {ep_dense, 0}, {cp_arch, 0},
  {seq_cp, 0}, {pp_layers, 0}, {gpus_group, 1}, {dp_limit, 1}, {gbs_unit, 1},
  {chunks_min, 1}, {schedule_needs, 0}, {chunks_work, 0}, {pp_rank, 0},
};

/* Checks that need the config and every layout input, in table order. */
static void check_layout(const model_config *mc, const memest_params *p, problems *pr) {
  layout_ctx c;
  size_t i;
  memset(&c, 0, sizeof c);
  c.mc = mc;
  c.p = p;
  c.sc = memi_schedule_of(p->schedule);
  /* Read only by the checks after ep_above_max (group) and gpus_group (dp,
  ** unit), which end the walk when these would not be bounded or whole. */
  if (p->ep_size <= MEMEST_MAX_EP) {
    c.group = p->pp_size * p->cp_size * p->ep_size;
    if (p->total_gpus % c.group == 0) {
      c.dp = p->total_gpus / c.group;
      c.unit = p->micro_batch_size * c.dp * p->ep_size;
    }
  }
  for (i = 0; i < sizeof layout_checks / sizeof layout_checks[0]; i++) {
    if (layout_checks[i].found(&c, pr) && layout_checks[i].last) return;
  }
}
/* }====================================================================== */

int memi_layout_count(const model_config *mc, const memest_params *p, memest_error *errs, int max) {
  problems pr;
  pr.errs = errs;
  pr.max = max;
  pr.n = 0;
  check_missing(p, &pr);
  if (pr.n == 0) check_ranges(p, &pr);
  if (pr.n == 0 && mc != NULL) check_layout(mc, p, &pr);
  return pr.n;
}

static void derive_tokens(const model_config *mc, const memest_params *p, layout *lo) {
  run_dims *d = &lo->d;
  int *o = &d->ovf;
  int64_t mk;
  d->b = p->micro_batch_size;
  d->s = p->sequence_length / p->cp_size;
  d->m = ck_mul(o, d->b, d->s);
  d->cp = p->cp_size;
  d->ep = p->ep_size;
  d->dp = lo->dp;
  d->pp = lo->pp;
  d->fp8 = p->fp8_training == MEMEST_FP8_DEEP_GEMM;
  d->top_k = mc->experts > 0 ? mc->top_k : 0;
  d->e_loc = mc->experts > 0 ? mc->experts / p->ep_size : 0;
  mk = ck_mul(o, d->m, d->top_k);
  memi_routing_tokens(mc->experts, p, d);
  d->r_rows = round_up(ck_add(o, d->n_in, ck_mul(o, 127, d->e_loc)), 1024);
  d->combine_rows = round_up(mk, 1024);
  if (d->m > ((int64_t)1 << 40) || mk > ((int64_t)1 << 46)) d->ovf = 1;
}

memest_code memi_layout_build(const model_config *mc, const memest_params *p, layout *lo,
                         memest_error *err) {
  memest_error first;
  int n = memi_layout_count(mc, p, &first, 1);
  if (n > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  memset(lo, 0, sizeof *lo);
  lo->pp = p->pp_size;
  lo->ep = p->ep_size;
  lo->cp = p->cp_size;
  lo->world = p->total_gpus;
  lo->dp = p->total_gpus / (p->pp_size * p->cp_size * p->ep_size);
  lo->mbs = p->micro_batch_size;
  lo->gbs = p->global_batch_size;
  lo->seq = p->sequence_length;
  lo->chunks = lo->gbs / (lo->mbs * lo->dp * lo->ep);
  if (p->sharding == MEMEST_HSDP) {
    lo->w_x = lo->cp;
    lo->w_o = lo->cp * lo->ep;
  } else {
    lo->w_x = lo->dp * lo->cp;
    lo->w_o = lo->dp * lo->cp * lo->ep;
  }
  lo->capacity = memi_layout_capacity(p);
  lo->sched = memi_schedule_of(p->schedule);
  lo->v = memi_schedule_v(p);
  lo->modules = lo->sched->modules(lo->v);
  lo->chains = lo->sched->chains;
  lo->stages = (int)lo->sched->stages(lo->pp, lo->v);
  memi_layout_partition(mc->layers, lo->stages, lo->stage_first);
  derive_tokens(mc, p, lo);
  if (lo->d.ovf) {
    memi_err_set(err, MEMEST_E_OVERFLOW, "sequence_length",
            "the token counts of this run (micro batch x sequence x experts per token) "
            "overflow 64-bit byte counts; use a smaller --sequence-length or "
            "--micro-batch-size");
    memi_err_reason(err, MEMEST_R_TOKEN_OVERFLOW);
    return MEMEST_E_OVERFLOW;
  }
  return MEMEST_OK;
}
