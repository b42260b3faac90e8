/*
** routing.h — how tokens spread over the expert-parallel ranks: the row
** counts of each routing mode, the physical cap of the routing factor, and
** the margin search (core/routing.c).
*/
#ifndef MEMEST_ROUTING_H
#define MEMEST_ROUTING_H

#include "result.h"

/* min(ep, E/k): the factor reached when every token of every EP peer routes
** min(k, E_loc) of its k choices to this rank's E_loc experts. */
MEMEST_HIDDEN double routing_cap(int64_t experts, int64_t top_k, int64_t ep);

/* The factor the measured and factor modes apply (balanced: 1). */
MEMEST_HIDDEN double routing_factor_of(const memest_params *p);

/* For ep > 1: fills d's routed, grouped-GEMM, dedup sent and received rows
** and routing_milli from d->m, top_k, e_loc and ep under p's routing mode. */
MEMEST_HIDDEN void routing_tokens(int64_t experts, const memest_params *p, run_dims *d);

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

MEMEST_HIDDEN memest_code routing_margin(const model_config *mc, const memest_params *p,
                                         const run_dims *d, int64_t excess, int64_t worst,
                                         int64_t grid, est_cache *cache,
                                         memest_routing_info *out, memest_error *err);

#endif /* MEMEST_ROUTING_H */
