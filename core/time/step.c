/*
** step.c — the step across pipeline ranks (docs/time-model.md, "The
** step"): every rank's op trace (sim/trace.c) run in order, each op
** starting when its rank is free and its inputs have arrived (a chunk's
** forward on stage s waits for stage s-1's, a backward for stage s+1's,
** plus the P2P transfer between ranks), then each rank's step end and the
** optimizer. Idle time, exposed communication and the critical path come
** from that replay, not from a formula.
**
** A long step is not replayed whole: once the pipeline is full every
** micro-batch adds the same time to every rank, so the step of N
** micro-batches is found from replays of n, n+2pp and n+4pp (n a few
** times pp) when those show that regime, and each kept event's time from
** the last of them shifted by whole periods (docs/time-model.md, "Long
** steps").
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"
#include "time/time.h"

typedef struct rank_run {
  sched_trace *tr;           /* its op trace, in the scratch */
  module_cost cost[MEMEST_MAX_MODULES];
  int gathered[MEMEST_MAX_MODULES];
  int stage[MEMEST_MAX_MODULES];   /* the stage each module holds */
  int keep;                  /* the result keeps this rank's timeline */
  int waiting;               /* blocked on a neighbour's op (pipeline_run) */
  int64_t next;              /* the next op */
  double t, compute, exposed;/* this replay's: when the rank is free, its sums */
  double *end;               /* each op's end (kept ranks only) */
  int64_t end_cap;
  double reduce, optimizer;
  int64_t peer;              /* DualPipe: the rank holding its stages in the other copy; -1 */
  double copies;             /* the gradient all-reduce with the peer, seconds */
} rank_run;

typedef struct step_run {
  const time_env *env;
  const model_config *mc;
  layout lo;                 /* the layout replayed, its chunks set per replay */
  int64_t pp, n, stages;
  rank_run *rk;
  double *fin_f, *fin_b;     /* [stage * n + chunk]: when it is done, -1 before */
  int64_t *stack;            /* ranks to run, each at most once */
  trace_scratch *ts;         /* traces and done-times, kept between estimates */
  int stage_rank[MEMEST_MAX_MODULES * MEMEST_MAX_PP];
} step_run;

/* A rank's figures of one replay, for the long-step regime. */
typedef struct rank_sum {
  double t, compute, exposed;
} rank_sum;

static int stage_of(const step_run *s, int64_t rank, int m) {
  return s->rk[rank].stage[m];
}

/* When op's inputs are there, or -1 if one is not done yet. */
static double op_ready(const step_run *s, int64_t rank, const sched_op *op) {
  double ready = 0.0, p2p;
  int st;
  if (op->kind == OP_F || op->kind == OP_FB) {
    st = stage_of(s, rank, op->pf);
    if (st % s->stages > 0) {
      double at = s->fin_f[(st - 1) * s->n + op->cf];
      if (at < 0.0) return -1.0;
      p2p = s->stage_rank[st - 1] != rank ? s->rk[rank].cost[op->pf].p2p : 0.0;
      if (at + p2p > ready) ready = at + p2p;
    }
  }
  if (op->kind == OP_B || op->kind == OP_FB) {
    st = stage_of(s, rank, op->pb);
    if (st % s->stages < s->stages - 1) {
      double at = s->fin_b[(st + 1) * s->n + op->cb];
      if (at < 0.0) return -1.0;
      p2p = s->stage_rank[st + 1] != rank ? s->rk[rank].cost[op->pb].p2p : 0.0;
      if (at + p2p > ready) ready = at + p2p;
    }
  }
  return ready;
}

