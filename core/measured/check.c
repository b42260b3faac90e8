/*
** check.c — measured runs beside estimates (`memest check`): each snapshot
** goes to its pipeline rank on the trainer's row-major ("pp", "dp", "cp",
** "ep") mesh and is set against that rank's estimated tensor peak (like for
** like with max_memory_allocated); the log's figure joins the max, and its
** step time is set against the estimate's. The reports are check_report.c's.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured/check.h"
#include "sim/result.h"
#include "time/time.h"

int64_t memest_snapshot_rank_of_name(const char *name) {
  const char *base, *p;
  int64_t v = -1;
  if (name == NULL) return -1;
  base = strrchr(name, '/');
  base = base ? base + 1 : name;
  p = strstr(base, "rank");
  while (p != NULL) {
    const char *d = p + 4;
    if (*d >= '0' && *d <= '9') {
      v = 0;
      while (*d >= '0' && *d <= '9' && v < 100000000) v = v * 10 + (*d++ - '0');
      return v >= 100000000 ? -1 : v;
    }
    p = strstr(p + 4, "rank");
  }
  return -1;
}

int64_t memest_pp_rank_of(int64_t rank, int64_t pp_size, int64_t total_gpus) {
  if (pp_size <= 0 || total_gpus <= 0 || total_gpus % pp_size != 0) return -1;
  if (rank < 0 || rank >= total_gpus) return -1;
  /* Row-major: rank = ((pp * dp + dp_r) * cp + cp_r) * ep + ep_r. */
  return rank / (total_gpus / pp_size);
}

/* The error of an estimate against a measurement; 0 (and never shown:
** the reports print none) when nothing was measured. */
static double error_of(uint64_t est, uint64_t meas) {
  return meas > 0 ? ((double)est - (double)meas) / (double)meas : 0.0;
}

/* The tensor peak of one pipeline rank (-1: every rank, the largest). */
static memest_code estimate_rank(const char *config, size_t len, const memest_params *p,
                                 int64_t pp_rank, uint64_t *peak, memest_result **keep,
                                 memest_error *err) {
  memest_params q = *p;
  memest_result *res = NULL;
  memest_code rc;
  q.pp_rank = pp_rank;
  q.timeline = 0;
  q.detail = 0;
  rc = memest_estimate(config, len, &q, &res, err);
  if (rc != MEMEST_OK) return rc;
  *peak = memest_result_tensor_peak_bytes(res);
  if (keep) *keep = res;
  else memest_result_free(res);
  return MEMEST_OK;
}

/* Why snapshot i cannot be compared: no rank in its name, a rank outside
** the run, or a rank given before; MEMEST_OK when none of these. */
static memest_code refuse_snapshot(const memest_check *c, const memest_check_input *in,
                                   int64_t pp_rank, const memest_params *p, memest_error *err) {
  int j;
  if (in->global_rank < 0)
    return memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                        "cannot tell the global rank of snapshot '%s'; keep the trainer's name "
                        "snapshot-rankNNNNN.pickle",
                        in->source);
  if (pp_rank < 0)
    return memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                        "snapshot '%s' is global rank %lld, but the run has %lld GPUs (ranks "
                        "0..%lld); give the run's --total-gpus",
                        in->source, (long long)in->global_rank, (long long)p->total_gpus,
                        (long long)p->total_gpus - 1);
  for (j = 0; j < c->n; j++)
    if (c->ranks[j].global_rank == in->global_rank)
      return memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                          "snapshots '%s' and '%s' are both global rank %lld; give each rank once",
                          c->ranks[j].source, in->source, (long long)in->global_rank);
  return MEMEST_OK;
}

/* The next snapshot, set against its pipeline rank's tensor peak (one
** estimate per pipeline rank); the largest measured so far kept. */
static memest_code add_rank(memest_check *c, const memest_check_input *in, const char *config,
                            size_t len, const memest_params *p, memest_error *err) {
  check_rank *r = &c->ranks[c->n];
  int64_t pp_rank = memest_pp_rank_of(in->global_rank, p->pp_size, p->total_gpus);
  memest_code rc = refuse_snapshot(c, in, pp_rank, p, err);
  int j;
  if (rc != MEMEST_OK) return rc;
  r->pp_rank = pp_rank;
  snprintf(r->source, sizeof r->source, "%s", in->source);
  r->global_rank = in->global_rank;
  r->snap = in->snapshot;
  r->measured = memest_snapshot_summary_of(in->snapshot)->peak_allocated_bytes;
  for (j = 0; j < c->n && c->ranks[j].pp_rank != pp_rank; j++) continue;
  if (j < c->n) r->estimated = c->ranks[j].estimated;
  else if ((rc = estimate_rank(config, len, p, pp_rank, &r->estimated, NULL, err)) != MEMEST_OK)
    return rc;
  r->error = error_of(r->estimated, r->measured);
  if (r->measured > c->meas_max || c->n == 0) {
    c->meas_max = r->measured;
    c->max_from = c->n;
  }
  c->n++;
  return MEMEST_OK;
}

/* The log's figure beside the snapshots, and in the max when larger. */
static void join_log(memest_check *c, const memest_runlog *log) {
  c->log = *memest_runlog_summary_of(log);
  c->runlog = log;
  c->has_log = 1;
  /* The log is a MAX over every rank and step read, the snapshots one
  ** step of some ranks: far apart, the reports say so. */
  if (c->n > 0 && c->meas_max > 0) {
    c->log_vs_snapshots = ((double)c->log.compared_bytes - (double)c->meas_max) / (double)c->meas_max;
    c->disagree = c->log_vs_snapshots > MEMEST_CHECK_DISAGREE ||
                  c->log_vs_snapshots < -MEMEST_CHECK_DISAGREE;
  } else if (c->n > 0) {
    c->disagree = 1;  /* the snapshots allocated nothing; the log's figure is positive */
  }
  if (c->log.compared_bytes > c->meas_max || c->n == 0) {
    c->meas_max = c->log.compared_bytes;
    c->max_from = -1;
  }
}

