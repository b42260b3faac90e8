/*
** schedule.h — the pipeline schedule as a part: the facts a schedule gives
** (modules per rank, the stage each module holds, the stages and the chunk
** minimum for pp, the bubble) and the op sequence it runs, which it emits
** through the driver calls below (replay.c). DualPipeV (sched_dualpipev.c)
** is the one schedule; schedule.c lists them. Design note: docs/design.md.
*/
#ifndef MEMEST_SCHEDULE_H
#define MEMEST_SCHEDULE_H

#include "sim/rank.h"

/* Every function takes pp (the pipeline's GPUs) and v (--virtual-stages,
** which only interleaved 1F1B reads). A stage is a position in a chain:
** a micro-batch passes through every stage of one chain, in order. One
** chain holds the whole model, split into its stages; DualPipe has two
** (its two model copies), each of `stages` stages. */
struct schedule {
  memest_schedule id;
  const char *name;          /* in messages: "DualPipeV" */
  int chains;                /* 1, or 2 for DualPipe's copies */
  const char *stages_text;   /* a chain's stage count as a formula of pp: "2*pp" */
  const char *chunks_text;   /* the chunk minimum as one: "2*pp" */
  /* The bubble's formula and its terms, in words, for the plan's report. */
  const char *bubble_text;
  /* Model chunks (modules) per rank, at most MEMEST_MAX_MODULES. */
  int (*modules)(int v);
  int64_t (*stages)(int64_t pp, int v);
  /* The position module m of rank r holds: chain * stages + stage. */
  int (*stage_of)(int64_t pp, int v, int64_t rank, int m);
  /* Micro-batches per step the schedule needs at least. */
  int64_t (*min_chunks)(int64_t pp, int v);
  /* A bound on the events one rank records in a step of `chunks`
  ** micro-batches, the step end's included (layout.c's work limits). */
  int64_t (*max_events)(int64_t pp, int v, int64_t chunks);
  /* The idle share of a step with w the deferred weight-gradient share of
  ** the forward matmul FLOPs (docs/schedules.md, "Bubble"). */
  double (*bubble)(int64_t pp, int v, int64_t chunks, double w);
  /* Emits rank sr->inv.rank's ops of one step through memi_drv_*. */
  void (*run)(sim_rank *sr);
};

/* Facts several schedules share (schedule.c), for their tables. */
MEMEST_HIDDEN int memi_sched_one_module(int v);
MEMEST_HIDDEN int memi_sched_two_modules(int v);
MEMEST_HIDDEN int64_t memi_sched_pp(int64_t pp, int v);          /* pp stages */
MEMEST_HIDDEN int64_t memi_sched_twice_pp(int64_t pp, int v);    /* 2*pp stages or chunks */
MEMEST_HIDDEN int64_t memi_sched_any_chunks(int64_t pp, int v);  /* no minimum: 1 */
MEMEST_HIDDEN int memi_sched_rank_stage(int64_t pp, int v, int64_t rank, int m);   /* rank r: stage r */

/* The schedules, one file each. */
MEMEST_HIDDEN extern const schedule memi_sched_dualpipev;
MEMEST_HIDDEN extern const schedule memi_sched_1f1b;
MEMEST_HIDDEN extern const schedule memi_sched_interleaved;
MEMEST_HIDDEN extern const schedule memi_sched_zbh1;
MEMEST_HIDDEN extern const schedule memi_sched_dualpipe;
/* The schedule an input names (DualPipeV for one out of range). */
MEMEST_HIDDEN const schedule *memi_schedule_of(memest_schedule id);
/* DualPipe's comparison of schedules in the figures of one layout: its PP
** (the pipeline's stages as that comparison counts them: interleaved
** 1F1B's pp, not its v*pp virtual stages), the parameters a GPU holds in
** units of one such stage (DualPipe and DualPipeV 2), and chunks in flight
** in units of one such stage's activations of one micro-batch. */
MEMEST_HIDDEN int64_t memi_schedule_pp_stages(const layout *lo);
MEMEST_HIDDEN double memi_schedule_parameter_copies(const layout *lo);
MEMEST_HIDDEN double memi_schedule_activation_units(const layout *lo, int max_live);
/* The largest pp whose stages p's schedule can give `layers` layers (at
** least 1): the planner's pp list. */
MEMEST_HIDDEN int64_t memi_schedule_max_pp(const memest_params *p, int64_t layers);
/* The v a schedule's functions take for p: --virtual-stages, or 1 where
** the schedule does not read it. */
MEMEST_HIDDEN int memi_schedule_v(const memest_params *p);