/* Runs op on its rank from `start`: its duration and what it adds. */
static void op_run(step_run *s, int64_t rank, const sched_op *op, double start) {
  rank_run *rr = &s->rk[rank];
  double compute = 0.0, exposed = 0.0, gather = 0.0;
  if ((op->kind == OP_F || op->kind == OP_FB) && !rr->gathered[op->pf]) {
    gather = rr->cost[op->pf].gather;   /* FSDP all-gathers at the module's first forward */
    rr->gathered[op->pf] = 1;
  }
  switch (op->kind) {
    case OP_F:
      compute = rr->cost[op->pf].f.compute;
      exposed = rr->cost[op->pf].f.comm;
      break;
    case OP_B: {
      const op_cost *c = op->zb ? &rr->cost[op->pb].b_zb : &rr->cost[op->pb].b;
      compute = c->compute;
      exposed = c->comm;
      break;
    }
    case OP_W:
      compute = rr->cost[op->pb].w.compute;
      break;
    default:
      compute = rr->cost[op->pf].f.compute + rr->cost[op->pb].b.compute;
      exposed = memi_time_overlap_exposed(&rr->cost[op->pf], &rr->cost[op->pb]);
      break;
  }
  exposed += gather;
  rr->compute += compute;
  rr->exposed += exposed;
  rr->t = start + compute + exposed;
  if (rr->end != NULL) rr->end[rr->next] = rr->t;
  if (op->kind == OP_F || op->kind == OP_FB) {
    s->fin_f[stage_of(s, rank, op->pf) * s->n + op->cf] = rr->t;
  }
  if (op->kind == OP_B || op->kind == OP_FB) {
    s->fin_b[stage_of(s, rank, op->pb) * s->n + op->cb] = rr->t;
  }
}

/* The rank that may wait on op's results: the next stage's for a forward,
** the previous stage's for a backward; woken if it waits. */
static void wake(step_run *s, int64_t rank, int st, int fwd, int64_t *stack, int64_t *top) {
  int next = fwd ? st + 1 : st - 1;
  int64_t d;
  if (fwd ? st % s->stages == s->stages - 1 : st % s->stages == 0) return;   /* its chain's end */
  d = s->stage_rank[next];
  if (d != rank && s->rk[d].waiting) {
    s->rk[d].waiting = 0;
    stack[(*top)++] = d;
  }
}

/* Runs every rank's ops until all are done; -1 if they wait on each other.
** A rank runs until an op's input is missing, then waits until the op
** that makes it (on a neighbouring stage's rank) ends. */
static int pipeline_run(step_run *s, int64_t *stack) {
  int64_t top = 0, r;
  for (r = s->pp - 1; r >= 0; r--) {
    s->rk[r].waiting = 0;
    stack[top++] = r;
  }
  while (top > 0) {
    rank_run *rr;
    r = stack[--top];
    rr = &s->rk[r];
    while (rr->next < rr->tr->n) {
      const sched_op *op = &rr->tr->ops[rr->next];
      double ready = op_ready(s, r, op);
      if (ready < 0.0) {
        rr->waiting = 1;
        break;
      }
      op_run(s, r, op, ready > rr->t ? ready : rr->t);
      rr->next++;
      if (op->kind == OP_F || op->kind == OP_FB) wake(s, r, stage_of(s, r, op->pf), 1, stack, &top);
      if (op->kind == OP_B || op->kind == OP_FB) wake(s, r, stage_of(s, r, op->pb), 0, stack, &top);
    }
  }
  for (r = 0; r < s->pp; r++) {
    if (s->rk[r].next < s->rk[r].tr->n) return -1;
  }
  return 0;
}

