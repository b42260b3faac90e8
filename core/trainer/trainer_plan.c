/*
** trainer_plan.c — the trainer's files into a plan request
** (memest_trainer_run_apply_plan): `memest plan --script` sweeps the
** layouts the script could use with its model, batch, sequence, GPU and
** options; `memest compare --script` compares from the script's layout.
** And a plan row's verdict, for the --require gate.
*/
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "trainer/trainer.h"

/* Whether the request was given input id (a list, or an option). */
static int plan_given(const memest_plan_request *req, memest_param_id id) {
  int d;
  for (d = 0; d < D_COUNT; d++)
    if (memi_plan_dim(d)->param == (int)id) return memi_plan_dim_list(req, d)->n > 0;
  if (id == MEMEST_P_GPU || id == MEMEST_P_GPU_MEMORY_GB)
    return ((req->base.given >> MEMEST_P_GPU) & 1u) || ((req->base.given >> MEMEST_P_GPU_MEMORY_GB) & 1u) ||
           req->option_lists[MEMEST_P_GPU][0] || req->option_lists[MEMEST_P_GPU_MEMORY_GB][0];
  if (id == MEMEST_P_ROUTING)
    return ((req->base.given >> MEMEST_P_ROUTING) & 1u) || ((req->base.given >> MEMEST_P_ROUTING_FACTOR) & 1u) ||
           ((req->base.given >> MEMEST_P_EP_IMBALANCE) & 1u) || req->option_lists[MEMEST_P_ROUTING][0];
  return ((req->base.given >> id) & 1u) || req->option_lists[id][0];
}

memest_code memest_trainer_run_apply_plan(memest_trainer_run *run, memest_plan_request *req,
                                          memest_error *err) {
  int id, vary = req->vary[0] ? memi_plan_dim_find(req->vary, 1) : -1;
  memi_err_clear(err);
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    tr_input *in = &run->in[id];
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    int d, swept = 0;
    memest_error e;
    char where[300];
    if (!in->set && !in->refused) continue;
    for (d = 0; d < D_COUNT; d++) {
      if (memi_plan_dim(d)->param != id) continue;
      /* A plan of layouts sweeps pp, ep, cp and mbs; a vary plan its one input. */
      swept = d == vary || (req->mode == MEMEST_PLAN_LAYOUTS && vary < 0 &&
                            (d == D_PP || d == D_EP || d == D_CP || d == D_MBS));
    }
    if (id == MEMEST_P_TOTAL_GPUS && (memi_plan_dim_list(req, D_NODES)->n > 0 ||
                                      memi_plan_dim_list(req, D_DP)->n > 0 || vary == D_NODES || vary == D_DP))
      swept = 1;
    if (plan_given(req, (memest_param_id)id) || swept) {
      in->overridden = 1;
      continue;
    }
    if (in->refused) {
      memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s; or give %s", in->why, pi->flag);
      return err->code;
    }
    if (memest_plan_request_set(req, pi->name, id == MEMEST_P_MODEL && run->model_resolved[0]
                                                   ? run->model_resolved : in->value, &e) != MEMEST_OK) {
      memi_err_set(err, e.code, pi->name, "%s gives %s %.200s, which memest refuses: %.300s",
                   memi_tloc_show(&in->at, where, sizeof where), pi->flag, in->value, e.message);
      return err->code;
    }
  }
  return MEMEST_OK;
}

int memest_plan_row_status(const memest_plan *plan, int i) {
  if (plan == NULL || i < 0 || i >= plan->n_rows) return -1;
  if (plan->rows[i].reason >= 0 || plan->rows[i].fail != MEMEST_OK) return -1;
  return (int)plan->rows[i].status;
}
