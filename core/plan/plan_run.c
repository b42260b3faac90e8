/*
** plan_run.c — a plan's finish, and a whole plan in one call: the sweep
** concluded (planner.c), then what the answer needs beside it while the
** parsed config is still there (a vary-nodes answer beside pp over whole
** nodes, plan_nodes.c), then the config released. Design note:
** docs/planner.md.
*/
#include "plan/plan.h"

memest_code memest_plan_finish(memest_plan *plan, memest_error *err) {
  memest_code rc;
  memi_err_clear(err);
  rc = memi_plan_conclude(plan, err);
  if (rc == MEMEST_OK && plan->mode == MEMEST_PLAN_VARY && plan->vary == D_NODES) {
    rc = memi_plan_pp_nodes(plan, err);
  }
  if (rc == MEMEST_OK) memi_plan_release(plan);
  return rc;
}

memest_code memest_plan_run(const char *config, size_t config_len,
                            const memest_plan_request *req, memest_plan **out,
                            memest_error *err) {
  memest_code rc = memest_plan_begin(config, config_len, req, out, err);
  if (rc == MEMEST_OK) rc = memest_plan_finish(*out, err);
  if (rc != MEMEST_OK && out != NULL) {
    memest_plan_free(*out);
    *out = NULL;
  }
  return rc;
}
