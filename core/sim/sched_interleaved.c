/*
** sched_interleaved.c — interleaved 1F1B, Megatron's virtual pipeline
** (docs/schedules.md): pp ranks hold v*pp stages, rank r stages r, pp+r,
** ..., (v-1)*pp+r (module m: stage m*pp+r). Micro-batches go in groups of
** pp: a group's forwards run through module 0, then module 1, ..., its
** backwards through module v-1 first. Rank r runs 2(pp-r-1) + (v-1)*pp
** warm-up forwards, then one forward and one backward at a time, then the
** remaining backwards. A last group of fewer than pp micro-batches runs
** the same way with its own size.
*/
#include "sim/schedule.h"

static int modules(int v) { return v; }

static int64_t stages(int64_t pp, int v) { return (int64_t)v * pp; }

static int stage_of(int64_t pp, int v, int64_t rank, int m) {
  (void)v;
  return (int)(m * pp + rank);
}

static int64_t min_chunks(int64_t pp, int v) {
  (void)v;
  return pp;
}

/* Two ops per micro-batch and module, and the step end's events. */
static int64_t max_events(int64_t pp, int v, int64_t chunks) {
  return 2 * (int64_t)v * chunks + 5 * (int64_t)v * pp + 8;
}

/* (pp-1)(F+B)/v of stall against N(F+B) of work (F, B of a whole rank's
** layers), B = 2F. */
static double bubble(int64_t pp, int v, int64_t chunks, double w) {
  double stall = 3.0 * (double)(pp - 1) / (double)v, work = 3.0 * (double)chunks;
  (void)w;
  return stall / (stall + work);
}

/* The module of the k-th forward (backward: reversed) in the order of
** groups of pp micro-batches. */
static int module_at(int64_t k, int64_t pp, int v, int64_t chunks, int backward) {
  int64_t block = (int64_t)v * pp, g = k / block, size = chunks - g * pp < pp ? chunks - g * pp : pp;
  int m = (int)((k - g * block) / size);
  return backward ? v - 1 - m : m;
}

/* Consecutive steady iterations change different modules, so none repeats
** the last exactly: the loop runs every one (no memi_drv_steady). */
static void run(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i, f = 0, b = 0;
  int v = sr->lo->v;
  int64_t total = (int64_t)v * N, warm = 2 * (P - r - 1) + (int64_t)(v - 1) * P, steady;
  if (warm > total) warm = total;
  steady = total - warm;
  for (i = 0; i < warm; i++, f++) memi_drv_forward(sr, 1, (int)i, module_at(f, P, v, N, 0));
  for (i = 0; i < steady; i++) {
    memi_drv_forward(sr, 2, (int)i, module_at(f++, P, v, N, 0));
    memi_drv_backward(sr, 2, (int)i, module_at(b++, P, v, N, 1), 0);
  }
  for (i = 0; i < warm; i++) memi_drv_backward(sr, 3, (int)i, module_at(b++, P, v, N, 1), 0);
}

const schedule memi_sched_interleaved = {
  MEMEST_SCHED_INTERLEAVED, "interleaved 1F1B", 1, "v*pp", "pp",
  "interleaved 1F1B bubble (PP-1)(F+B)/v with PP = pp GPUs and v = --virtual-stages stages "
  "each, over the num_chunks*(F+B) each GPU computes per step; F = forward matmul FLOPs of one "
  "micro-batch through a GPU's layers, B = 2F",
  modules, stages, stage_of, min_chunks, max_events, bubble, run,
};
