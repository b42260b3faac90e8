/*
** sched_dualpipe.c — DualPipe (docs/schedules.md): two copies of the model,
** each split into pp stages on the pp ranks in opposite directions. Rank r
** holds stage r of the first copy (module 0, micro-batches enter it at
** rank 0) and stage pp-1-r of the second (module 1, entering at rank
** pp-1); half the micro-batches take each copy. pp is even, and the step
** runs 8 steps, as DeepSeek's DualPipe does: a rank's phase 0 is the copy
** whose micro-batches reach it first (module 0 on the first half of the
** ranks, module 1 on the second), and the two middle ranks hand their
** outputs across. Its bubble is (PP/2-1)(F&B+B-3W) with PP = pp stages.
*/
#include <string.h>

#include "sim/schedule.h"

static int stage_of(int64_t pp, int v, int64_t rank, int m) {
  (void)v;
  return (int)(m == 0 ? rank : pp + (pp - 1 - rank));
}

/* A micro-batch's forward and backward on one of the modules, its W, and
** the step end's events. */
static int64_t max_events(int64_t pp, int v, int64_t chunks) {
  (void)v;
  return 2 * chunks + 5 * pp + 8;
}

/* (pp/2-1)(F&B+B-3W) of stall against N(F+B) of work, B = 2F, F&B = F+B,
** W = w*F. */
static double bubble(int64_t pp, int v, int64_t chunks, double w) {
  double stall, work = 3.0 * (double)chunks;
  (void)v;
  if (pp < 4) return 0.0;
  stall = (double)(pp / 2 - 1) * (5.0 - 3.0 * w);
  return stall / (stall + work);
}

/* A rank's place: its phases' modules, and whether it is a middle rank. */
typedef struct dp_rank {
  sim_rank *sr;
  int second;   /* in the second half: phase p is module 1-p */
  int middle;   /* one of the two middle ranks */
} dp_rank;

static int mod(const dp_rank *d, int phase) { return phase ^ d->second; }

static void forward_chunk(dp_rank *d, int step, int i, int ph, int recv, int send) {
  if (recv) memi_drv_recv_forward(d->sr, mod(d, ph));
  memi_drv_op(d->sr, step, i, OP_F, mod(d, ph), mod(d, ph), 0);
  if (send) memi_drv_send_forward(d->sr, mod(d, ph));
}

static void backward_chunk(dp_rank *d, int step, int i, int ph, int zb, int send) {
  memi_drv_recv_backward(d->sr, mod(d, ph));
  memi_drv_op(d->sr, step, i, OP_B, mod(d, ph), mod(d, ph), zb);
  if (send) memi_drv_send_backward(d->sr, mod(d, ph));
}

static void fb_chunk(dp_rank *d, int step, int i, int p0, int p1, int recv0) {
  if (recv0) memi_drv_recv_forward(d->sr, mod(d, p0));
  memi_drv_recv_backward(d->sr, mod(d, p1));
  memi_drv_op(d->sr, step, i, OP_FB, mod(d, p0), mod(d, p1), 0);
  memi_drv_send_forward(d->sr, mod(d, p0));
  memi_drv_send_backward(d->sr, mod(d, p1));
}

static void weight_chunk(dp_rank *d, int step, int i) {
  memi_drv_op(d->sr, step, i, OP_W, 0, 0, 0);
}

/* DualPipe's step for rank r. */
static void run(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i, n4;
  int64_t half = P / 2, hr = r < P - 1 - r ? r : P - 1 - r;
  int zb;
  dp_rank d;
  sched_loop lp;
  d.sr = sr;
  d.second = r >= half;
  d.middle = r == half - 1 || r == half;
  for (i = 0; i < 2 * (half - hr - 1); i++) forward_chunk(&d, 1, (int)i, 0, 1, 1);
  memi_drv_recv_forward(sr, mod(&d, 0));
  for (i = 0; i < hr + 1; i++) {
    forward_chunk(&d, 2, (int)i, 0, 0, d.middle);
    memi_drv_recv_forward(sr, mod(&d, 0));
    forward_chunk(&d, 2, (int)i, 1, 1, !d.middle || i < hr);
    if (!d.middle) memi_drv_send_forward(sr, mod(&d, 0));
  }
  for (i = 0; i < half - hr - 1; i++) {
    backward_chunk(&d, 3, (int)i, 1, 1, 1);
    memi_drv_recv_forward(sr, mod(&d, 1));
    weight_chunk(&d, 3, (int)i);
    forward_chunk(&d, 3, (int)i, 1, 0, 1);
  }
  n4 = N / 2 - P + hr + 1;
  memset(&lp, 0, sizeof lp);
  for (i = 0; i < n4; i++) {
    i = memi_drv_steady(sr, &lp, i, n4);
    if (i >= n4) break;
    if (i == 0 && d.middle) {   /* not overlapped, as DualPipe does */
      forward_chunk(&d, 4, 0, 0, 0, 0);
      memi_drv_send_forward(sr, mod(&d, 1));
      backward_chunk(&d, 4, 0, 1, 0, 0);
      memi_drv_send_forward(sr, mod(&d, 0));
      memi_drv_send_backward(sr, mod(&d, 1));
    } else {
      fb_chunk(&d, 4, (int)i, 0, 1, i != 0);
    }
    fb_chunk(&d, 4, (int)i, 1, 0, 1);
  }
  for (i = 0; i < half - hr - 1; i++) {
    backward_chunk(&d, 5, (int)i, 1, 0, 1);
    fb_chunk(&d, 5, (int)i, 1, 0, 1);
  }
  zb = 0;
  for (i = 0; i < hr + 1; i++) {
    if (i == (hr + 1) / 2 && hr % 2 == 1) zb = 1;
    backward_chunk(&d, 6, (int)i, 1, zb, 1);
    if (i == (hr + 1) / 2 && hr % 2 == 0) zb = 1;
    backward_chunk(&d, 6, (int)i, 0, zb, 1);
  }
  for (i = 0; i < half - hr - 1; i++) {
    weight_chunk(&d, 7, (int)i);
    backward_chunk(&d, 7, (int)i, 0, 1, 1);
  }
  for (i = 0; i < hr + 1; i++) weight_chunk(&d, 8, (int)i);
}

const schedule memi_sched_dualpipe = {
  MEMEST_SCHED_DUALPIPE, "DualPipe", 2, "pp", "2*pp",
  "DualPipe bubble (PP/2-1)(F&B+B-3W) with PP = pp stages, over the num_chunks*(F+B) each GPU "
  "computes per step; F = forward matmul FLOPs of one micro-batch through one stage, B = 2F, "
  "F&B = F+B, W = the deferred expert weight-gradient share of F",
  memi_sched_two_modules, memi_sched_pp, stage_of, memi_sched_twice_pp, max_events, bubble, run,
};
