/*
** estimate_view.c — one page view in one call: the estimate of every rank
** without a timeline, the suggestions only when they are shown, the shown
** rank's timeline (whole, or a window around its peak when its schedule is
** long), and, when one rank is asked for, every rank's peak for the
** per-rank chart (the estimate's own replay of every rank, which gives
** the run's verdict: estimate.c). The later replays reuse the first one's model and layer
** programs (one est_cache), and neither reads the config again nor searches
** the routing margin, which belong to the headline estimate.
*/
#include <stdlib.h>

#include "sim/result.h"
#include "time/time.h"

/* A replay of r's model with q (no suggestions, no margin) into *out. */
static memest_code view_replay(const memest_result *r, const memest_params *q, est_cache *cache,
                               memest_result **out, memest_error *err) {
  memest_result *t = malloc(sizeof *t);
  memest_code rc;
  *out = NULL;
  if (t == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  if ((rc = memi_est_run(&r->mc, q, t, cache, err)) != MEMEST_OK) {
    free(t);
    return rc;
  }
  *out = t;
  return MEMEST_OK;
}

/* Moves the timeline of the shown rank (p->pp_rank, else the worst) into r. */
static memest_code view_timeline(memest_result *r, const memest_params *p,
                                 const memest_view_options *o, est_cache *cache,
                                 memest_error *err) {
  int i, want = p->pp_rank >= 0 ? (int)p->pp_rank : memest_result_worst_rank(r);
  memest_params q = r->params;
  memest_result *t;
  rank_result *rr = NULL;
  memest_code rc;
  for (i = 0; i < r->n_ranks; i++) {
    if (r->ranks[i].rank == want) rr = &r->ranks[i];
  }
  if (rr == NULL) return MEMEST_OK;
  q.pp_rank = rr->rank;
  q.timeline = 1;
  q.timeline_limit = rr->n_events <= o->timeline_window || o->timeline_window == 0
                         ? 0
                         : o->timeline_window;
  if ((rc = view_replay(r, &q, cache, &t, err)) != MEMEST_OK) return rc;
  rr->tl = t->ranks[0].tl;
  rr->n_tl = t->ranks[0].n_tl;
  rr->tl_from = t->ranks[0].tl_from;
  t->ranks[0].tl = NULL;
  memest_result_free(t);
  /* The time model again, now that r keeps a timeline: its events' times. */
  free(r->time);
  r->time = NULL;
  return memi_time_run(r, 0, cache, &r->time, err);
}

memest_code memest_estimate_view(const char *config, size_t config_len, const memest_params *p,
                                 const memest_view_options *o, memest_result **out,
                                 memest_error *err) {
  memest_params q;
  memest_result *r = NULL;
  est_cache *cache;
  memest_code rc;
  if (p == NULL || o == NULL || out == NULL) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "no parameters or view options given");
  }
  *out = NULL;
  if (o->timeline_window < 0 || o->timeline_window > MEMEST_MAX_TIMELINE_EVENTS) {
    return memi_err_set(err, MEMEST_E_LIMIT, "timeline_limit",
                   "the timeline window must be 0 (every event) to MEMEST_MAX_TIMELINE_EVENTS");
  }
  if ((cache = memi_est_cache_new()) == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  q = *p;
  q.timeline = 0;
  rc = memi_est_estimate(config, config_len, &q, o->suggestions != 0, cache, &r, err);
  if (rc == MEMEST_OK && o->shown_timeline) rc = view_timeline(r, p, o, cache, err);
  if (rc == MEMEST_OK) r->timeline_columns = o->timeline_columns != 0;
  /* Every rank's replay, for the per-rank chart: memi_est_estimate made it
  ** for the run's verdict, unless it exceeds the replay's work limit. */
  (void)o->every_rank;
  memi_est_cache_free(cache);
  if (rc != MEMEST_OK) {
    memest_result_free(r);
    return rc;
  }
  *out = r;
  return MEMEST_OK;
}