/* {======================================================================
** Driver calls (replay.c) a schedule's run makes. m is a module of the
** rank; the driver knows which transfers exist from the stage map.
** ======================================================================= */
/* One op: kind OP_*, forward module pf and backward module pb (the W
** queue picks a W's module), zb: the backward defers its weight grads. */
MEMEST_HIDDEN void memi_drv_op(sim_rank *sr, int step, int iter, int kind, int pf, int pb, int zb);
MEMEST_HIDDEN void memi_drv_recv_forward(sim_rank *sr, int m);
MEMEST_HIDDEN void memi_drv_send_forward(sim_rank *sr, int m);
MEMEST_HIDDEN void memi_drv_recv_backward(sim_rank *sr, int m);
MEMEST_HIDDEN void memi_drv_send_backward(sim_rank *sr, int m);
/* A forward on module m with its receive and send, and a backward (zb: its
** weight grads deferred to a W) with its own: what a schedule that never
** overlaps two ops runs for each micro-batch. */
MEMEST_HIDDEN void memi_drv_forward(sim_rank *sr, int step, int iter, int m);
MEMEST_HIDDEN void memi_drv_backward(sim_rank *sr, int step, int iter, int m, int zb);

/* A loop whose iterations may repeat one another exactly. */
typedef struct sched_loop {
  sim_state before;          /* the state at the start of the last iteration */
  int64_t f[MEMEST_MAX_MODULES], b[MEMEST_MAX_MODULES], events;
  int steady;
} sched_loop;

/* Called at the top of iteration i of n (lp zeroed before the loop):
** returns the iteration to run, past any the driver skipped because they
** repeat the last one and hold no kept event; >= n ends the loop. */
MEMEST_HIDDEN int64_t memi_drv_steady(sim_rank *sr, sched_loop *lp, int64_t i, int64_t n);
/* }====================================================================== */

/* {======================================================================
** The op trace (trace.c): a rank's ops of one step in order, every
** iteration run (none skipped), with no memory work: what the time model
** (core/time/) replays across ranks.
** ======================================================================= */
typedef struct sched_op {
  unsigned char kind;        /* OP_* */
  unsigned char pf, pb;      /* forward and backward module (a W's: its batch's) */
  unsigned char zb;          /* the backward defers its expert weight grads */
  unsigned char step;        /* the schedule's step (DualPipeV: 1..8) */
  int32_t iter;              /* the iteration within it */
  int32_t cf, cb;            /* chunk ids within the modules, -1 for none */
} sched_op;

typedef struct sched_trace {
  sched_op *ops;
  int64_t n, cap;
} sched_trace;

/* The rank a schedule runs on while tracing, allocated at the first trace
** and reused by every later one (zero it before the first). */
typedef struct sched_tracer {
  sim_rank *sr;
} sched_tracer;

/* Fills t (its array reused and grown) with rank `rank`'s ops of one step
** of lo's schedule; MEMEST_E_NOMEM when out of memory. */
MEMEST_HIDDEN memest_code memi_sched_trace(sched_tracer *tc, const model_config *mc,
                                      const layout *lo, int rank, sched_trace *t,
                                      memest_error *err);
MEMEST_HIDDEN void memi_sched_trace_free(sched_trace *t);
MEMEST_HIDDEN void memi_sched_tracer_free(sched_tracer *tc);
/* Records one op of sr's trace (replay.c's driver calls it in trace mode). */
MEMEST_HIDDEN void memi_trace_op(sim_rank *sr, int step, int iter, int kind, int pf, int pb, int zb);
/* }====================================================================== */

#endif /* MEMEST_SCHEDULE_H */