/* {======================================================================
** Step time: the log's against the estimate's
** ======================================================================= */

/* The estimate's step time and tokens/s (-1 each when it has none). */
static void estimated_time(const memest_result *r, check_time *t) {
  t->est_seconds = memest_result_step_seconds(r);
  t->est_tokens_per_second = memest_result_tokens_per_second(r);
  t->estimated_known = t->est_seconds > 0;
}

/* Why one side has no figure (empty when both have one). */
static void time_note(check_time *t, int has_log, const memest_result *r) {
  const char *logged = "";
  char estimated[300] = "";
  if (!has_log)
    logged = "no log gives a step time: give --log FILE or --wandb DIR, whose step lines print "
             "step-time";
  else if (!t->logged_known)
    logged = "the log's step lines have no step-time (a trainer that did not print it)";
  if (!t->estimated_known)
    snprintf(estimated, sizeof estimated, "the estimate has no step time: %s",
             r->time != NULL && r->time->note[0] ? r->time->note : "the time model did not run");
  snprintf(t->note, sizeof t->note, "%s%s%s", logged, logged[0] && estimated[0] ? "; " : "",
           estimated);
}

/* The log's step time beside the estimate's: signed errors, and the log's
** tokens a step against the estimate's global batch x sequence. */
static void compare_time(memest_check *c, const memest_runlog *log) {
  check_time *t = &c->time;
  const memest_params *p = &c->result->params;
  estimated_time(c->result, t);
  if (log != NULL) {
    t->logged = *memi_runlog_time(log);
    t->logged_known = t->logged.known;
  }
  t->inputs_tokens = (double)p->global_batch_size * (double)p->sequence_length;
  if (t->logged_known && t->logged.tokens_per_step > 0 && t->inputs_tokens > 0) {
    t->tokens_difference = (t->logged.tokens_per_step - t->inputs_tokens) / t->inputs_tokens;
    t->tokens_disagree = fabs(t->tokens_difference) > MEMEST_CHECK_TOKENS_DISAGREE;
  }
  if (t->logged_known && t->estimated_known) {
    t->seconds_error = (t->est_seconds - t->logged.step_seconds) / t->logged.step_seconds;
    if (t->logged.tokens_per_second > 0)
      t->tokens_error = (t->est_tokens_per_second - t->logged.tokens_per_second) /
                        t->logged.tokens_per_second;
  }
  time_note(t, log != NULL, c->result);
}
/* }====================================================================== */

memest_code memest_check_run(const char *config, size_t config_len, const memest_params *p,
                             const memest_check_input *inputs, int n,
                             const memest_runlog *log, memest_check **out, memest_error *err) {
  memest_check *c;
  memest_code rc;
  int i;
  *out = NULL;
  memi_err_clear(err);
  if (n <= 0 && log == NULL)
    return memi_err_set(err, MEMEST_E_MISSING, "snapshot",
                   "memest check needs at least one --snapshot FILE or a --log FILE");
  if (n > MEMEST_CHECK_MAX_SNAPSHOTS)
    return memi_err_set(err, MEMEST_E_LIMIT, "snapshot",
                   "memest check takes at most %d snapshots; give one per pipeline rank",
                   MEMEST_CHECK_MAX_SNAPSHOTS);
  c = calloc(1, sizeof *c);
  if (c != NULL) c->ranks = calloc((size_t)(n > 0 ? n : 1), sizeof *c->ranks);
  if (c == NULL || c->ranks == NULL) {
    free(c);
    return memi_err_set(err, MEMEST_E_NOMEM, "snapshot", "out of memory");
  }
  rc = estimate_rank(config, config_len, p, -1, &c->est_max, &c->result, err);
  c->fragmentation_param = p->fragmentation;
  c->params = *p;
  c->snap_from = -1;
  for (i = 0; i < n && rc == MEMEST_OK; i++) rc = add_rank(c, &inputs[i], config, config_len, p, err);
  if (rc != MEMEST_OK) {
    memest_check_free(c);
    return rc;
  }
  if (c->n > 0) c->snap_from = c->max_from;
  if (log != NULL) join_log(c, log);
  compare_time(c, log);
  c->error_max = error_of(c->est_max, c->meas_max);
  *out = c;
  return MEMEST_OK;
}

void memest_check_free(memest_check *c) {
  if (c == NULL) return;
  memest_result_free(c->result);
  free(c->source_json);
  free(c->source_text);
  free(c->ranks);
  free(c);
}

memest_code memest_check_set_source(memest_check *c, const memest_trainer_run *run,
                                    memest_error *err) {
  memi_err_clear(err);
  if (c == NULL || run == NULL)
    return memi_err_set(err, MEMEST_E_VALUE, "", "memest_check_set_source needs a check and a run");
  return memi_source_attach(run, c->result, &c->source_json, &c->source_text, err);
}

const memest_result *memest_check_estimate(const memest_check *c) { return c->result; }

int memest_check_step_time_error(const memest_check *c, double *error, const char **note) {
  const check_time *t = &c->time;
  *error = t->logged_known && t->estimated_known ? t->seconds_error : 0;
  *note = t->note;
  return t->logged_known && t->estimated_known;
}
