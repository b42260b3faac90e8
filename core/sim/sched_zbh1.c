/*
** sched_zbh1.c — ZB-H1, zero bubble with 1F1B's memory (docs/schedules.md):
** 1F1B's stages and warm-up, with each backward split into B (input
** gradients) and W (weight gradients): in the steady state a forward, a B
** and its W; in the cool-down each B followed by its W, which fills the
** wait for the next B's gradient. A W runs right after its B's successor
** arrives at the latest, so the in-flight micro-batches are 1F1B's and the
** peak is no higher. W computes what the trainer's zero-bubble path defers:
** the expert weight gradients (docs/model.md).
*/
#include <string.h>

#include "sim/schedule.h"

/* Three ops per micro-batch, and the step end's events. */
static int64_t max_events(int64_t pp, int v, int64_t chunks) {
  (void)v;
  return 3 * chunks + 5 * pp + 8;
}

/* (pp-1)(F+B-2W) of stall against N(F+B) of work, B = 2F, W = w*F. */
static double bubble(int64_t pp, int v, int64_t chunks, double w) {
  double stall = (double)(pp - 1) * (3.0 - 2.0 * w), work = 3.0 * (double)chunks;
  (void)v;
  if (stall < 0.0) stall = 0.0;
  return stall / (stall + work);
}

/* Rank r runs each W r iterations after its B (rank 0 at once), so that it
** holds at most pp micro-batches' activations, B done or not, as 1F1B's rank
** 0 does; in the cool-down each B is followed by the oldest W due. */
static void run(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i, due = 0;
  int64_t warm = P - r - 1 < N ? P - r - 1 : N, steady = N - warm;
  sched_loop lp;
  for (i = 0; i < warm; i++) memi_drv_forward(sr, 1, (int)i, 0);
  memset(&lp, 0, sizeof lp);
  for (i = 0; i < steady; i++) {
    int64_t at = memi_drv_steady(sr, &lp, i, steady);
    i = at;
    if (i >= steady) break;
    memi_drv_forward(sr, 2, (int)i, 0);
    memi_drv_backward(sr, 2, (int)i, 0, 1);
    if (i >= r) memi_drv_op(sr, 2, (int)i, OP_W, 0, 0, 0);
  }
  due = steady < r ? steady : r;   /* Ws not yet run */
  for (i = 0; i < warm; i++) {
    memi_drv_backward(sr, 3, (int)i, 0, 1);
    memi_drv_op(sr, 3, (int)i, OP_W, 0, 0, 0);
  }
  for (i = 0; i < due; i++) memi_drv_op(sr, 4, (int)i, OP_W, 0, 0, 0);
}

const schedule memi_sched_zbh1 = {
  MEMEST_SCHED_ZBH1, "ZB-H1", 1, "pp", "1",
  "ZB-H1 bubble (PP-1)(F+B-2W) with PP = pp stages, over the num_chunks*(F+B) each GPU computes "
  "per step; F = forward matmul FLOPs of one micro-batch through one stage, B = 2F, W = the "
  "deferred expert weight-gradient share of F",
  memi_sched_one_module, memi_sched_pp, memi_sched_rank_stage, memi_sched_any_chunks, max_events,
  bubble, run,
};
