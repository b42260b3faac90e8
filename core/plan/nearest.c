/*
** nearest.c — the nearest layout that is OK, for an estimate that no
** single-knob suggestion makes OK: the planner's own sweep (planner.c) over
** pp, ep, cp and micro batch, on the estimate's GPUs and then on more of
** them, the model and every other input as given. Nearest means the fewest
** GPUs, then the fewest inputs changed among pp, ep, cp, total GPUs and
** micro batch, then the most headroom. Design note: docs/model.md
** ("Suggestions and the nearest layout").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

/* The GPU counts tried, as multiples of the estimate's: the first that
** holds an OK layout ends the search. */
static const int64_t gpu_steps[] = {1, 2, 3, 4, 6, 8, 12, 16};

/* The request for one GPU count: pp over the divisors of the GPUs (any
** other pp leaves no whole dp), the planner's own ep and cp lists, micro
** batches halving from the estimate's down to 1. */
static void search_request(const memest_result *r, int64_t gpus, memest_plan_request *req) {
  const memest_params *b = &r->params;
  int64_t p, m, most = memi_schedule_max_pp(&r->params, r->mc.layers);
  memest_plan_request_init(req, MEMEST_PLAN_LAYOUTS);
  req->objective = MEMEST_OBJECTIVE_HEADROOM;   /* its rows are run bare: no time */
  req->base = *b;
  req->base.timeline = 0;
  req->base.detail = 0;
  req->base.pp_rank = -1;
  /* The GPU as the estimate read it, whichever way a C caller stored it. */
  req->base.given &= ~((1u << MEMEST_P_GPU) | (1u << MEMEST_P_GPU_MEMORY_GB));
  req->base.given |= (1u << MEMEST_P_MODEL) | (1u << (b->gpu[0] ? MEMEST_P_GPU : MEMEST_P_GPU_MEMORY_GB));
  for (p = 1; p <= most && p <= MEMEST_MAX_PP && req->pp.n < MEMEST_PLAN_VALUES; p++) {
    if (gpus % p == 0) req->pp.v[req->pp.n++] = p;
  }
  for (m = b->micro_batch_size; m >= 1 && req->mbs.n < MEMEST_PLAN_VALUES; m /= 2) {
    req->mbs.v[req->mbs.n++] = m;
  }
  req->total_gpus.n = req->gbs.n = req->seq.n = 1;
  req->total_gpus.v[0] = gpus;
  req->gbs.v[0] = b->global_batch_size;
  req->seq.v[0] = b->sequence_length;
}

/* How many of pp, ep, cp, total GPUs and micro batch row changes. */
static int changes(const memest_params *b, const plan_row *row) {
  return (row->in[D_PP] != b->pp_size) + (row->in[D_EP] != b->ep_size) +
         (row->in[D_CP] != b->cp_size) + (row->in[D_TOTAL] != b->total_gpus) +
         (row->in[D_MBS] != b->micro_batch_size);
}

/* The nearest OK row of a finished plan, or -1. */
static int nearest_row(const memest_plan *pl, const memest_params *b) {
  int i, best = -1;
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *row = &pl->rows[i];
    if (row->status != MEMEST_FITS_OK) continue;
    if (best < 0 || changes(b, row) < changes(b, &pl->rows[best]) ||
        (changes(b, row) == changes(b, &pl->rows[best]) &&
         row->headroom > pl->rows[best].headroom)) {
      best = i;
    }
  }
  return best;
}

static void keep(nearest_layout *n, const memest_plan *pl, int i, const memest_params *b) {
  const plan_row *row = &pl->rows[i];
  memest_params p = *b;   /* the estimate's inputs with the row's layout */
  p.pp_size = row->in[D_PP];
  p.ep_size = row->in[D_EP];
  p.cp_size = row->in[D_CP];
  p.total_gpus = row->in[D_TOTAL];
  p.micro_batch_size = row->in[D_MBS];
  n->found = 1;
  n->pp = row->in[D_PP];
  n->ep = row->in[D_EP];
  n->cp = row->in[D_CP];
  n->dp = row->in[D_DP];
  n->total = row->in[D_TOTAL];
  n->mbs = row->in[D_MBS];
  n->peak = row->peak;
  n->headroom = row->headroom;
  n->status = row->status;
  n->changed = changes(b, row);
  memi_params_fix(b, &p, n->fix, sizeof n->fix);
}

memest_code memi_nearest_build(memest_result *r, est_cache *cache, memest_error *err) {
  nearest_layout *n = &r->nearest;
  memest_plan_request *req = malloc(sizeof *req);   /* 11 KB: off a WebAssembly stack */
  memest_plan *pl;
  memest_error e;
  memest_code rc;
  size_t k;
  memset(n, 0, sizeof *n);
  if (req == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the layout search");
  n->searched = 1;
  for (k = 0; k < sizeof gpu_steps / sizeof gpu_steps[0] && !n->found; k++) {
    int64_t gpus = r->params.total_gpus * gpu_steps[k];
    int i;
    if (gpus > MEMEST_MAX_GPUS) break;
    search_request(r, gpus, req);
    rc = memi_plan_run_parsed(&r->mc, req, cache, 1, &pl, &e);
    if (rc == MEMEST_E_NOMEM) {
      free(req);
      if (err != NULL) *err = e;
      return rc;
    }
    if (rc != MEMEST_OK) break;   /* beyond the plan limits: the search ends here */
    n->plans++;
    n->gpus_max = gpus;
    if ((i = nearest_row(pl, &r->params)) >= 0) keep(n, pl, i, &r->params);
    memest_plan_free(pl);
  }
  free(req);
  return MEMEST_OK;
}
