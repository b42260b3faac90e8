/*
** test_schedules.c — the five pipeline schedules against what their
** sources say (docs/schedules.md): DualPipe's table of activations and
** parameters per device for 4, 8 and 16 stages on every preset; its
** bubbles from each schedule's replayed op order with uniform F, B, W and
** F&B; 1F1B's min(p-r, m) micro-batches in flight; interleaved 1F1B's
** p + (p-1)/v on rank 0 (Megatron's theoretical memory); ZB-H1 holding
** 1F1B's in-flight micro-batches, its peak above 1F1B's by no more than
** the weight-gradient captures it defers.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/result.h"
#include "sim/schedule.h"

/* A run of preset `model` on pp GPUs (dp 1, ep 1) with `chunks`
** micro-batches under schedule s. */
static memest_result *run(const char *model, memest_schedule s, int64_t pp, int v,
                          int64_t chunks, int64_t seq) {
  memest_params p;
  memest_result *r = NULL;
  memest_error e;
  char text[32];
  check_params(&p, model, pp, 1, 1, pp, 1, chunks, seq, "h200");
  memest_params_set(&p, "schedule", memest_schedule_name(s), &e);
  if (s == MEMEST_SCHED_INTERLEAVED) {
    snprintf(text, sizeof text, "%d", v);
    memest_params_set(&p, "virtual_stages", text, &e);
  }
  if (memest_estimate(NULL, 0, &p, &r, &e) != MEMEST_OK) {
    printf("  %s %s pp %lld v %d chunks %lld: %s\n", model, memest_schedule_name(s), (long long)pp,
           v, (long long)chunks, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

/* DualPipe's README table: per device, activations PP / PP / PP+1 / PP+1
** stages of one micro-batch and parameters 1x / 1x / 2x / 2x (1F1B, ZB-H1,
** DualPipe, DualPipeV), with PP stages: PP GPUs, DualPipeV's PP/2. */
static void test_readme_table(void) {
  static const memest_schedule s[4] = {MEMEST_SCHED_1F1B, MEMEST_SCHED_ZBH1, MEMEST_SCHED_DUALPIPE,
                                       MEMEST_SCHED_DUALPIPEV};
  static const int extra[4] = {0, 0, 1, 1}, copies[4] = {1, 1, 2, 2};
  int i, k, PP;
  for (i = 0; i < memest_model_preset_count(); i++) {
    const char *model = memest_model_preset_name(i);
    for (PP = 4; PP <= 16; PP *= 2) {
      for (k = 0; k < 4; k++) {
        int64_t pp = s[k] == MEMEST_SCHED_DUALPIPEV ? PP / 2 : PP;
        memest_result *r = run(model, s[k], pp, 1, 4 * (int64_t)PP, 512);
        if (r == NULL) continue;
        CHECK_I64(memi_schedule_pp_stages(&r->lo), PP);
        CHECK_I64(memi_schedule_activation_units(&r->lo, memi_result_max_live(r)), PP + extra[k]);
        CHECK_I64(memi_schedule_parameter_copies(&r->lo), copies[k]);
        memest_result_free(r);
      }
    }
  }
}

/* 1F1B's rank r holds min(p-r, m) micro-batches at its fullest. */
static void test_1f1b_in_flight(void) {
  static const int64_t ms[] = {1, 2, 3, 4, 7, 40};
  size_t k;
  int i;
  for (k = 0; k < sizeof ms / sizeof ms[0]; k++) {
    memest_result *r = run("qwen3-30b-a3b", MEMEST_SCHED_1F1B, 4, 1, ms[k], 512);
    if (r == NULL) continue;
    for (i = 0; i < r->n_ranks; i++) {
      int64_t want = 4 - r->ranks[i].rank < ms[k] ? 4 - r->ranks[i].rank : ms[k];
      CHECK_I64(r->ranks[i].max_live, want);
    }
    memest_result_free(r);
  }
}

/* Interleaved rank 0 holds p*v + (p-1) virtual stages of activations: p +
** (p-1)/v micro-batches of a rank's layers, Megatron's penalty
** 1 + (p-1)/(p*v) over p. */
static void test_interleaved_rank0(void) {
  static const int pv[][2] = {{2, 2}, {4, 2}, {4, 3}, {4, 4}, {8, 2}, {6, 4}};
  size_t k;
  for (k = 0; k < sizeof pv / sizeof pv[0]; k++) {
    int p = pv[k][0], v = pv[k][1];
    memest_result *r = run("qwen3-30b-a3b", MEMEST_SCHED_INTERLEAVED, p, v, 4 * p, 512);
    if (r == NULL) continue;
    CHECK_I64(r->ranks[0].rank, 0);
    CHECK_I64(r->ranks[0].max_live, p * v + (p - 1));
    CHECK(fabs(memi_schedule_activation_units(&r->lo, r->ranks[0].max_live) -
               ((double)p + (double)(p - 1) / v)) < 1e-9);
    memest_result_free(r);
  }
}

/* ZB-H1 holds 1F1B's micro-batches in flight on every rank; its peak is
** 1F1B's but for the weight-gradient inputs its deferred W keeps. */
static void test_zbh1_memory(void) {
  int i, k;
  for (i = 0; i < memest_model_preset_count(); i++) {
    for (k = 0; k < 2; k++) {
      int64_t pp = k == 0 ? 4 : 8;
      memest_result *a = run(memest_model_preset_name(i), MEMEST_SCHED_1F1B, pp, 1, 3 * pp, 1024);
      memest_result *z = run(memest_model_preset_name(i), MEMEST_SCHED_ZBH1, pp, 1, 3 * pp, 1024);
      int j;
      if (a != NULL && z != NULL) {
        for (j = 0; j < a->n_ranks; j++) CHECK_I64(z->ranks[j].max_live, a->ranks[j].max_live);
        for (j = 0; j < a->n_ranks; j++) {
          int64_t held = z->ranks[j].at_peak.b[C_WGS];
          CHECK(z->ranks[j].tensor_peak <= a->ranks[j].tensor_peak + held);
        }
      }
      memest_result_free(a);
      memest_result_free(z);
    }
  }
}

/* {======================================================================
** Bubbles from the op order: every rank's trace replayed with uniform
** costs (F, a full backward B, its weight part W, an overlapped F&B = F+B)
** and no transfer time; an op starts when its rank is free and its input
** (the previous stage's forward, the next stage's backward, in its
** chain) is done. The bubble is a rank's idle time before its last op ends.
** ======================================================================= */
typedef struct uniform {
  double f, b, w;
} uniform;

static double op_cost(const sched_op *op, const uniform *u) {
  switch (op->kind) {
    case OP_F: return u->f;
    case OP_B: return op->zb ? u->b - u->w : u->b;
    case OP_W: return u->w;
    default: return u->f + u->b;
  }
}

/* The most idle time of any rank in one step of lo's schedule. */
static double replayed_bubble(const model_config *mc, const layout *lo, const uniform *u) {
  sched_tracer tc;
  sched_trace tr[64];
  int64_t n = lo->chunks, pos = (int64_t)lo->chains * lo->stages, r, next[64];
  double t[64], busy[64], *ff = malloc((size_t)(pos * n) * sizeof *ff);
  double *fb = malloc((size_t)(pos * n) * sizeof *fb), most = 0.0, end = 0.0;
  int stage[64][MEMEST_MAX_MODULES], moved = 1, m;
  memest_error e;
  memset(&tc, 0, sizeof tc);
  memset(tr, 0, sizeof tr);
  for (r = 0; r < pos * n; r++) ff[r] = fb[r] = -1.0;
  for (r = 0; r < lo->pp; r++) {
    CHECK_I64(memi_sched_trace(&tc, mc, lo, (int)r, &tr[r], &e), MEMEST_OK);
    for (m = 0; m < lo->modules; m++) stage[r][m] = lo->sched->stage_of(lo->pp, lo->v, r, m);
    next[r] = 0;
    t[r] = busy[r] = 0.0;
  }
  while (moved) {
    moved = 0;
    for (r = 0; r < lo->pp; r++) {
      while (next[r] < tr[r].n) {
        const sched_op *op = &tr[r].ops[next[r]];
        double ready = t[r];
        if (op->kind == OP_F || op->kind == OP_FB) {
          int st = stage[r][op->pf];
          if (st % lo->stages > 0) {
            double at = ff[(st - 1) * n + op->cf];
            if (at < 0.0) break;
            if (at > ready) ready = at;
          }
        }
        if (op->kind == OP_B || op->kind == OP_FB) {
          int st = stage[r][op->pb];
          if (st % lo->stages < lo->stages - 1) {
            double at = fb[(st + 1) * n + op->cb];
            if (at < 0.0) break;
            if (at > ready) ready = at;
          }
        }
        t[r] = ready + op_cost(op, u);
        busy[r] += op_cost(op, u);
        if (op->kind == OP_F || op->kind == OP_FB) ff[stage[r][op->pf] * n + op->cf] = t[r];
        if (op->kind == OP_B || op->kind == OP_FB) fb[stage[r][op->pb] * n + op->cb] = t[r];
        next[r]++;
        moved = 1;
      }
    }
  }
  for (r = 0; r < lo->pp; r++) {
    CHECK_I64(next[r], tr[r].n);   /* no rank waits forever */
    if (t[r] > end) end = t[r];
  }
  for (r = 0; r < lo->pp; r++) {
    if (end - busy[r] > most) most = end - busy[r];
    memi_sched_trace_free(&tr[r]);
  }
  memi_sched_tracer_free(&tc);
  free(ff);
  free(fb);
  return most;
}

static void test_bubbles(void) {
  /* A backward's input and weight halves each as long as the forward (B =
  ** 2F, W = F), as DualPipe's table assumes; F&B = F+B, no overlap gain. */
  static const uniform u = {1.0, 2.0, 1.0};
  int PP;
  for (PP = 4; PP <= 16; PP *= 2) {
    memest_result *a = run("qwen3-30b-a3b", MEMEST_SCHED_1F1B, PP, 1, 4 * PP, 512);
    memest_result *z = run("qwen3-30b-a3b", MEMEST_SCHED_ZBH1, PP, 1, 4 * PP, 512);
    memest_result *d = run("qwen3-30b-a3b", MEMEST_SCHED_DUALPIPE, PP, 1, 4 * PP, 512);
    memest_result *v = run("qwen3-30b-a3b", MEMEST_SCHED_DUALPIPEV, PP / 2, 1, 4 * PP, 512);
    if (a && z && d && v) {
      double fb = u.f + u.b;   /* F&B: an overlapped chunk, no overlap gain */
      CHECK(fabs(replayed_bubble(&a->mc, &a->lo, &u) - (PP - 1) * (u.f + u.b)) < 1e-9);
      CHECK(fabs(replayed_bubble(&z->mc, &z->lo, &u) - (PP - 1) * (u.f + u.b - 2 * u.w)) < 1e-9);
      CHECK(fabs(replayed_bubble(&d->mc, &d->lo, &u) - (PP / 2 - 1) * (fb + u.b - 3 * u.w)) < 1e-9);
      CHECK(fabs(replayed_bubble(&v->mc, &v->lo, &u) - (PP / 2 - 1) * (fb + u.b - 3 * u.w)) < 1e-9);
    }
    memest_result_free(a);
    memest_result_free(z);
    memest_result_free(d);
    memest_result_free(v);
  }
}
/* }====================================================================== */

int main(void) {
  test_readme_table();
  test_1f1b_in_flight();
  test_interleaved_rank0();
  test_zbh1_memory();
  test_bubbles();
  return check_done("test_schedules");
}
