/*
** routing_margin.h — the margin search above the estimate
** (core/plan/routing_margin.c).
*/
#ifndef MEMEST_ROUTING_MARGIN_H
#define MEMEST_ROUTING_MARGIN_H

#include "sim/result.h"
#include "sim/routing.h"

/* Fills `out` for a result estimated from mc and p: the mode, the factor,
** the cap and the margin (re-estimating without advice). `excess` is the
** result's own peak less capacity, so that its factor needs no second
** estimate; `worst` its worst pipeline rank, where the search runs first;
** `cache` the caller's layer programs (may be NULL).
** The margin is the largest multiple of 1/grid that fits (grid 1000 for an
** estimate, ROUTING_PLAN_GRID for a plan's rows). */
/* A plan's rows find their margin to a hundredth, a search of about half
** the probes of an estimate's thousandth: floor(estimate's margin x 100)/100. */
#define ROUTING_PLAN_GRID 100
#define ROUTING_ESTIMATE_GRID 1000

MEMEST_HIDDEN memest_code memi_routing_margin(const model_config *mc, const memest_params *p,
                                         const run_dims *d, int64_t excess, int64_t worst,
                                         int64_t grid, est_cache *cache,
                                         memest_routing_info *out, memest_error *err);

#endif /* MEMEST_ROUTING_MARGIN_H */
