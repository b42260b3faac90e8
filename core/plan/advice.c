/*
** advice.c — suggestions: each candidate change of one knob (optimizer,
** sharding, micro batch, pipeline, data, expert or context parallelism) is
** estimated for real, and those that lower the peak are kept, largest
** saving first; when none of them is OK, nearest.c searches for the
** nearest layout that is. Nothing here is a rule of thumb: every figure is computed,
** with the base estimate's est_cache, so the candidates reuse its layer
** programs wherever their shapes agree.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/result.h"

typedef struct candidate {
  const char *knob;
  memest_params p;
  char from[32], to[32];
  const char *why;
} candidate;

static int valid(const memest_result *r, const memest_params *p) {
  memest_error e;
  return memi_layout_count(&r->mc, p, &e, 1) == 0;
}

static void set_int(char *buf, size_t n, int64_t v) { snprintf(buf, n, "%lld", (long long)v); }

/* The next free candidate, or NULL when max are taken. */
static candidate *next_slot(candidate *c, int n, int max) { return n < max ? &c[n] : NULL; }

/* Candidate x doubles the degree *deg of x->p (ep or cp): on the same GPUs
** when the data parallelism dp halves evenly, else on twice the GPUs with
** the same dp (an odd dp, dp 1 included, has no half to give). */
static void double_degree(candidate *x, const memest_params *b, int64_t dp, const char *knob,
                          int64_t *deg, const char *why) {
  int64_t from;
  x->knob = knob;
  x->p = *b;
  from = *deg;
  *deg = from * 2;
  set_int(x->from, sizeof x->from, from);
  if (dp % 2 == 0) {
    set_int(x->to, sizeof x->to, *deg);
  } else {
    x->p.total_gpus = b->total_gpus * 2;
    snprintf(x->to, sizeof x->to, "%lld (%lld GPUs)", (long long)*deg, (long long)x->p.total_gpus);
  }
  x->why = why;
}

/* Fills up to max candidates from the base inputs. */
static int candidates(const memest_result *r, candidate *c, int max) {
  const memest_params *b = &r->params;
  int n = 0;
  int64_t dp = r->lo.dp;
  candidate *x;
  if (b->optimizer == MEMEST_ADAMW && (x = next_slot(c, n, max)) != NULL) {
    x->knob = "optimizer";
    x->p = *b;
    x->p.optimizer = MEMEST_MUON;
    snprintf(x->from, sizeof x->from, "%s", memest_optimizer_name(MEMEST_ADAMW));
    snprintf(x->to, sizeof x->to, "%s", memest_optimizer_name(MEMEST_MUON));
    x->why = "Muon keeps one fp32 state per matrix parameter instead of AdamW's two";
    n++;
  }
  if (b->sharding == MEMEST_HSDP && (x = next_slot(c, n, max)) != NULL) {
    x->knob = "sharding";
    x->p = *b;
    x->p.sharding = MEMEST_FSDP;
    snprintf(x->from, sizeof x->from, "%s", memest_sharding_name(MEMEST_HSDP));
    snprintf(x->to, sizeof x->to, "%s", memest_sharding_name(MEMEST_FSDP));
    x->why = "FSDP shards master weights, grads and states over the data-parallel ranks too";
    n++;
  }
  if (b->micro_batch_size > 1 && (x = next_slot(c, n, max)) != NULL) {
    x->knob = "micro_batch_size";
    x->p = *b;
    x->p.micro_batch_size = b->micro_batch_size / 2;
    set_int(x->from, sizeof x->from, b->micro_batch_size);
    set_int(x->to, sizeof x->to, x->p.micro_batch_size);
    x->why = "activations per chunk scale with the micro batch";
    n++;
  }
  if ((x = next_slot(c, n, max)) != NULL) {
    x->knob = "pp_size";
    x->p = *b;
    x->p.pp_size = b->pp_size * 2;
    x->p.total_gpus = b->total_gpus * 2;
    set_int(x->from, sizeof x->from, b->pp_size);
    snprintf(x->to, sizeof x->to, "%lld (%lld GPUs)", (long long)x->p.pp_size,
             (long long)x->p.total_gpus);
    x->why = "more pipeline stages hold fewer layers each (same data parallelism, more GPUs)";
    n++;
  }
  if (dp % 2 == 0 && (x = next_slot(c, n, max)) != NULL) {
    x->knob = "pp_size";
    x->p = *b;
    x->p.pp_size = b->pp_size * 2;
    set_int(x->from, sizeof x->from, b->pp_size);
    snprintf(x->to, sizeof x->to, "%lld (same GPUs)", (long long)x->p.pp_size);
    x->why = "trading data parallelism for pipeline stages on the same GPUs";
    n++;
  }
  if ((x = next_slot(c, n, max)) != NULL) {
    x->knob = "total_gpus";
    x->p = *b;
    x->p.total_gpus = b->total_gpus * 2;
    x->p.global_batch_size = b->global_batch_size;
    set_int(x->from, sizeof x->from, b->total_gpus);
    set_int(x->to, sizeof x->to, x->p.total_gpus);
    x->why = "twice the data parallelism shards parameters, grads and states twice as far";
    n++;
  }
  if ((x = next_slot(c, n, max)) != NULL) {
    double_degree(x, b, dp, "ep_size", &x->p.ep_size,
                  "more expert parallelism holds fewer experts per GPU");
    n++;
  }
  if (r->mc.arch->supports_cp && (x = next_slot(c, n, max)) != NULL) {
    double_degree(x, b, dp, "cp_size", &x->p.cp_size,
                  "context parallelism splits each sequence's activations");
    n++;
  }
  return n;
}

