/*
** layout.h — the derived layout of one estimate (layout.c): the validated
** parallel sizes, the chunk count, the shard degrees, the GPU capacity, the
** stage partition and the sizes every layer plan needs (run_dims).
** Design note: docs/design.md.
*/
#ifndef MEMEST_LAYOUT_H
#define MEMEST_LAYOUT_H

#include "model/model.h"

typedef struct schedule schedule;  /* the pipeline schedule (schedule.h) */

typedef struct layout {
  int64_t pp, ep, cp, dp, world;
  int64_t mbs, gbs, seq;
  int64_t chunks;            /* N = gbs / (mbs * dp * ep) */
  int64_t w_x, w_o;          /* shard degrees of expert / other parameters */
  int64_t capacity;          /* GPU bytes */
  const schedule *sched;     /* the pipeline schedule */
  int v;                     /* its v (memi_schedule_v) */
  int modules;               /* sched->modules(v): model chunks per rank */
  int chains;                /* sched->chains */
  int stages;                /* sched->stages(pp, v): the stages of one chain */
  int stage_first[MEMEST_MAX_MODULES * MEMEST_MAX_PP + 1];  /* first layer of each stage; [stages] = L */
  run_dims d;
} layout;

MEMEST_HIDDEN memest_code memi_layout_build(const model_config *mc, const memest_params *p,
                                       layout *lo, memest_error *err);
/* Adds every problem with the inputs to errs (up to max); returns the count. */
MEMEST_HIDDEN int memi_layout_problems(const model_config *mc, const memest_params *p,
                                  memest_error *errs, int max);
MEMEST_HIDDEN int64_t memi_layout_capacity(const memest_params *p);
/* memi_layout_problems without the fix search: for callers that need only a yes
** or no (the planner, the suggestions, the search itself). */
MEMEST_HIDDEN int memi_layout_count(const model_config *mc, const memest_params *p,
                               memest_error *errs, int max);
/* fix_search.c: replaces each problem's fix with the nearest inputs that
** pass every check at once, and names them in its message. */
MEMEST_HIDDEN void memi_fix_refine(const model_config *mc, const memest_params *p,
                              memest_error *errs, int n);
/* Layers of stage i when L layers are split over n stages (memory-model.md §2.1). */
MEMEST_HIDDEN void memi_layout_partition(int64_t layers, int stages, int *first);

#endif /* MEMEST_LAYOUT_H */
