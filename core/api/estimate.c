/*
** estimate.c — the public entry points: memest_estimate (config -> the
** estimate (result.c) -> its suggestions (advice.c), sharing one est_cache),
** memest_validate, memest_config_check (a config read alone) and the
** result's headline accessors. One estimate is a
** pure function of its inputs: everything it allocates hangs off the result
** or is freed before it returns.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_source.h"
#include "model/presets.h"
#include "sim/result.h"
#include "plan/routing_margin.h"
#include "time/time.h"

const char *memest_version(void) { return MEMEST_VERSION; }

/* Resolves the config text: the caller's, or the preset named by model. */
static memest_code config_text(const char *config, size_t len, const memest_params *p,
                               const char **text, size_t *n, memest_error *err) {
  if (config != NULL) {
    *text = config;
    *n = len;
    return MEMEST_OK;
  }
  if (!((p->given >> MEMEST_P_MODEL) & 1u)) {
    return memi_err_set(err, MEMEST_E_MISSING, "model",
                   "missing required parameter --model: give a preset name or a config.json");
  }
  *text = memest_model_preset_config(p->model);
  if (*text == NULL) {
    char names[400];
    int i;
    names[0] = '\0';
    for (i = 0; i < memest_model_preset_count(); i++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", memest_model_preset_name(i));
    }
    return memi_err_set(err, MEMEST_E_UNKNOWN, "model",
                   "unknown model preset '%.100s'; the presets are: %s (or give a config.json)",
                   p->model, names);
  }
  *n = strlen(*text);
  return MEMEST_OK;
}

