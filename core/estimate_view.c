/*
** estimate_view.c — one page view in one call: the estimate of every rank
** without a timeline, the suggestions only when they are shown, and the
** shown rank's timeline (whole, or a window around its peak when its
** schedule is long) taken from a second replay of that rank alone and
** moved into the result.
*/
#include <stdlib.h>

#include "result.h"

memest_code memest_estimate_view(const char *config, size_t config_len, const memest_params *p,
                                 const memest_view_options *o, memest_result **out,
                                 memest_error *err) {
  memest_params q;
  memest_result *r = NULL, *t = NULL;
  memest_code rc;
  int i, shown = -1;
  if (p == NULL || o == NULL || out == NULL) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "no parameters or view options given");
  }
  *out = NULL;
  if (o->timeline_window < 0 || o->timeline_window > MEMEST_MAX_TIMELINE_EVENTS) {
    return memi_err_set(err, MEMEST_E_LIMIT, "timeline_limit",
                   "the timeline window must be 0 (every event) to MEMEST_MAX_TIMELINE_EVENTS");
  }
  q = *p;
  q.timeline = 0;
  if ((rc = memi_est_estimate(config, config_len, &q, o->suggestions != 0, &r, err))) return rc;
  if (o->shown_timeline) {
    for (i = 0; i < r->n_ranks; i++) {
      if (r->ranks[i].rank == (p->pp_rank >= 0 ? (int)p->pp_rank : memest_result_worst_rank(r)))
        shown = i;
    }
  }
  if (shown >= 0) {
    rank_result *rr = &r->ranks[shown];
    q.pp_rank = rr->rank;
    q.timeline = 1;
    q.timeline_limit = rr->n_events <= o->timeline_window || o->timeline_window == 0
                           ? 0
                           : o->timeline_window;
    rc = memi_est_estimate(config, config_len, &q, 0, &t, err);
    if (rc != MEMEST_OK) {
      memest_result_free(r);
      return rc;
    }
    rr->tl = t->ranks[0].tl;
    rr->n_tl = t->ranks[0].n_tl;
    rr->tl_from = t->ranks[0].tl_from;
    t->ranks[0].tl = NULL;
    memest_result_free(t);
  }
  *out = r;
  return MEMEST_OK;
}
