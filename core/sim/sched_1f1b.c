/*
** sched_1f1b.c — 1F1B (PipeDream-flush, docs/schedules.md): pp ranks hold pp
** stages, rank r stage r. Rank r runs pp-r-1 warm-up forwards, then one
** forward and one backward at a time, then the remaining backwards, so it
** holds at most min(pp-r, N) micro-batches in flight. Every backward
** computes its weight gradients itself.
*/
#include <string.h>

#include "sim/schedule.h"

/* Two ops per micro-batch, and the step end's events. */
static int64_t max_events(int64_t pp, int v, int64_t chunks) {
  (void)v;
  return 2 * chunks + 5 * pp + 8;
}

/* (pp-1)(F+B) of stall against N(F+B) of work, B = 2F. */
static double bubble(int64_t pp, int v, int64_t chunks, double w) {
  double stall = 3.0 * (double)(pp - 1), work = 3.0 * (double)chunks;
  (void)v;
  (void)w;
  return stall / (stall + work);
}

static void run(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i;
  int64_t warm = P - r - 1 < N ? P - r - 1 : N, steady = N - warm;
  sched_loop lp;
  for (i = 0; i < warm; i++) memi_drv_forward(sr, 1, (int)i, 0);
  memset(&lp, 0, sizeof lp);
  for (i = 0; i < steady; i++) {
    i = memi_drv_steady(sr, &lp, i, steady);
    if (i >= steady) break;
    memi_drv_forward(sr, 2, (int)i, 0);
    memi_drv_backward(sr, 2, (int)i, 0, 0);
  }
  for (i = 0; i < warm; i++) memi_drv_backward(sr, 3, (int)i, 0, 0);
}

const schedule memi_sched_1f1b = {
  MEMEST_SCHED_1F1B, "1F1B", 1, "pp", "1",
  "1F1B bubble (PP-1)(F+B) with PP = pp stages, over the num_chunks*(F+B) each GPU computes per "
  "step; F = forward matmul FLOPs of one micro-batch through one stage, B = 2F",
  memi_sched_one_module, memi_sched_pp, memi_sched_rank_stage, memi_sched_any_chunks, max_events,
  bubble, run,
};