/* One rank asked for: its figures stay in r, and the verdict becomes the
** run's, from every rank replayed without a timeline (r->every), so that a
** rank's view never changes what the run is. When replaying every rank
** exceeds MEMEST_MAX_REPLAY_CHUNKS (the limit --pp-rank escapes), the
** verdict stays the rank's, r->every is NULL and run_worst -1: the reports
** say so, and `--require` refuses. */
static memest_code run_verdict(const model_config *mc, memest_result *r, est_cache *cache,
                               memest_error *err) {
  memest_params q = r->params;
  memest_result *every = malloc(sizeof *every);
  memest_error why;
  memest_code rc;
  r->shown_peak = r->peak;
  r->shown_headroom = r->headroom;
  r->shown_status = r->status;
  if (every == NULL) {
    memi_est_release(r);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  q.pp_rank = -1;
  q.timeline = 0;
  q.timeline_limit = 0;
  rc = memi_est_run(mc, &q, every, cache, &why);
  if (rc != MEMEST_OK) {
    free(every);
    r->run_worst = -1;
    if (why.reason == MEMEST_R_REPLAY_WORK) return MEMEST_OK;
    memi_est_release(r);
    if (err != NULL) *err = why;
    return rc;
  }
  r->every = every;
  r->run_worst = every->ranks[every->worst].rank;
  r->peak = every->peak;
  r->headroom = every->headroom;
  r->status = every->status;
  return MEMEST_OK;
}

/* The estimate, then (if asked) its suggestions, with one cache for all of
** them: the caller's, or one of its own when cache is NULL. */
static memest_code estimate_with_advice(const model_config *mc, const memest_params *p,
                                        int with_advice, memest_result *r, est_cache *cache,
                                        memest_error *err) {
  est_cache *local = NULL;
  memest_error first;
  memest_code rc;
  /* The config is read: each problem's fix is now searched for this model. */
  if (memi_layout_problems(mc, p, &first, 1) > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  if (cache == NULL && (cache = local = memi_est_cache_new()) == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  rc = memi_est_run(mc, p, r, cache, err);
  r->run_worst = rc == MEMEST_OK ? r->ranks[r->worst].rank : -1;
  if (rc == MEMEST_OK && p->pp_rank >= 0) rc = run_verdict(mc, r, cache, err);
  if (rc == MEMEST_OK && with_advice && (rc = memi_advice_build(r, cache, err)) != MEMEST_OK) {
    memi_est_release(r);
  }
  if (rc == MEMEST_OK) {
    rc = memi_routing_margin(mc, p, &r->lo.d, r->ranks[r->worst].total - r->capacity,
                        r->ranks[r->worst].rank, ROUTING_ESTIMATE_GRID, cache, &r->routing, err);
    if (rc != MEMEST_OK) memi_est_release(r);
  }
  if (rc == MEMEST_OK && (rc = memi_time_run(r, 0, cache, &r->time, err)) != MEMEST_OK) {
    memi_est_release(r);
  }
  memi_est_cache_free(local);
  return rc;
}

memest_code memest_estimate(const char *config, size_t config_len, const memest_params *p,
                            memest_result **out, memest_error *err) {
  return memi_est_estimate(config, config_len, p, 1, NULL, out, err);
}

memest_code memi_est_estimate(const char *config, size_t config_len, const memest_params *p,
                             int with_advice, est_cache *cache, memest_result **out,
                             memest_error *err) {
  const char *text;
  size_t n;
  memest_result *r;
  model_config *mc;
  memest_code rc;
  memest_error first;
  double eff[EFF_COUNT];
  memi_err_clear(err);
  if (out == NULL || p == NULL) return memi_err_set(err, MEMEST_E_VALUE, "", "no parameters given");
  *out = NULL;
  if (memi_layout_problems(NULL, p, &first, 1) > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  if ((rc = memi_eff_resolve(p, eff, err))) return rc;
  if ((rc = config_text(config, config_len, p, &text, &n, err))) return rc;
  mc = malloc(sizeof *mc);
  r = malloc(sizeof *r);
  if (mc == NULL || r == NULL) {
    free(mc);
    free(r);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  rc = memi_cfg_parse(text, n, mc, err);
  if (rc == MEMEST_OK) rc = estimate_with_advice(mc, p, with_advice, r, cache, err);
  free(mc);
  if (rc != MEMEST_OK) {
    free(r);
    return rc;
  }
  memi_model_source_settle(&r->params, config == NULL);
  *out = r;
  return MEMEST_OK;
}

double memest_result_step_seconds(const memest_result *r) {
  return r != NULL && r->time != NULL && r->time->known ? r->time->step_seconds : -1.0;
}

double memest_result_tokens_per_second(const memest_result *r) {
  return r != NULL && r->time != NULL && r->time->known ? r->time->tokens_per_second : -1.0;
}

memest_code memest_config_check(const char *config, size_t config_len, memest_error *err) {
  model_config *mc;
  memest_code rc;
  memi_err_clear(err);
  if (config == NULL) return memi_err_set(err, MEMEST_E_VALUE, "model", "no config text given");
  if ((mc = malloc(sizeof *mc)) == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  rc = memi_cfg_parse(config, config_len, mc, err);
  free(mc);
  return rc;
}

int memest_validate(const char *config, size_t config_len, const memest_params *p,
                    memest_error *errs, int max) {
  const char *text;
  size_t n;
  model_config *mc;
  memest_error one;
  double eff[EFF_COUNT];
  int count;
  if (p == NULL) return 0;
  count = memi_layout_problems(NULL, p, errs, max);
  if (count < max && memi_eff_resolve(p, eff, &one) != MEMEST_OK) errs[count++] = one;
  if (count > 0) return count;
  if (config_text(config, config_len, p, &text, &n, &one) != MEMEST_OK) {
    if (max > 0) errs[0] = one;
    return 1;
  }
  mc = malloc(sizeof *mc);
  if (mc == NULL) {
    if (max > 0) memi_err_set(&errs[0], MEMEST_E_NOMEM, "", "out of memory");
    return 1;
  }
  if (memi_cfg_parse(text, n, mc, &one) != MEMEST_OK) {
    free(mc);
    if (max > 0) errs[0] = one;
    return 1;
  }
  count = memi_layout_problems(mc, p, errs, max);
  free(mc);
  return count;
}
