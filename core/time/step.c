/*
** step.c — the step across pipeline ranks (docs/time-model.md, "The
** step"): every rank's op trace (sim/trace.c) run in order, each op
** starting when its rank is free and its inputs have arrived (a chunk's
** forward on stage s waits for stage s-1's, a backward for stage s+1's,
** plus the P2P transfer between ranks), then each rank's step end and the
** optimizer. Idle time, exposed communication and the critical path come
** from that replay, not from a formula.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"
#include "time/time.h"

typedef struct rank_run {
  sched_trace tr;
  module_cost cost[MEMEST_MAX_MODULES];
  int gathered[MEMEST_MAX_MODULES];
  int stage[MEMEST_MAX_MODULES];   /* the stage each module holds */
  int64_t next;              /* the next op */
  double t;                  /* when the rank is free */
  double *end;               /* each op's end (ranks whose timeline is kept) */
  double reduce, optimizer;
} rank_run;

typedef struct step_run {
  const time_env *env;
  int64_t pp, n, stages;
  rank_run *rk;
  double *fin_f, *fin_b;     /* [stage * n + chunk]: when it is done, -1 before */
  int stage_rank[MEMEST_MAX_MODULES * MEMEST_MAX_PP];
  step_time *out;
} step_run;

static int stage_of(const step_run *s, int64_t rank, int m) {
  return s->rk[rank].stage[m];
}

