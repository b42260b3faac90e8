/*
** sched_dualpipev.c — DualPipeV (memory-model.md §2.2): pp ranks hold 2*pp stages in
** a V, rank r stages r (module 0, phase 0) and 2*pp-1-r (module 1, phase
** 1); a step needs at least 2*pp micro-batches and runs 8 steps, whose ops
** and transfers this file emits to the driver (replay.c). The last rank
** hands phase 0's output to phase 1 itself.
*/
#include <string.h>

#include "sim/schedule.h"

static int stage_of(int64_t pp, int v, int64_t rank, int m) {
  (void)v;
  return (int)(m == 0 ? rank : 2 * pp - 1 - rank);
}

/* Rank 0 records the most events: 2N + 5P + 2 with Muon for P >= 2
** (2N + 8 for P = 1), one fewer with AdamW (N micro-batches, P = pp;
** measured from events_total); 2N + 5P + 4 bounds every rank. */
static int64_t max_events(int64_t pp, int v, int64_t chunks) {
  (void)v;
  return 2 * chunks + 5 * pp + 4;
}

/* DualPipe's bubble with PP stages is (PP/2 - 1)(F&B + B - 3W), so
** (pp - 1)(F&B + B - 3W) with PP = 2*pp, against the 2 * num_chunks *
** (F + B) a GPU computes per step; B = 2F, F&B = F + B, W = w*F
** (docs/planner.md, "Pipeline bubble"). */
static double bubble(int64_t pp, int v, int64_t chunks, double w) {
  double stall, work;
  (void)v;
  if (pp < 2) return 0.0;
  stall = (double)(pp - 1) * (5.0 - 3.0 * w);
  work = 6.0 * (double)chunks;
  return stall / (stall + work);
}

static void forward_chunk(sim_rank *sr, int step, int i, int ph, int recv, int send) {
  if (recv) memi_drv_recv_forward(sr, ph);
  memi_drv_op(sr, step, i, OP_F, ph, ph, 0);
  if (send) memi_drv_send_forward(sr, ph);
}

static void backward_chunk(sim_rank *sr, int step, int i, int ph, int zb, int send) {
  memi_drv_recv_backward(sr, ph);
  memi_drv_op(sr, step, i, OP_B, ph, ph, zb);
  if (send) memi_drv_send_backward(sr, ph);
}

static void fb_chunk(sim_rank *sr, int step, int i, int pf, int pb, int recv0) {
  if (recv0) memi_drv_recv_forward(sr, pf);
  memi_drv_recv_backward(sr, pb);
  memi_drv_op(sr, step, i, OP_FB, pf, pb, 0);
  memi_drv_send_forward(sr, pf);
  memi_drv_send_backward(sr, pb);
}

static void weight_chunk(sim_rank *sr, int step, int i) {
  memi_drv_op(sr, step, i, OP_W, 0, 0, 0);
}

/* DualPipeV.step for rank r (memory-model.md §2.2). */
static void run(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i;
  int last = r == P - 1, zb;
  sched_loop lp;
  for (i = 0; i < 2 * (P - r - 1); i++) forward_chunk(sr, 1, (int)i, 0, 1, 1);
  memi_drv_recv_forward(sr, 0);
  for (i = 0; i < r + 1; i++) {
    forward_chunk(sr, 2, (int)i, 0, 0, 0);
    memi_drv_recv_forward(sr, 0);
    forward_chunk(sr, 2, (int)i, 1, 1, !last || i < r);
    memi_drv_send_forward(sr, 0);
  }
  for (i = 0; i < P - r - 1; i++) {
    backward_chunk(sr, 3, (int)i, 1, 1, 1);
    memi_drv_recv_forward(sr, 1);
    weight_chunk(sr, 3, (int)i);
    forward_chunk(sr, 3, (int)i, 1, 0, 1);
  }
  memset(&lp, 0, sizeof lp);
  for (i = 0; i < N - 2 * P + r + 1; i++) {
    i = memi_drv_steady(sr, &lp, i, N - 2 * P + r + 1);
    if (i >= N - 2 * P + r + 1) break;
    if (i == 0 && last) {
      forward_chunk(sr, 4, 0, 0, 0, 0);
      memi_drv_send_forward(sr, 1);
      backward_chunk(sr, 4, 0, 1, 0, 0);
      memi_drv_send_forward(sr, 0);
      memi_drv_send_backward(sr, 1);
    } else {
      fb_chunk(sr, 4, (int)i, 0, 1, i != 0);
    }
    fb_chunk(sr, 4, (int)i, 1, 0, 1);
  }
  for (i = 0; i < P - r - 1; i++) {
    backward_chunk(sr, 5, (int)i, 1, 0, 1);
    fb_chunk(sr, 5, (int)i, 1, 0, 1);
  }
  zb = 0;
  for (i = 0; i < r + 1; i++) {
    if (i == (r + 1) / 2 && r % 2 == 1) zb = 1;
    backward_chunk(sr, 6, (int)i, 1, zb, 1);
    if (i == (r + 1) / 2 && r % 2 == 0) zb = 1;
    backward_chunk(sr, 6, (int)i, 0, zb, 1);
  }
  for (i = 0; i < P - r - 1; i++) {
    weight_chunk(sr, 7, (int)i);
    backward_chunk(sr, 7, (int)i, 0, 1, 1);
  }
  for (i = 0; i < r + 1; i++) weight_chunk(sr, 8, (int)i);
}

const schedule memi_sched_dualpipev = {
  MEMEST_SCHED_DUALPIPEV, "DualPipeV", 1, "2*pp", "2*pp",
  "DualPipeV bubble (PP/2-1)(F&B+B-3W) with PP = 2*pp stages, over the 2*num_chunks*(F+B) "
  "each GPU computes per step; F = forward matmul FLOPs of one micro-batch through one stage "
  "(attention projections and scores, router, active experts), B = 2F, F&B = F+B, W = the "
  "deferred expert weight-gradient share of F",
  memi_sched_two_modules, memi_sched_twice_pp, stage_of, memi_sched_twice_pp, max_events, bubble,
  run,
};
