/*
** plan_estimate.c — the estimates of a plan's checked rows and the
** DualPipeV bubble beside each. Native POSIX builds share the rows among
** up to MEMEST_PLAN_THREADS threads, each with its own scratch result; a
** row's figures depend on its inputs alone, so the plan is the same for
** any thread count. The WebAssembly build estimates on the calling thread.
** Design note: docs/planner.md ("Pipeline bubble", "Limits and speed").
*/
#if !defined(__EMSCRIPTEN__) && (defined(__unix__) || defined(__APPLE__))
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>
#define PLAN_POSIX 1
#endif

/* Threads one plan may use (1: estimate on the calling thread). On by
** default where the C library provides POSIX threads without -pthread. */
#ifndef MEMEST_PLAN_THREADS
#if defined(PLAN_POSIX) && \
    (!defined(__GLIBC__) || __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define MEMEST_PLAN_THREADS 8
#else
#define MEMEST_PLAN_THREADS 1
#endif
#endif
#if MEMEST_PLAN_THREADS > 1 && !defined(PLAN_POSIX)
#error "MEMEST_PLAN_THREADS > 1 needs POSIX threads"
#endif

#include <stdlib.h>
#include <string.h>

#if MEMEST_PLAN_THREADS > 1
#include <pthread.h>
#endif

#include "plan.h"

/* {======================================================================
** The bubble model.
**
** DualPipeV runs 2*pp stages on pp GPUs; DualPipe's bubble with PP stages
** is (PP/2 - 1)(F&B + B - 3W), so (pp - 1)(F&B + B - 3W) here, against the
** 2 * num_chunks * (F + B) a GPU computes per step. F is the forward of one
** micro-batch through one stage, B = 2F, F&B = F + B (overlapping hides
** communication, not compute), W = w*F with w the expert weight-gradient
** share of the forward matmul FLOPs, the only weight gradients deferred.
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

double plan_expert_share(const model_config *mc, int64_t seq) {
  double f = 0.0, w = 0.0, lw;
  int64_t l;
  for (l = 0; l < mc->layers; l++) {
    f += layer_flops(mc, (int)l, seq, &lw);
    w += lw;
  }
  return f > 0.0 ? w / f : 0.0;
}

static double bubble_fraction(int64_t pp, int64_t chunks, double w) {
  double stall, work;
  if (pp < 2) return 0.0;
  stall = (double)(pp - 1) * (5.0 - 3.0 * w);
  work = 6.0 * (double)chunks;
  return stall / (stall + work);
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
  int *next;                 /* the next row to take (shared) */
#if MEMEST_PLAN_THREADS > 1
  pthread_mutex_t *lock;     /* guards *next */
#endif
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
    es->share = plan_expert_share(es->mc, es->share_seq);
  }
  row->bubble = bubble_fraction(row->in[D_PP], row->chunks, es->share);
}

/* Estimates row i; a failure stays in row->fail and row->fail_err for the
** caller (fail_err NULL if even that could not be allocated). */
static void estimate_row(estimator *es, int i) {
  plan_row *row = &es->pl->rows[i];
  memest_params p;
  memest_error e;
  memest_plan_row_params(es->pl, i, &p, &e);
  row->fail = est_run(es->mc, &p, es->scratch, 0, &e);
  if (row->fail != MEMEST_OK) {
    row->fail_err = malloc(sizeof *row->fail_err);
    if (row->fail_err != NULL) *row->fail_err = e;
    return;
  }
  row_figures(es, row);
  est_release(es->scratch);
}

static int take(estimator *es) {
  int i;
#if MEMEST_PLAN_THREADS > 1
  if (es->lock != NULL) pthread_mutex_lock(es->lock);
#endif
  i = (*es->next)++;
#if MEMEST_PLAN_THREADS > 1
  if (es->lock != NULL) pthread_mutex_unlock(es->lock);
#endif
  return i;
}

/* Takes rows until none is left; runs on every thread. */
static void *estimate_loop(void *arg) {
  estimator *es = arg;
  int i;
  while ((i = take(es)) < es->pl->n_rows) {
    if (es->pl->rows[i].fail == PLAN_PENDING) estimate_row(es, i);
  }
  return NULL;
}

static int thread_count(const memest_plan *pl) {
  long n = 1;
#if MEMEST_PLAN_THREADS > 1
  n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n > MEMEST_PLAN_THREADS) n = MEMEST_PLAN_THREADS;
  if (n > pl->n_rows / 4) n = pl->n_rows / 4;
#endif
  (void)pl;
  return n > 1 ? (int)n : 1;
}

memest_code plan_estimate(memest_plan *pl, const model_config *mc, memest_error *err) {
  estimator es[MEMEST_PLAN_THREADS];
  int t, n = thread_count(pl), next = 0, failed = 0;
#if MEMEST_PLAN_THREADS > 1
  pthread_t tid[MEMEST_PLAN_THREADS];
  int started[MEMEST_PLAN_THREADS] = {0};
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#endif
  for (t = 0; t < n; t++) {
    memset(&es[t], 0, sizeof es[t]);
    es[t].pl = pl;
    es[t].mc = mc;
    es[t].share_seq = -1;
    es[t].next = &next;
    es[t].scratch = malloc(sizeof *es[t].scratch);
    failed |= es[t].scratch == NULL;
#if MEMEST_PLAN_THREADS > 1
    es[t].lock = n > 1 ? &lock : NULL;
#endif
  }
#if MEMEST_PLAN_THREADS > 1
  for (t = 1; t < n && !failed; t++) {
    started[t] = pthread_create(&tid[t], NULL, estimate_loop, &es[t]) == 0;
  }
#endif
  if (!failed) estimate_loop(&es[0]);
#if MEMEST_PLAN_THREADS > 1
  for (t = 1; t < n; t++) {
    if (started[t]) pthread_join(tid[t], NULL);
  }
#endif
  for (t = 0; t < n; t++) free(es[t].scratch);
  if (failed) return err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan's estimates");
  return MEMEST_OK;
}
/* }====================================================================== */