static int by_saving(const void *a, const void *b) {
  const suggestion *x = a, *y = b;
  if (x->saves != y->saves) return x->saves < y->saves ? 1 : -1;
  return strcmp(x->knob, y->knob);
}

memest_code memi_advice_build(memest_result *r, est_cache *cache, memest_error *err) {
  candidate c[8];
  memest_result *alt;
  int n, i;
  memest_error e;
  memest_code rc;
  r->n_sugg = 0;
  alt = malloc(sizeof *alt);
  if (alt == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the suggestions");
  n = candidates(r, c, 8);
  for (i = 0; i < n; i++) {
    suggestion *s;
    memest_params q = c[i].p;   /* estimated every rank, without a timeline */
    q.timeline = 0;
    q.detail = 0;
    q.pp_rank = -1;
    if (!valid(r, &q)) continue;
    rc = memi_est_run(&r->mc, &q, alt, cache, &e);
    if (rc == MEMEST_E_NOMEM) {   /* an alternative that does not run is no advice; memory is */
      free(alt);
      if (err != NULL) *err = e;
      return rc;
    }
    if (rc != MEMEST_OK) continue;
    if (alt->peak < r->peak && r->n_sugg < (int)(sizeof r->sugg / sizeof r->sugg[0])) {
      s = &r->sugg[r->n_sugg++];
      snprintf(s->knob, sizeof s->knob, "%s", c[i].knob);
      snprintf(s->from, sizeof s->from, "%s", c[i].from);
      snprintf(s->to, sizeof s->to, "%s", c[i].to);
      snprintf(s->advice, sizeof s->advice, "%s", c[i].why);
      memi_params_fix(&r->params, &c[i].p, s->fix, sizeof s->fix);
      s->peak = alt->peak;
      s->saves = r->peak - alt->peak;
      s->status = alt->status;
    }
    memi_est_release(alt);
  }
  free(alt);
  qsort(r->sugg, (size_t)r->n_sugg, sizeof r->sugg[0], by_saving);
  for (i = 0; i < r->n_sugg; i++) {
    if (r->sugg[i].status == MEMEST_FITS_OK) return MEMEST_OK;
  }
  return r->status == MEMEST_FITS_OK ? MEMEST_OK : memi_nearest_build(r, cache, err);
}
