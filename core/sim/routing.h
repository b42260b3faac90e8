/*
** routing.h — how tokens spread over the expert-parallel ranks: the row
** counts of each routing mode and the physical cap of the routing factor
** (core/sim/routing.c); the margin search is routing_margin.h.
*/
#ifndef MEMEST_ROUTING_H
#define MEMEST_ROUTING_H

#include "sim/layout.h"

/* min(ep, E/k): the factor reached when every token of every EP peer routes
** min(k, E_loc) of its k choices to this rank's E_loc experts. */
MEMEST_HIDDEN double memi_routing_cap(int64_t experts, int64_t top_k, int64_t ep);

/* The factor the measured and factor modes apply (balanced: 1). */
MEMEST_HIDDEN double memi_routing_factor_of(const memest_params *p);

/* For ep > 1: fills d's routed, grouped-GEMM, dedup sent and received rows
** and routing_milli from d->m, top_k, e_loc and ep under p's routing mode. */
MEMEST_HIDDEN void memi_routing_tokens(int64_t experts, const memest_params *p, run_dims *d);

#endif /* MEMEST_ROUTING_H */