/* When op's inputs are there, or -1 if one is not done yet. */
static double op_ready(const step_run *s, int64_t rank, const sched_op *op) {
  double ready = 0.0, p2p;
  int st;
  if (op->kind == OP_F || op->kind == OP_FB) {
    st = stage_of(s, rank, op->pf);
    if (st > 0) {
      double at = s->fin_f[(st - 1) * s->n + op->cf];
      if (at < 0.0) return -1.0;
      p2p = s->stage_rank[st - 1] != rank ? s->rk[rank].cost[op->pf].p2p : 0.0;
      if (at + p2p > ready) ready = at + p2p;
    }
  }
  if (op->kind == OP_B || op->kind == OP_FB) {
    st = stage_of(s, rank, op->pb);
    if (st < s->stages - 1) {
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
  rank_time *rt = &s->out->ranks[rank];
  double dur = 0.0, compute = 0.0, exposed = 0.0, gather = 0.0;
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
      memi_time_overlap(s->env, &rr->cost[op->pf], &rr->cost[op->pb], &exposed);
      break;
  }
  exposed += gather;
  dur = compute + exposed;
  rt->idle += start - rr->t;
  rt->compute += compute;
  rt->exposed_comm += exposed;
  rr->t = start + dur;
  if (rr->end != NULL) rr->end[rr->next] = rr->t;
  if (op->kind == OP_F || op->kind == OP_FB) {
    s->fin_f[stage_of(s, rank, op->pf) * s->n + op->cf] = rr->t;
  }
  if (op->kind == OP_B || op->kind == OP_FB) {
    s->fin_b[stage_of(s, rank, op->pb) * s->n + op->cb] = rr->t;
  }
}

/* Runs every rank's ops until all are done; -1 if they wait on each other. */
static int pipeline_run(step_run *s) {
  int progress = 1;
  int64_t r;
  while (progress) {
    progress = 0;
    for (r = 0; r < s->pp; r++) {
      rank_run *rr = &s->rk[r];
      while (rr->next < rr->tr.n) {
        const sched_op *op = &rr->tr.ops[rr->next];
        double ready = op_ready(s, r, op);
        if (ready < 0.0) break;
        op_run(s, r, op, ready > rr->t ? ready : rr->t);
        rr->next++;
        progress = 1;
      }
    }
  }
  for (r = 0; r < s->pp; r++) {
    if (s->rk[r].next < s->rk[r].tr.n) return -1;
  }
  return 0;
}

/* The figures of the whole step from the ranks' times. */
static void step_figures(step_run *s, const memest_result *res) {
  step_time *out = s->out;
  const layout *lo = s->env->lo;
  double done = 0.0, opt = 0.0, flops = 0.0, tokens;
  int64_t r;
  int m;
  out->critical_rank = 0;
  for (r = 0; r < s->pp; r++) {
    rank_run *rr = &s->rk[r];
    double at = rr->t + rr->reduce;
    if (at > done) {
      done = at;
      out->critical_rank = (int)r;
    }
    if (rr->optimizer > opt) opt = rr->optimizer;
    if (rr->t > out->pipeline_end) out->pipeline_end = rr->t;
    for (m = 0; m < lo->sched->modules; m++) flops += rr->cost[m].model_flops;
  }
  out->step_seconds = done + opt;
  for (r = 0; r < s->pp; r++) {
    rank_time *rt = &out->ranks[r];
    rt->step_end = s->rk[r].reduce;
    rt->optimizer = s->rk[r].optimizer;
    rt->end = s->rk[r].t;
    rt->idle = out->step_seconds - rt->compute - rt->exposed_comm - rt->step_end - rt->optimizer;
    if (rt->idle < 0.0) rt->idle = 0.0;
  }
  tokens = (double)lo->gbs * (double)lo->seq;
  out->model_flops = flops * (double)lo->chunks * (double)(lo->world / lo->pp);
  if (out->step_seconds > 0.0) {
    const rank_time *c = &out->ranks[out->critical_rank];
    out->tokens_per_second = tokens / out->step_seconds;
    out->tokens_per_second_per_gpu = out->tokens_per_second / (double)lo->world;
    out->mfu = out->model_flops / (out->step_seconds * (double)lo->world * s->env->hw.bf16_tflops * 1e12);
    out->bubble_fraction = c->idle / out->step_seconds;
    out->exposed_comm_fraction = c->exposed_comm / out->step_seconds;
  }
  (void)res;
}

/* The op end time of every kept timeline event of the result's ranks. */
static void event_times(step_run *s, const memest_result *res) {
  step_time *out = s->out;
  int i;
  int64_t k;
  for (i = 0; i < out->n_event_ranks; i++) {
    const rank_result *rr = &res->ranks[i];
    const rank_run *run = &s->rk[rr->rank];
    for (k = 0; out->event_t[i] != NULL && k < rr->n_tl; k++) {
      int64_t at = rr->tl_from + k;
      const tl_event *e = &rr->tl[k];
      if (at < run->tr.n && e->step <= 8) out->event_t[i][k] = run->end != NULL ? run->end[at] : 0.0;
      else if (e->step <= 9) out->event_t[i][k] = run->t + run->reduce;
      else out->event_t[i][k] = out->step_seconds;
    }
  }
}

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

static void step_run_free(step_run *s) {
  int64_t r;
  if (s->rk != NULL) {
    for (r = 0; r < s->pp; r++) {
      memi_sched_trace_free(&s->rk[r].tr);
      free(s->rk[r].end);
    }
  }
  free(s->rk);
  free(s->fin_f);
  free(s->fin_b);
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

memest_code memi_time_run(const memest_result *r, int64_t gpus_per_node, step_time **answer,
                          memest_error *err) {
  time_env env;
  step_run s;
  rank_inv ri;
  step_time *out;
  memest_code rc;
  int64_t rank, i;
  int m;
  *answer = NULL;
  out = time_alloc(r);
  if (out == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
  if ((rc = env_build(r, gpus_per_node, &env, out, err)) || !out->known) {
    if (rc) free(out);
    else *answer = out;
    return rc;
  }
  memset(&s, 0, sizeof s);
  memset(&ri, 0, sizeof ri);
  s.env = &env;
  s.out = out;
  s.pp = r->lo.pp;
  s.n = r->lo.chunks;
  s.stages = r->lo.stages;
  s.rk = calloc((size_t)s.pp, sizeof *s.rk);
  s.fin_f = malloc((size_t)(s.stages * s.n) * sizeof *s.fin_f);
  s.fin_b = malloc((size_t)(s.stages * s.n) * sizeof *s.fin_b);
  if (s.rk == NULL || s.fin_f == NULL || s.fin_b == NULL) {
    step_run_free(&s);
    free(out);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
  }
  out->n_ranks = (int)s.pp;
  for (i = 0; i < s.stages * s.n; i++) s.fin_f[i] = s.fin_b[i] = -1.0;
  rc = MEMEST_OK;
  for (rank = 0; rank < s.pp && rc == MEMEST_OK; rank++) {
    rank_run *rr = &s.rk[rank];
    out->ranks[rank].rank = (int)rank;
    for (m = 0; m < r->lo.sched->modules; m++) {
      rr->stage[m] = r->lo.sched->stage_of(s.pp, rank, m);
      s.stage_rank[rr->stage[m]] = (int)rank;
    }
    if ((rc = memi_inv_build(&r->mc, &r->lo, &r->params, (int)rank, &ri, err))) break;
    for (m = 0; m < ri.n_mod; m++) memi_time_module_cost(&env, &ri, m, &rr->cost[m]);
    memi_time_step_end(&env, &ri, &rr->reduce, &rr->optimizer);
    if ((rc = memi_sched_trace(&r->mc, &r->lo, (int)rank, &rr->tr, err))) break;
    if (!keeps_timeline(r, rank)) continue;
    rr->end = malloc((size_t)(rr->tr.n > 0 ? rr->tr.n : 1) * sizeof *rr->end);
    if (rr->end == NULL) rc = memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the time model");
  }
  memi_inv_free(&ri);
  if (rc == MEMEST_OK && pipeline_run(&s) != 0) {
    rc = memi_err_set(err, MEMEST_E_UNSUPPORTED, "",
                      "the time model found the pipeline's ops waiting on each other; this is a "
                      "bug in memest's schedule replay, please report it with the command line");
  }
  if (rc == MEMEST_OK) {
    step_figures(&s, r);
    event_times(&s, r);
  }
  step_run_free(&s);
  if (rc != MEMEST_OK) free(out);
  else *answer = out;
  return rc;
}
