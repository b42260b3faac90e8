/*
** plan_estimate.c — the estimates of a range of a plan's checked rows and
** the schedule's bubble and the time model's step beside each, one row
** after another on the calling thread with one scratch result and the
** plan's est_cache (each layer shape built once for all rows). A row's
** figures depend on its inputs alone. Design note: docs/planner.md
** ("Pipeline bubble", "Objective", "Limits and speed").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/routing_margin.h"
#include "sim/schedule.h"
#include "time/time.h"

/* {======================================================================
** The bubble model: the schedule's idle share (schedule.h) against the
** 2 * num_chunks * (F + B) a GPU computes per step, with W = w*F and w the
** expert weight-gradient share of the forward matmul FLOPs, the only
** weight gradients deferred.
** ======================================================================= */

/* Forward matmul FLOPs per token of one layer (attention projections,
** router, active experts, dense MLPs and the causal attention scores), and
** the deferred expert weight-gradient FLOPs (*wgrad). */
static double layer_flops(const model_config *mc, int layer, int64_t seq, double *wgrad) {
  param_list pl;
  double f = 0.0, keys = 0.0, qk, v;
  int i;
  pl.n = 0;
  mc->arch->layer_params(mc, layer, mc->experts > 0 ? mc->top_k : 0, &pl);
  *wgrad = 0.0;
  for (i = 0; i < pl.n; i++) {
    const param_desc *p = &pl.p[i];
    double n = (double)p->d[0] * (double)p->d[1] * (double)p->d[2];
    if (p->ndim < 2) continue;
    f += 2.0 * n;
    if (p->deferred) *wgrad += 2.0 * n;
  }
  if (mc->layer_attn[layer] == ATTN_FULL) keys = (double)seq / 2.0;
  if (mc->layer_attn[layer] == ATTN_SLIDING) {
    keys = (double)seq / 2.0;
    if (mc->sliding_window > 0 && (double)mc->sliding_window < keys) {
      keys = (double)mc->sliding_window;
    }
  }
  qk = (double)(mc->kv_lora_rank > 0 ? mc->qk_nope + mc->qk_rope : mc->head_dim);
  v = (double)(mc->kv_lora_rank > 0 ? mc->v_head : mc->head_dim);
  return f + 2.0 * keys * (double)mc->heads * (qk + v);
}

double memi_plan_expert_share(const model_config *mc, int64_t seq) {
  double f = 0.0, w = 0.0, lw;
  int64_t l;
  for (l = 0; l < mc->layers; l++) {
    f += layer_flops(mc, (int)l, seq, &lw);
    w += lw;
  }
  return f > 0.0 ? w / f : 0.0;
}

/* }====================================================================== */

/* {======================================================================
** Estimating rows.
** ======================================================================= */
/* One estimator: a scratch result and the last expert share it computed. */
typedef struct estimator {
  memest_plan *pl;
  const model_config *mc;
  memest_result *scratch;
  int64_t share_seq;
  double share;
} estimator;

static void row_figures(estimator *es, plan_row *row) {
  const memest_result *r = es->scratch;
  const rank_result *w = &r->ranks[r->worst];
  row->status = r->status;
  row->peak = r->peak;
  row->tensor_peak = r->tensor_peak;
  row->headroom = r->headroom;
  row->capacity = r->capacity;
  row->chunks = r->lo.chunks;
  row->nonpt = w->nonpt;
  row->frag = w->frag;
  row->worst_rank = w->rank;
  row->comps = w->at_peak;
  if (es->share_seq != row->in[D_SEQ]) {
    es->share_seq = row->in[D_SEQ];
    es->share = memi_plan_expert_share(es->mc, es->share_seq);
  }
  row->bubble = r->lo.sched->bubble(row->in[D_PP], r->lo.v, row->chunks, es->share);
  row->pp_stages = memi_schedule_pp_stages(&r->lo);
  row->parameter_copies = memi_schedule_parameter_copies(&r->lo);
  row->activation_units = memi_schedule_activation_units(&r->lo, memi_result_max_live(r));
}

/* The time model's figures of the scratch result into row: the step of
** its layout on the plan's nodes; a GPU without a time keeps time_known 0
** and its note in the plan. A failure fails the row as an estimate's does. */
static memest_code row_time(estimator *es, plan_row *row, memest_error *err) {
  step_time *t = NULL;
  memest_code rc = memi_time_run(es->scratch, es->pl->gpus_per_node, es->pl->cache, &t, err);
  if (rc != MEMEST_OK) return rc;
  row->time_known = t->known;
  if (t->known) {
    row->step_seconds = t->step_seconds;
    row->tokens_per_second = t->tokens_per_second;
    row->tokens_per_second_per_gpu = t->tokens_per_second_per_gpu;
    row->mfu = t->mfu;
    row->time_bubble = t->bubble_fraction;
  } else if (es->pl->time_note[0] == '\0') {
    snprintf(es->pl->time_note, sizeof es->pl->time_note, "%s", t->note);
  }
  free(t);
  return MEMEST_OK;
}

/* Estimates row i; a failure of the row's inputs stays in row->fail and
** row->fail_err for the report, while running out of memory fails the plan. */
static memest_code estimate_row(estimator *es, int i, memest_error *err) {
  plan_row *row = &es->pl->rows[i];
  memest_params p;
  memest_error e;
  memest_code rc;
  run_dims d;
  memi_plan_row_params(es->pl, row, &p);
  rc = memi_est_run(es->mc, &p, es->scratch, es->pl->cache, &e);
  if (rc == MEMEST_OK) {
    d = es->scratch->lo.d;
    row_figures(es, row);
    if (!es->pl->bare) rc = row_time(es, row, &e);
    memi_est_release(es->scratch);
  }
  if (rc == MEMEST_OK && !es->pl->bare) {
    rc = memi_routing_margin(es->mc, &p, &d, row->peak - row->capacity, row->worst_rank,
                             ROUTING_PLAN_GRID, es->pl->cache, &row->routing, &e);
  }
  if (rc == MEMEST_E_NOMEM) {
    if (err != NULL) *err = e;
    return rc;
  }
  row->fail = rc;
  if (rc != MEMEST_OK) {
    row->fail_err = malloc(sizeof *row->fail_err);
    if (row->fail_err == NULL) {
      return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan's rows");
    }
    *row->fail_err = e;
  }
  return MEMEST_OK;
}

memest_code memi_plan_estimate(memest_plan *pl, const model_config *mc, int from, int to,
                          memest_error *err) {
  estimator es;
  int i;
  memest_code rc = MEMEST_OK;
  memset(&es, 0, sizeof es);
  es.pl = pl;
  es.mc = mc;
  es.share_seq = -1;
  es.scratch = malloc(sizeof *es.scratch);
  /* The plan keeps one cache for all its pieces; without one (out of
  ** memory) each estimate builds its own programs. */
  if (pl->cache == NULL) pl->cache = memi_est_cache_new();
  if (es.scratch == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan's estimates");
  }
  for (i = from; i < to && rc == MEMEST_OK; i++) {
    if (pl->rows[i].fail == PLAN_PENDING) rc = estimate_row(&es, i, err);
  }
  free(es.scratch);
  return rc;
}
/* }====================================================================== */