/* One replay of a step of `chunks` micro-batches. */
static memest_code replay(step_run *s, int64_t chunks, memest_error *err) {
  trace_scratch *ts = s->ts;
  int64_t r, i, need = (int64_t)s->lo.chains * s->stages * chunks;
  int fresh;
  s->lo.chunks = chunks;
  s->n = chunks;
  if (2 * need > ts->fin_cap) {
    double *f = realloc(ts->fin, (size_t)(2 * need) * sizeof *f);
    if (f == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
    ts->fin = f;
    ts->fin_cap = 2 * need;
  }
  s->fin_f = ts->fin;
  s->fin_b = ts->fin + need;
  for (i = 0; i < 2 * need; i++) ts->fin[i] = -1.0;
  if (s->pp > ts->n_traces) {
    sched_trace *t = realloc(ts->traces, (size_t)s->pp * sizeof *t);
    if (t == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
    memset(t + ts->n_traces, 0, (size_t)(s->pp - ts->n_traces) * sizeof *t);
    ts->traces = t;
    ts->n_traces = s->pp;
  }
  fresh = ts->traced_sched != s->lo.sched || ts->traced_pp != s->pp || ts->traced_chunks != chunks ||
          ts->traced_v != s->lo.v;
  ts->traced_sched = NULL;
  for (r = 0; r < s->pp; r++) {
    rank_run *rr = &s->rk[r];
    rr->tr = &ts->traces[r];
    if (fresh) {
      memest_code rc = memi_sched_trace(&ts->tracer, s->mc, &s->lo, (int)r, rr->tr, err);
      if (rc) return rc;
    }
    rr->next = 0;
    rr->t = rr->compute = rr->exposed = 0.0;
    memset(rr->gathered, 0, sizeof rr->gathered);
    if (rr->keep && rr->tr->n > rr->end_cap) {
      double *e = realloc(rr->end, (size_t)rr->tr->n * sizeof *e);
      if (e == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
      rr->end = e;
      rr->end_cap = rr->tr->n;
    }
  }
  ts->traced_sched = s->lo.sched;   /* every rank traced: reusable */
  ts->traced_pp = s->pp;
  ts->traced_v = s->lo.v;
  ts->traced_chunks = chunks;
  if (pipeline_run(s, s->stack) != 0) {
    return memi_err_set(err, MEMEST_E_UNSUPPORTED, "",
                        "the time model found the pipeline's ops waiting on each other; this is a "
                        "bug in memest's schedule replay, please report it with the command line");
  }
  return MEMEST_OK;
}

/* {======================================================================
** Long steps.
** ======================================================================= */
/* Micro-batches of the first of the three short replays, at least; they
** are `period` apart, and the figures of a step repeat every `period`
** micro-batches once the pipeline is full (2*pp covers every period seen:
** 1, 2 and 4 for pp up to 8). */
static int64_t short_chunks(int64_t pp) { return 16 * pp + 128; }

static int same_slope(double a, double b, double c) {
  double d1 = b - a, d2 = c - b;
  return fabs(d1 - d2) <= 1e-7 * (fabs(c) > 1e-12 ? fabs(c) : 1e-12);
}

/* Where a rank's steady loop (the schedule's step 4) sits in its trace. */
typedef struct loop_shape {
  int64_t pre;               /* ops before it */
  int64_t first;             /* ops of its first iteration */
  int64_t per;               /* ops of each later iteration */
  int64_t iters;             /* its iterations */
} loop_shape;

/* The loop of trace t, or 0 if it has none of the expected shape. */
static int loop_of(const sched_trace *t, loop_shape *ls) {
  int64_t i, last = -1;
  memset(ls, 0, sizeof *ls);
  for (i = 0; i < t->n && t->ops[i].step < 4; i++) continue;
  ls->pre = i;
  for (; i < t->n && t->ops[i].step == 4; i++) {
    if (t->ops[i].iter == 0) ls->first++;
    else if (t->ops[i].iter == 1) ls->per++;
    if (t->ops[i].iter != last) ls->iters++;
    last = t->ops[i].iter;
  }
  return ls->per > 0 && ls->iters >= 2 &&
         ls->pre + ls->first + ls->per * (ls->iters - 1) == i;
}

/* The time of op `idx` of a step `extra` micro-batches longer than the
** replayed one, whose loop is ls, op ends e, slope `per_chunk`, repeating
** every `period` iterations; guard: iterations before the loop's end that
** may still differ from the longer step's. */
static double long_event(const loop_shape *ls, const double *e, int64_t idx, int64_t extra,
                         double per_chunk, int64_t period, int64_t guard) {
  int64_t safe = ls->iters - guard, big_loop = ls->first + ls->per * (ls->iters + extra - 1);
  int64_t small_loop = ls->first + ls->per * (ls->iters - 1);
  if (idx < ls->pre + ls->first + ls->per * (safe - 1)) return e[idx];
  if (idx < ls->pre + big_loop) {
    int64_t j = idx - ls->pre - ls->first, it = 1 + j / ls->per, pos = j % ls->per;
    int64_t at = safe - period + ((it - (safe - period)) % period);
    return e[ls->pre + ls->first + (at - 1) * ls->per + pos] + (double)(it - at) * per_chunk;
  }
  return e[idx - (big_loop - small_loop)] + (double)extra * per_chunk;
}
/* }====================================================================== */

/* Whether the result keeps a timeline of pipeline rank `rank`. */
static int keeps_timeline(const memest_result *r, int64_t rank) {
  int i;
  for (i = 0; i < r->n_ranks; i++) {
    if (r->ranks[i].rank == rank && r->ranks[i].tl != NULL && r->ranks[i].n_tl > 0) return 1;
  }
  return 0;
}

/* One block for the answer: the step, every rank, the event times. */
static step_time *time_alloc(const memest_result *r) {
  size_t size = sizeof(step_time) + (size_t)r->lo.pp * sizeof(rank_time) +
                (size_t)r->n_ranks * sizeof(double *);
  step_time *t;
  double *at;
  int i;
  for (i = 0; i < r->n_ranks; i++) {
    if (r->ranks[i].tl != NULL) size += (size_t)r->ranks[i].n_tl * sizeof(double);
  }
  t = calloc(1, size);
  if (t == NULL) return NULL;
  t->ranks = (rank_time *)(t + 1);
  t->event_t = (double **)(t->ranks + r->lo.pp);
  t->n_event_ranks = r->n_ranks;
  at = (double *)(t->event_t + r->n_ranks);
  for (i = 0; i < r->n_ranks; i++) {
    if (r->ranks[i].tl == NULL) continue;
    t->event_t[i] = at;
    at += r->ranks[i].n_tl;
  }
  return t;
}

/* When rank r's step-end reductions are done: its reduce-scatters after its
** last op, then under DualPipe the all-reduce with the rank holding the
** same stages in the other copy, once both are there. */
static double reduced_at(const step_run *s, const step_time *out, int64_t r) {
  const rank_run *rr = &s->rk[r];
  double at = out->ranks[r].end + rr->reduce, peer;
  if (rr->peer < 0) return at;
  peer = out->ranks[rr->peer].end + s->rk[rr->peer].reduce;
  return (peer > at ? peer : at) + rr->copies;
}

/* The figures of the whole step from the ranks' times (out->ranks' compute,
** exposed_comm and end filled in). */
static void step_figures(const step_run *s, const memest_result *res, step_time *out) {
  const layout *lo = &res->lo;
  double done = 0.0, opt = 0.0, flops = 0.0, tokens;
  int64_t r;
  int m;
  out->critical_rank = 0;
  for (r = 0; r < s->pp; r++) {
    const rank_run *rr = &s->rk[r];
    double at = reduced_at(s, out, r);
    if (at > done) {
      done = at;
      out->critical_rank = (int)r;
    }
    if (rr->optimizer > opt) opt = rr->optimizer;
    for (m = 0; m < lo->modules; m++) flops += rr->cost[m].model_flops;
  }
  out->step_seconds = done + opt;
  for (r = 0; r < s->pp; r++) {
    rank_time *rt = &out->ranks[r];
    rt->rank = (int)r;
    rt->step_end = s->rk[r].reduce + s->rk[r].copies;
    rt->optimizer = s->rk[r].optimizer;
    rt->idle = out->step_seconds - rt->compute - rt->exposed_comm - rt->step_end - rt->optimizer;
    if (rt->idle < 0.0) rt->idle = 0.0;
  }
  tokens = (double)lo->gbs * (double)lo->seq;
  /* Each chain's modules see its share of the micro-batches (DualPipe: half each). */
  out->model_flops = flops * (double)lo->chunks / (double)lo->chains * (double)(lo->world / lo->pp);
  if (out->step_seconds > 0.0) {
    const rank_time *c = &out->ranks[out->critical_rank];
    out->tokens_per_second = tokens / out->step_seconds;
    out->tokens_per_second_per_gpu = out->tokens_per_second / (double)lo->world;
    out->mfu = out->model_flops / (out->step_seconds * (double)lo->world * s->env->hw.bf16_tflops * 1e12);
    out->bubble_fraction = c->idle / out->step_seconds;
    out->exposed_comm_fraction = c->exposed_comm / out->step_seconds;
  }
}

/* Each kept event's time: its op's end (the loop of a long step shifted by
** whole periods: ls, extra and slope per rank), the step end's, the step's. */
static void event_times(const step_run *s, const memest_result *res, step_time *out,
                        const loop_shape *ls, int64_t extra, const double *slope, int64_t period) {
  int i;
  int64_t k;
  for (i = 0; i < out->n_event_ranks; i++) {
    const rank_result *rr = &res->ranks[i];
    const rank_run *run = &s->rk[rr->rank];
    for (k = 0; out->event_t[i] != NULL && k < rr->n_tl; k++) {
      int64_t at = rr->tl_from + k;
      const tl_event *e = &rr->tl[k];
      double t;
      if (e->step > 9) t = out->step_seconds;
      else if (e->step == 9 || run->end == NULL) t = reduced_at(s, out, rr->rank);
      else if (extra == 0) t = at < run->tr->n ? run->end[at] : out->ranks[rr->rank].end;
      else t = long_event(&ls[rr->rank], run->end, at, extra, slope[rr->rank], period, 2 * s->pp + 4);
      out->event_t[i][k] = t;
    }
  }
}

static void step_run_free(step_run *s) {
  int64_t r;
  if (s->rk != NULL) {
    for (r = 0; r < s->pp; r++) free(s->rk[r].end);
  }
  free(s->rk);
  free(s->stack);
}

/* The environment: the GPU's row with the link overrides, the efficiencies. */
static memest_code env_build(const memest_result *r, int64_t gpus_per_node, time_env *env,
                             step_time *out, memest_error *err) {
  const memest_params *p = &r->params;
  const gpu_hw *hw = p->gpu[0] ? memi_gpu_hw(p->gpu) : NULL;
  memest_code rc;
  memset(env, 0, sizeof *env);
  if (hw == NULL) {
    snprintf(out->note, sizeof out->note,
             "the time model needs the GPU kind: give --gpu h100|h200|b200|a100-80|a100-40 "
             "(a memory size alone says nothing of its speed)");
    return MEMEST_OK;
  }
  env->mc = &r->mc;
  env->lo = &r->lo;
  env->p = p;
  env->hw = *hw;
  if (p->nvlink_gb_per_s > 0.0) env->hw.nvlink_gb_per_s = p->nvlink_gb_per_s;
  if (p->network_gbit_per_s > 0.0) env->hw.network_gbit_per_s = p->network_gbit_per_s;
  if (gpus_per_node > 0) env->hw.gpus_per_node = (int)gpus_per_node;
  if ((rc = memi_eff_resolve(p, env->eff, err))) return rc;
  env->flops_peak = env->hw.bf16_tflops * 1e12;
  if (p->fp8_training == MEMEST_FP8_DEEP_GEMM && env->hw.fp8_tflops > 0.0) {
    env->flops_peak = env->hw.fp8_tflops * 1e12;
  }
  out->known = 1;
  out->hw = env->hw;
  memcpy(out->eff, env->eff, sizeof out->eff);
  return MEMEST_OK;
}

/* The rank holding rank's first module's stage in the other chain
** (DualPipe's other copy), or -1 with one chain. (A rank that holds both
** copies of its stage has itself: the all-reduce moves nothing.) */
static int64_t copy_peer(const layout *lo, int64_t rank) {
  int64_t stages = lo->sched->stages(lo->pp, lo->v), pos, want, q;
  int m;
  if (lo->sched->chains < 2) return -1;
  pos = lo->sched->stage_of(lo->pp, lo->v, rank, 0);
  want = pos < stages ? pos + stages : pos - stages;
  for (q = 0; q < lo->pp; q++) {
    for (m = 0; m < lo->modules; m++) {
      if (lo->sched->stage_of(lo->pp, lo->v, q, m) == want) return q;
    }
  }
  return -1;
}

/* Each rank's costs, stages and step end, once for every replay. */
static memest_code ranks_build(step_run *s, const memest_result *r, memest_error *err) {
  rank_inv ri;
  memest_code rc = MEMEST_OK;
  int64_t rank;
  int m;
  memset(&ri, 0, sizeof ri);
  for (rank = 0; rank < s->pp && rc == MEMEST_OK; rank++) {
    rank_run *rr = &s->rk[rank];
    for (m = 0; m < r->lo.modules; m++) {
      rr->stage[m] = r->lo.sched->stage_of(s->pp, r->lo.v, rank, m);
      s->stage_rank[rr->stage[m]] = (int)rank;
    }
    rr->keep = keeps_timeline(r, rank);
    if ((rc = memi_inv_build(&r->mc, &r->lo, &r->params, (int)rank, &ri, err))) break;
    for (m = 0; m < ri.n_mod; m++) memi_time_module_cost(s->env, &ri, m, &rr->cost[m]);
    memi_time_step_end(s->env, &ri, &rr->reduce, &rr->optimizer);
    rr->peer = copy_peer(&r->lo, rank);
    rr->copies = memi_time_copy_reduce(s->env, &ri, rr->peer);
  }
  memi_inv_free(&ri);
  return rc;
}

/* A long step from three short replays: 1 when their figures grow by the
** same amount each (then out->ranks and the event times are filled in), 0
** to replay the step whole. */
static int long_step(step_run *s, const memest_result *r, step_time *out, memest_error *err,
                     memest_code *rc) {
  int64_t period = 2 * s->pp, base = short_chunks(s->pp), rank;
  int64_t n0 = base + (r->lo.chunks - base) % period, extra = r->lo.chunks - (n0 + 2 * period);
  rank_sum *sum = calloc((size_t)(3 * s->pp), sizeof *sum);
  loop_shape *ls = calloc((size_t)s->pp, sizeof *ls);
  double *slope = calloc((size_t)s->pp, sizeof *slope);
  int k, ok = extra > 0;
  if (sum == NULL || ls == NULL || slope == NULL) {
    *rc = memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
    ok = 0;
  }
  for (k = 0; ok && k < 3; k++) {
    if ((*rc = replay(s, n0 + period * k, err)) != MEMEST_OK) ok = 0;
    for (rank = 0; ok && rank < s->pp; rank++) {
      sum[k * s->pp + rank].t = s->rk[rank].t;
      sum[k * s->pp + rank].compute = s->rk[rank].compute;
      sum[k * s->pp + rank].exposed = s->rk[rank].exposed;
    }
  }
  for (rank = 0; ok && rank < s->pp; rank++) {
    const rank_sum *a = &sum[rank], *b = &sum[s->pp + rank], *c = &sum[2 * s->pp + rank];
    double steps = (double)(extra / period);
    if (!same_slope(a->t, b->t, c->t) || !same_slope(a->compute, b->compute, c->compute) ||
        !same_slope(a->exposed, b->exposed, c->exposed) || !loop_of(s->rk[rank].tr, &ls[rank]) ||
        ls[rank].iters < 4 * s->pp + 8) {
      ok = 0;
      break;
    }
    slope[rank] = (c->t - b->t) / (double)period;
    out->ranks[rank].end = c->t + steps * (c->t - b->t);
    out->ranks[rank].compute = c->compute + steps * (c->compute - b->compute);
    out->ranks[rank].exposed_comm = c->exposed + steps * (c->exposed - b->exposed);
  }
  if (ok) {
    out->from_short = 1;
    step_figures(s, r, out);
    event_times(s, r, out, ls, extra, slope, period);
  }
  free(sum);
  free(ls);
  free(slope);
  return ok;
}

static memest_code time_run(const memest_result *r, int64_t gpus_per_node, int64_t whole_up_to,
                            trace_scratch *ts, step_time **answer, memest_error *err) {
  time_env env;
  step_run s;
  step_time *out;
  memest_code rc;
  int64_t rank;
  *answer = NULL;
  out = time_alloc(r);
  if (out == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
  if ((rc = env_build(r, gpus_per_node, &env, out, err)) || !out->known) {
    if (rc) free(out);
    else *answer = out;
    return rc;
  }
  memset(&s, 0, sizeof s);
  s.ts = ts;
  s.env = &env;
  s.mc = &r->mc;
  s.lo = r->lo;
  s.pp = r->lo.pp;
  s.stages = r->lo.stages;
  out->n_ranks = (int)s.pp;
  s.rk = calloc((size_t)s.pp, sizeof *s.rk);
  s.stack = malloc((size_t)s.pp * sizeof *s.stack);
  if (s.rk == NULL || s.stack == NULL) rc = memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
  if (rc == MEMEST_OK) rc = ranks_build(&s, r, err);
  if (whole_up_to < 0) whole_up_to = 3 * (short_chunks(s.pp) + 4 * s.pp);
  if (rc == MEMEST_OK && r->lo.chunks > whole_up_to &&
      r->lo.chunks > short_chunks(s.pp) + 6 * s.pp &&
      (short_chunks(s.pp) + 6 * s.pp) * s.pp <= MEMEST_MAX_REPLAY_CHUNKS &&
      long_step(&s, r, out, err, &rc)) {
    step_run_free(&s);
    *answer = out;
    return MEMEST_OK;
  }
  if (rc == MEMEST_OK && r->lo.chunks * s.pp > MEMEST_MAX_REPLAY_CHUNKS) {
    /* The replay's own work limit (layout.c): past it the step is not known. */
    out->known = 0;
    snprintf(out->note, sizeof out->note,
             "%lld micro-batches on each of %lld pipeline ranks are more than the time model "
             "replays whole (MEMEST_MAX_REPLAY_CHUNKS = %lld), and its short replays did not "
             "settle; use a larger --micro-batch-size or a smaller --global-batch-size",
             (long long)r->lo.chunks, (long long)s.pp, (long long)MEMEST_MAX_REPLAY_CHUNKS);
    step_run_free(&s);
    *answer = out;
    return MEMEST_OK;
  }
  if (rc == MEMEST_OK) rc = replay(&s, r->lo.chunks, err);
  if (rc == MEMEST_OK) {
    for (rank = 0; rank < s.pp; rank++) {
      out->ranks[rank].end = s.rk[rank].t;
      out->ranks[rank].compute = s.rk[rank].compute;
      out->ranks[rank].exposed_comm = s.rk[rank].exposed;
    }
    step_figures(&s, r, out);
    event_times(&s, r, out, NULL, 0, NULL, 1);
  }
  step_run_free(&s);
  if (rc != MEMEST_OK) free(out);
  else *answer = out;
  return rc;
}

memest_code memi_time_run_with(const memest_result *r, int64_t gpus_per_node, int64_t whole_up_to,
                               est_cache *cache, step_time **answer, memest_error *err) {
  trace_scratch local;
  memest_code rc;
  if (cache != NULL) return time_run(r, gpus_per_node, whole_up_to, memi_est_cache_traces(cache), answer, err);
  memset(&local, 0, sizeof local);
  rc = time_run(r, gpus_per_node, whole_up_to, &local, answer, err);
  memi_trace_scratch_release(&local);
  return rc;
}

memest_code memi_time_run(const memest_result *r, int64_t gpus_per_node, est_cache *cache,
                          step_time **answer, memest_error *err) {
  return memi_time_run_with(r, gpus_per_node, -1, cache, answer, err);
}
