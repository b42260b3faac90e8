/*
** plan_dims.c — the inputs a plan sweeps, as one table (name, flag, the
** short name --vary takes, the estimate parameter behind each, its list in
** the request, and whether more of it costs memory), a plan row's inputs
** as one estimate's parameters, and whether its EP group spans nodes. The planner's other files build on
** this one; it calls none of them. Design note: docs/planner.md.
*/
#include <stddef.h>
#include <string.h>

#include "plan/plan.h"

static const plan_dim_info dims[D_COUNT] = {
  {"pp_size", "--pp-size", "pp", MEMEST_P_PP_SIZE, offsetof(memest_plan_request, pp), 0},
  {"ep_size", "--ep-size", "ep", MEMEST_P_EP_SIZE, offsetof(memest_plan_request, ep), 0},
  {"cp_size", "--cp-size", "cp", MEMEST_P_CP_SIZE, offsetof(memest_plan_request, cp), 0},
  {"dp", "--dp", "dp", -1, offsetof(memest_plan_request, dp), 0},
  {"total_gpus", "--total-gpus", "gpus", MEMEST_P_TOTAL_GPUS,
   offsetof(memest_plan_request, total_gpus), 0},
  {"nodes", "--nodes", "nodes", -1, offsetof(memest_plan_request, nodes), 0},
  {"micro_batch_size", "--micro-batch-size", "mbs", MEMEST_P_MICRO_BATCH_SIZE,
   offsetof(memest_plan_request, mbs), 1},
  {"global_batch_size", "--global-batch-size", "gbs", MEMEST_P_GLOBAL_BATCH_SIZE,
   offsetof(memest_plan_request, gbs), 1},
  {"sequence_length", "--sequence-length", "seq", MEMEST_P_SEQUENCE_LENGTH,
   offsetof(memest_plan_request, seq), 1},
};

const plan_dim_info *memi_plan_dim(int d) { return d >= 0 && d < D_COUNT ? &dims[d] : NULL; }

const char *memi_plan_dim_name(int d) { return d >= 0 && d < D_COUNT ? dims[d].name : ""; }

int memi_plan_dim_find(const char *name, int shorts) {
  int d;
  for (d = 0; d < D_COUNT; d++) {
    if (strcmp(name, dims[d].name) == 0 || (shorts && strcmp(name, dims[d].short_name) == 0)) {
      return d;
    }
  }
  return -1;
}

const memest_plan_list *memi_plan_dim_list(const memest_plan_request *req, int d) {
  return (const memest_plan_list *)((const char *)req + dims[d].offset);
}

void memi_plan_row_params(const memest_plan *pl, const plan_row *row, memest_params *p) {
  int d;
  *p = pl->variants[row->variant];
  p->pp_size = row->in[D_PP];
  p->ep_size = row->in[D_EP];
  p->cp_size = row->in[D_CP];
  p->total_gpus = row->in[D_TOTAL];
  p->micro_batch_size = row->in[D_MBS];
  p->global_batch_size = row->in[D_GBS];
  p->sequence_length = row->in[D_SEQ];
  for (d = 0; d < D_COUNT; d++) {
    if (dims[d].param >= 0) p->given |= 1u << dims[d].param;
  }
}

int64_t memi_plan_gcd(int64_t a, int64_t b) {
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* On the trainer's row-major ("pp", "dp", "cp", "ep") mesh an EP group is
** ep consecutive ranks: it spans nodes when it is larger than a node, or
** when a node does not hold a whole number of groups (ranks of whole nodes,
** as the planner keeps them). Its all-to-all then crosses the network. */
int memi_plan_ep_across(int64_t ep, int64_t g) {
  if (ep <= 1 || g <= 0) return 0;
  return ep > g || g % ep != 0;
}

memest_code memest_plan_row_params(const memest_plan *plan, int i, memest_params *p,
                                   memest_error *err) {
  if (plan == NULL || p == NULL || i < 0 || i >= plan->n_rows) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "plan row %d does not exist; the plan has %d rows", i,
                   plan != NULL ? plan->n_rows : 0);
  }
  memi_plan_row_params(plan, &plan->rows[i], p);
  return MEMEST_OK;
}
