/*
** planner.c — memest plan and compare, in pieces: begin (the values each
** input is swept over, each combination checked, invalid ones counted by
** reason), the estimates of ranges of rows on a config parsed once (no
** advice, no timeline; see plan_estimate.c), and the conclusion (failed
** estimates settled, rows sorted by the objective, the answer) with the
** config's release, which plan_run.c's finish puts around what the answer
** needs beside it. It builds on plan_request.c (the request),
** plan_estimate.c and plan_dims.c; the writers, plan_report.c, read what it
** leaves. Design: docs/planner.md.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_source.h"
#include "plan/plan.h"
#include "sim/schedule.h"

/* The mbs values a plan tries when --micro-batch-size is not given. */
static const int64_t default_mbs[] = {1, 2, 4};

/* What the checking pass shares: the parsed config and the plan. */
typedef struct sweep {
  const model_config *mc;
  memest_plan *pl;
} sweep;

/* {======================================================================
** Sweep dimensions: the given lists, or every valid value.
** ======================================================================= */
static void dim_add(dim_list *l, int64_t v) {
  if (l->n < MEMEST_MAX_PP) l->v[l->n++] = v;
}

static int64_t dim_max(const dim_list *l) {
  int64_t m = 0;
  int i;
  for (i = 0; i < l->n; i++) m = l->v[i] > m ? l->v[i] : m;
  return m;
}

/* The most GPUs any combination has, or 0 when it is not bounded. */
static int64_t max_gpus(const memest_plan *pl) {
  if (pl->dims[D_TOTAL].n > 0) return dim_max(&pl->dims[D_TOTAL]);
  if (pl->dims[D_NODES].n > 0) return dim_max(&pl->dims[D_NODES]) * pl->gpus_per_node;
  return 0;
}

static int within(int64_t v, int64_t cap) { return cap == 0 || v <= cap; }

static int cp_fits_some_seq(const dim_list *seq, int64_t cp) {
  int i;
  if (cp == 1 || seq->n == 0) return 1;
  for (i = 0; i < seq->n; i++) {
    if (seq->v[i] % (2 * cp) == 0) return 1;
  }
  return 0;
}

/* The default list of dimension d (docs/planner.md "Enumeration"). */
static void dim_default(memest_plan *pl, const model_config *mc, int d) {
  dim_list *l = &pl->dims[d];
  int64_t cap = max_gpus(pl), v, unit;
  size_t i;
  l->n = 0;
  switch (d) {
    case D_PP:
      for (v = 1; v <= memi_schedule_max_pp(&pl->base, mc->layers) && within(v, cap); v++) {
        dim_add(l, v);
      }
      break;
    case D_EP:
      for (v = 1; v <= MEMEST_MAX_EP && within(v, cap); v++) {
        if (mc->experts > 0 ? mc->experts % v == 0 : v == 1) dim_add(l, v);
      }
      break;
    case D_CP:
      for (v = 1; v <= MEMEST_MAX_CP && within(v, cap) && (v == 1 || mc->arch->supports_cp);
           v *= 2) {
        if (cp_fits_some_seq(&pl->dims[D_SEQ], v)) dim_add(l, v);
      }
      break;
    case D_MBS:
      for (i = 0; i < sizeof default_mbs / sizeof default_mbs[0]; i++) dim_add(l, default_mbs[i]);
      break;
    case D_SEQ:
      for (v = 1024; v <= 131072; v *= 2) dim_add(l, v);
      break;
    case D_TOTAL:
      unit = pl->dims[D_PP].v[0] * pl->dims[D_EP].v[0] * pl->dims[D_CP].v[0];
      if (pl->gpus_per_node > 0) unit = unit / memi_plan_gcd(unit, pl->gpus_per_node) * pl->gpus_per_node;
      for (v = 1; v <= MEMEST_PLAN_VALUES && unit * v <= MEMEST_MAX_GPUS; v++) dim_add(l, unit * v);
      break;
    default: /* D_DP, D_NODES */
      for (v = 1; v <= MEMEST_PLAN_VALUES; v++) dim_add(l, v);
  }
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* Copies the request's lists into the plan and enumerates what the mode
** leaves open. Defaults read the given lists: cp's the sequence lengths,
** pp's the GPUs, total's the single pp, ep and cp of a vary plan. */
static void dims_build(memest_plan *pl, const memest_plan_request *req, const model_config *mc) {
  static const int open_dims[] = {D_MBS, D_CP, D_EP, D_PP};
  size_t k;
  int d;
  for (d = 0; d < D_COUNT; d++) {
    const memest_plan_list *l = memi_plan_dim_list(req, d);
    pl->given[d] = l->n > 0;
    pl->dims[d].n = l->n;
    memcpy(pl->dims[d].v, l->v, (size_t)l->n * sizeof l->v[0]);
  }
  if (pl->mode == MEMEST_PLAN_VARY) {
    if (!pl->given[pl->vary]) dim_default(pl, mc, pl->vary);
    qsort(pl->dims[pl->vary].v, (size_t)pl->dims[pl->vary].n, sizeof(int64_t), cmp_i64);
  }
  for (k = 0; k < sizeof open_dims / sizeof open_dims[0] && pl->mode == MEMEST_PLAN_LAYOUTS; k++) {
    if (!pl->given[open_dims[k]]) dim_default(pl, mc, open_dims[k]);
  }
}
/* }====================================================================== */

/* Whether a compare sets schedules side by side: a configuration one of
** them cannot take stays an INVALID row, as a vary plan's does. */
static int compares_schedules(const memest_plan *pl) {
  return pl->mode == MEMEST_PLAN_COMPARE && ((pl->varied_options >> MEMEST_P_SCHEDULE) & 1u);
}

/* {======================================================================
** Reasons: the short class of the first problem with a combination.
** ======================================================================= */
static const char *reason_key(const memest_plan *pl, const memest_error *e, char *buf,
                              size_t size) {
  const schedule *sc = memi_schedule_of(pl->base.schedule);
  switch (e->reason) {
    case MEMEST_R_EP_ABOVE_MAX: return "ep above 32";
    case MEMEST_R_EP_DENSE: return "ep > 1 without experts";
    case MEMEST_R_EP_EXPERTS: return "ep does not divide experts";
    case MEMEST_R_CP_ARCH: return "cp unsupported by the architecture";
    case MEMEST_R_SEQ_CP: return "seq not a multiple of 2*cp";
    case MEMEST_R_PP_LAYERS:
      snprintf(buf, size, "layers < %s",
               compares_schedules(pl) ? "the schedule's stages" : sc->stages_text);
      return buf;
    case MEMEST_R_GPUS_GROUP:
    case MEMEST_R_DP_LIMIT: return "pp*ep*cp does not divide total GPUs";
    case MEMEST_R_CHUNKS_MAX:
    case MEMEST_R_REPLAY_WORK: return "num_chunks above MEMEST_MAX_CHUNKS";
    case MEMEST_R_CHUNKS_MIN:
      snprintf(buf, size, "num_chunks < %s",
               compares_schedules(pl) ? "the schedule's minimum" : sc->chunks_text);
      return buf;
    case MEMEST_R_GBS_UNIT: return "gbs not a multiple of mbs*dp*ep";
    case MEMEST_R_SCHEDULE:
      snprintf(buf, size, "%.16s's own need (%.24s)", compares_schedules(pl) ? "a schedule" : sc->name,
               e->field);
      return buf;
    case MEMEST_R_NODES_MISMATCH: return "total GPUs differ from nodes x GPUs per node";
    case MEMEST_R_WHOLE_NODES: return "total GPUs not whole nodes";
    case MEMEST_R_DP_MISMATCH: return "dp differs from --dp";
    case MEMEST_R_GPUS_LIMIT: return "total GPUs above MEMEST_MAX_GPUS";
    default: break;
  }
  snprintf(buf, size, "%s: %s", e->field[0] ? e->field : "estimate", memest_code_name(e->code));
  return buf;
}

/* Counts one invalid combination under key; returns the reason's index. */
static int reason_count(memest_plan *pl, const char *key, const char *message) {
  int i;
  for (i = 0; i < pl->n_reasons; i++) {
    if (strcmp(pl->reasons[i].key, key) == 0) break;
  }
  if (i == pl->n_reasons) {
    if (pl->n_reasons == PLAN_REASONS_MAX) {
      i = PLAN_REASONS_MAX - 1;
      snprintf(pl->reasons[i].key, sizeof pl->reasons[i].key, "other");
    } else {
      pl->n_reasons++;
      snprintf(pl->reasons[i].key, sizeof pl->reasons[i].key, "%s", key);
      snprintf(pl->reasons[i].example, sizeof pl->reasons[i].example, "%s", message);
    }
  }
  pl->reasons[i].count++;
  return i;
}
/* }====================================================================== */

/* {======================================================================
** One combination: its inputs, its check and its estimate.
** ======================================================================= */
static plan_row *row_new(memest_plan *pl, memest_error *err) {
  if (pl->n_rows == pl->cap_rows) {
    int cap = pl->cap_rows ? 2 * pl->cap_rows : 64;
    plan_row *rows = realloc(pl->rows, (size_t)cap * sizeof *rows);
    if (rows == NULL) {
      memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for %d plan rows", cap);
      return NULL;
    }
    pl->rows = rows;
    pl->cap_rows = cap;
  }
  memset(&pl->rows[pl->n_rows], 0, sizeof pl->rows[0]);
  pl->rows[pl->n_rows].reason = -1;
  pl->rows[pl->n_rows].note = -1;
  return &pl->rows[pl->n_rows++];
}

/* Works out total GPUs, dp and nodes; a problem the layout check cannot
** see (whole nodes, --dp, --nodes against --total-gpus) goes into e. */
static int row_gpus(const memest_plan *pl, plan_row *row, const int64_t *v, memest_error *e) {
  int64_t group = v[D_PP] * v[D_EP] * v[D_CP], g = pl->gpus_per_node;
  int64_t total = v[D_TOTAL] > 0 ? v[D_TOTAL] : v[D_NODES] > 0 ? v[D_NODES] * g : group * v[D_DP];
  memcpy(row->in, v, sizeof row->in);
  row->in[D_TOTAL] = total;
  row->in[D_DP] = total % group == 0 ? total / group : v[D_DP];
  row->in[D_NODES] = g > 0 ? total / g : 0;
  if (v[D_TOTAL] > 0 && v[D_NODES] > 0 && v[D_TOTAL] != v[D_NODES] * g) {
    memi_err_set(e, MEMEST_E_LAYOUT, "nodes",
            "--total-gpus %lld is not --nodes %lld x --gpus-per-node %lld; give one of them",
            (long long)v[D_TOTAL], (long long)v[D_NODES], (long long)g);
    memi_err_reason(e, MEMEST_R_NODES_MISMATCH);
    return 1;
  }
  if (total > MEMEST_MAX_GPUS) {
    memi_err_set(e, MEMEST_E_LIMIT, "total_gpus",
            "%lld GPUs exceed MEMEST_MAX_GPUS = %lld; give smaller values", (long long)total,
            (long long)MEMEST_MAX_GPUS);
    memi_err_reason(e, MEMEST_R_GPUS_LIMIT);
    return 1;
  }
  if (g > 0 && total % g != 0) {
    memi_err_set(e, MEMEST_E_LAYOUT, "gpus_per_node",
            "%lld GPUs are not whole nodes of %lld GPUs; use a multiple of %lld", (long long)total,
            (long long)g, (long long)g);
    memi_err_reason(e, MEMEST_R_WHOLE_NODES);
    return 1;
  }
  return 0;
}

/* Records dropped row i: counted under key; a vary plan and a compare of
** schedules keep it as an INVALID row (*keep = 1), another compare stops
** with the problem. */
static memest_code row_drop(memest_plan *pl, int i, const char *key, const memest_error *e,
                            int *keep, memest_error *err) {
  plan_row *row = &pl->rows[i];
  int r = reason_count(pl, key, e->message);
  *keep = 0;
  if (pl->mode == MEMEST_PLAN_COMPARE && !compares_schedules(pl)) {
    memi_err_set_at(err, e->code, e->field, e->line, e->column,
               "configuration %d (pp %lld, ep %lld, cp %lld, %lld GPUs, mbs %lld, gbs %lld, seq "
               "%lld): %.600s",
               i + 1, (long long)row->in[D_PP], (long long)row->in[D_EP],
               (long long)row->in[D_CP], (long long)row->in[D_TOTAL], (long long)row->in[D_MBS],
               (long long)row->in[D_GBS], (long long)row->in[D_SEQ], e->message);
    if (err != NULL) {
      snprintf(err->fix, sizeof err->fix, "%s", e->fix);
      err->reason = e->reason;
    }
    return e->code != MEMEST_OK ? e->code : MEMEST_E_LAYOUT;
  }
  if (pl->mode == MEMEST_PLAN_VARY || compares_schedules(pl)) {
    *keep = 1;
    row->reason = r;
    row->note = pl->n_notes;
    snprintf(pl->notes[pl->n_notes++], PLAN_NOTE_CHARS, "%s", e->message);
  }
  return MEMEST_OK;
}

/* Drops the row just added, keeping it where row_drop says so. */
static memest_code drop_last(sweep *sw, const char *key, const memest_error *e,
                             memest_error *err) {
  int keep;
  memest_code rc = row_drop(sw->pl, sw->pl->n_rows - 1, key, e, &keep, err);
  if (!keep) sw->pl->n_rows--;
  return rc;
}

/* The time one row's estimate takes, in work units of about 4 us on the
** development machine (docs/planner.md "Limits and speed"), measured over
** 64 to 1,024 layers and pp 1 to 512 for every family: building each
** rank's layer programs (the layers, plus their square over pp) and
** replaying each rank's warm-up and drain (pp ranks of O(pp) ops). The
** micro-batch count does not enter: the replay skips steady iterations.
** Muon and FP8 add about a fifth. */
static int64_t row_work(int64_t layers, const memest_params *p) {
  int64_t pp = p->pp_size > 0 ? p->pp_size : 1;
  int64_t w = layers + layers * layers / (768 * pp) + pp * pp / 14;
  if (p->optimizer == MEMEST_MUON || p->fp8_training == MEMEST_FP8_DEEP_GEMM) w += w / 4;
  return w;
}

/* Checks one combination of values v (per D_*) with option variant var;
** a valid one becomes a PLAN_PENDING row for memi_plan_estimate. */
static memest_code try_combo(sweep *sw, const int64_t *v, int var, memest_error *err) {
  memest_plan *pl = sw->pl;
  memest_params p;
  memest_error e;
  char buf[64];
  plan_row *row = row_new(pl, err);
  if (row == NULL) return MEMEST_E_NOMEM;
  row->variant = var;
  pl->tried++;
  if (row_gpus(pl, row, v, &e)) return drop_last(sw, reason_key(pl, &e, buf, sizeof buf), &e, err);
  memi_plan_row_params(pl, row, &p);
  if (memi_layout_count(sw->mc, &p, &e, 1) > 0) {
    return drop_last(sw, reason_key(pl, &e, buf, sizeof buf), &e, err);
  }
  if (v[D_DP] > 0 && row->in[D_DP] != v[D_DP]) {
    memi_err_set(&e, MEMEST_E_LAYOUT, "dp",
            "%lld GPUs over pp*ep*cp = %lld give dp %lld, not the --dp %lld asked for; give "
            "--dp values that divide the GPUs, or leave --dp out",
            (long long)row->in[D_TOTAL], (long long)(v[D_PP] * v[D_EP] * v[D_CP]),
            (long long)row->in[D_DP], (long long)v[D_DP]);
    memi_err_reason(&e, MEMEST_R_DP_MISMATCH);
    return drop_last(sw, reason_key(pl, &e, buf, sizeof buf), &e, err);
  }
  row->ep_across = memi_plan_ep_across(row->in[D_EP], pl->gpus_per_node);
  pl->work += row_work(pl->layers, &p);
  if (pl->work > MEMEST_MAX_PLAN_WORK) {
    return memi_err_set(err, MEMEST_E_LIMIT, "",
                   "this plan's estimates would take more than about 2 s (%lld rows of a "
                   "%lld-layer model so far, over MEMEST_MAX_PLAN_WORK = %lld work units, a "
                   "unit being about 4 us of one estimate); narrow it: fewer values in its "
                   "lists, or smaller --pp-size values",
                   (long long)pl->n_rows, (long long)pl->layers, (long long)MEMEST_MAX_PLAN_WORK);
  }
  row->fail = PLAN_PENDING;
  return MEMEST_OK;
}

/* A row --min-routing-margin drops: its margin is below the minimum, or it
** has none (out of memory even with even routing, or at ep = 1). */
static int margin_short(const plan_row *row, double min) {
  if (min <= 0.0) return 0;
  if (!row->routing.applies) return row->status == MEMEST_FITS_OOM;
  return !row->routing.has_margin || row->routing.margin < min;
}

/* Rows whose estimate failed (an overflow, a core limit) become dropped
** combinations, in row order, as a failed check would. */
static memest_code settle(memest_plan *pl, memest_error *err) {
  int i, kept = 0, keep;
  memest_code rc;
  for (i = 0; i < pl->n_rows; i++) {
    plan_row *row = &pl->rows[i];
    if (row->fail != MEMEST_OK) {
      memest_error e;
      char buf[64];
      if (row->fail_err != NULL) e = *row->fail_err;
      else memi_err_set(&e, (memest_code)row->fail, "", "the estimate failed (out of memory)");
      rc = row_drop(pl, i, reason_key(pl, &e, buf, sizeof buf), &e, &keep, err);
      if (rc != MEMEST_OK) return rc;
      free(row->fail_err);
      row->fail_err = NULL;
      row->fail = MEMEST_OK;
      if (!keep) continue;
    } else if (margin_short(row, pl->min_margin)) {
      memest_error e;
      if (row->routing.has_margin) {
        memi_err_set(&e, MEMEST_E_LAYOUT, "min_routing_margin",
                "routing margin %.2f is below --min-routing-margin %g",
                row->routing.margin, pl->min_margin);
      } else {
        memi_err_set(&e, MEMEST_E_LAYOUT, "min_routing_margin",
                "out of memory %s, below --min-routing-margin %g",
                row->routing.applies ? "even with balanced routing" : "at ep 1",
                pl->min_margin);
      }
      rc = row_drop(pl, i, "routing margin below the minimum", &e, &keep, err);
      if (rc != MEMEST_OK) return rc;
      if (!keep) continue;
    }
    pl->rows[kept++] = *row;
  }
  pl->n_rows = kept;
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** The sweep: every combination (plan) or column (compare).
** ======================================================================= */
/* Combinations the plan tries, capped just above the limit. */
static int64_t combo_count(const memest_plan *pl) {
  int64_t n = pl->n_variants;
  int d;
  for (d = 0; d < D_COUNT; d++) {
    if (pl->dims[d].n > 1) n *= pl->dims[d].n;
    if (n > MEMEST_MAX_PLAN_ROWS) return MEMEST_MAX_PLAN_ROWS + 1;
  }
  return n;
}

static memest_code check_size(const memest_plan *pl, memest_error *err) {
  char sizes[200] = "";
  int d;
  size_t used;
  if (combo_count(pl) <= MEMEST_MAX_PLAN_ROWS) return MEMEST_OK;
  for (d = 0; d < D_COUNT; d++) {
    used = strlen(sizes);
    if (pl->dims[d].n > 1) {
      snprintf(sizes + used, sizeof sizes - used, "%s%s %d", used ? " x " : "", memi_plan_dim_name(d),
               pl->dims[d].n);
    }
  }
  return memi_err_set(err, MEMEST_E_LIMIT, "",
                 "this plan would try more than MEMEST_MAX_PLAN_ROWS = %d combinations (%s, %d "
                 "option variants); narrow it: give --pp-size, --ep-size, --cp-size or "
                 "--micro-batch-size one value or a shorter list",
                 MEMEST_MAX_PLAN_ROWS, sizes, pl->n_variants);
}

/* Plan and vary: an odometer over every list, option variants outermost. */
static memest_code sweep_product(sweep *sw, memest_error *err) {
  memest_plan *pl = sw->pl;
  int64_t k, n = combo_count(pl), rest;
  int64_t v[D_COUNT];
  int d;
  memest_code rc;
  for (k = 0; k < n; k++) {
    rest = k;
    for (d = D_COUNT - 1; d >= 0; d--) {
      const dim_list *l = &pl->dims[d];
      v[d] = l->n == 0 ? 0 : l->v[rest % l->n];
      rest = l->n == 0 ? rest : rest / l->n;
    }
    if ((rc = try_combo(sw, v, (int)rest, err)) != MEMEST_OK) return rc;
  }
  return MEMEST_OK;
}

/* Compare: column k takes the k-th value of every list of several values. */
static memest_code sweep_columns(sweep *sw, int cols, memest_error *err) {
  memest_plan *pl = sw->pl;
  int64_t v[D_COUNT];
  int k, d;
  memest_code rc;
  for (k = 0; k < cols; k++) {
    for (d = 0; d < D_COUNT; d++) {
      const dim_list *l = &pl->dims[d];
      v[d] = l->n == 0 ? 0 : l->v[l->n == 1 ? 0 : k];
    }
    if ((rc = try_combo(sw, v, pl->n_variants == 1 ? 0 : k, err)) != MEMEST_OK) return rc;
  }
  return MEMEST_OK;
}

/* After the rank class: the most headroom, the smallest bubble, the inputs. */
static int by_figures(const plan_row *x, const plan_row *y) {
  int d;
  if (x->headroom != y->headroom) return x->headroom > y->headroom ? -1 : 1;
  if (x->bubble != y->bubble) return x->bubble < y->bubble ? -1 : 1;
  for (d = 0; d < D_COUNT; d++) {
    if (x->in[d] != y->in[d]) return x->in[d] < y->in[d] ? -1 : 1;
  }
  return x->variant - y->variant;
}

/* A layouts plan's order by headroom: OK, TIGHT, then OOM rows, each with
** the layouts whose EP spans nodes after the others unless they are
** allowed; then the most headroom, the smallest bubble, the inputs. */
static int by_headroom(const void *a, const void *b) {
  const plan_row *x = a, *y = b;
  if (x->tier != y->tier) return x->tier - y->tier;
  return by_figures(x, y);
}

/* By throughput: the same rank classes, then the most tokens/s, then as
** by headroom; rows out of memory, which cannot run, by headroom alone (the
** closest to fitting first). */
static int by_throughput(const void *a, const void *b) {
  const plan_row *x = a, *y = b;
  if (x->tier != y->tier) return x->tier - y->tier;
  if (x->status != MEMEST_FITS_OOM && x->tokens_per_second != y->tokens_per_second) {
    return x->tokens_per_second > y->tokens_per_second ? -1 : 1;
  }
  return by_figures(x, y);
}

/* Whether x answers before y in a compare: the most tokens/s (by
** throughput), then the most headroom. */
static int compare_better(const memest_plan *pl, const plan_row *x, const plan_row *y) {
  if (pl->by_throughput && x->tokens_per_second != y->tokens_per_second) {
    return x->tokens_per_second > y->tokens_per_second;
  }
  return x->headroom > y->headroom;
}

/* Whether row r may answer: a vary plan takes OK rows; layouts and
** compare take rows that fit (OK or TIGHT). */
static int qualifies(const memest_plan *pl, const plan_row *r) {
  if (r->reason >= 0) return 0;
  if (pl->mode == MEMEST_PLAN_VARY) return r->status == MEMEST_FITS_OK;
  return r->status != MEMEST_FITS_OOM;
}

/* The answer among the rows of rank class tier that qualify: the first
** row of a layouts plan (sorted), the best of a compare by the objective,
** the first or last of a vary plan; -1 for none. */
static int answer_among(const memest_plan *pl, int tier) {
  int i, best = -1;
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    if (!qualifies(pl, r) || r->tier != tier) continue;
    if (pl->mode == MEMEST_PLAN_LAYOUTS) return i;
    if (pl->mode == MEMEST_PLAN_COMPARE) {
      if (best < 0 || compare_better(pl, r, &pl->rows[best])) best = i;
    } else if (best < 0 || pl->vary_largest) {
      best = i;
    }
  }
  return best;
}

/* Whether the rows answer by throughput: the objective asks for it and
** some estimated row has a time (those without one, tokens/s 0, rank after
** those with one, and the plan counts them); asked for when no row has one
** (no GPU kind), headroom answers and the plan says so (fallback). A vary
** plan's answer is its smallest or largest OK value whatever the objective. */
static void settle_objective(memest_plan *pl) {
  int i, timed = 0, estimated = 0;
  int asked = pl->objective == MEMEST_OBJECTIVE_THROUGHPUT && pl->mode != MEMEST_PLAN_VARY;
  pl->untimed = 0;
  for (i = 0; i < pl->n_rows; i++) {
    if (pl->rows[i].reason >= 0) continue;
    estimated++;
    if (pl->rows[i].time_known) timed++;
    else pl->untimed++;
  }
  pl->by_throughput = asked && (timed > 0 || estimated == 0);
  pl->fallback = asked && !pl->by_throughput;
}

/* Sorts a layouts plan by its objective and picks the answer from the best
** rank class that has one: OK before TIGHT and, unless allowed, a layout
** whose EP spans nodes after those of its status that keep it inside a
** node. With no answer, the closest row is the estimated one with the most
** headroom. */
static void choose_answer(memest_plan *pl) {
  int i, tier, avoid = pl->ep_nodes == MEMEST_EP_NODES_AVOID;
  for (i = 0; i < pl->n_rows; i++) {
    plan_row *r = &pl->rows[i];
    r->tier = 2 * (r->status == MEMEST_FITS_OK ? 0 : r->status == MEMEST_FITS_TIGHT ? 1 : 2) +
              (avoid && r->ep_across);
  }
  settle_objective(pl);
  if (pl->mode == MEMEST_PLAN_LAYOUTS) {
    qsort(pl->rows, (size_t)pl->n_rows, sizeof pl->rows[0],
          pl->by_throughput ? by_throughput : by_headroom);
  }
  pl->answer = -1;
  for (tier = 0; tier < 4 && pl->answer < 0; tier++) pl->answer = answer_among(pl, tier);
  pl->closest = -1;
  for (i = 0; i < pl->n_rows && pl->answer < 0; i++) {
    const plan_row *r = &pl->rows[i];
    if (r->reason < 0 && (pl->closest < 0 || r->headroom > pl->rows[pl->closest].headroom)) {
      pl->closest = i;
    }
  }
}
/* }====================================================================== */

/* {======================================================================
** Entry points.
** ======================================================================= */
static memest_code load_config(const char *config, size_t len, const memest_params *base,
                               model_config *mc, memest_error *err) {
  const char *text = config;
  if (text == NULL) {
    text = memest_model_preset_config(base->model);
    if (text == NULL) {
      return memi_err_set(err, MEMEST_E_UNKNOWN, "model",
                     "unknown model preset '%.100s'; see memest --list-models, or give a "
                     "config.json",
                     base->model);
    }
    len = strlen(text);
  }
  return memi_cfg_parse(text, len, mc, err);
}

/* The checking pass: every combination (plan) or column (compare). */
static memest_code plan_check(memest_plan *pl, int cols, memest_error *err) {
  sweep sw;
  memset(&sw, 0, sizeof sw);
  sw.mc = pl->mc;
  sw.pl = pl;
  if (pl->mode == MEMEST_PLAN_VARY || compares_schedules(pl)) {
    pl->notes = malloc((size_t)((compares_schedules(pl) ? cols : pl->dims[pl->vary].n) + 1) *
                       sizeof *pl->notes);
    if (pl->notes == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan");
  }
  return pl->mode == MEMEST_PLAN_COMPARE ? sweep_columns(&sw, cols, err) : sweep_product(&sw, err);
}

/* A new plan with room for its config, or NULL (err set). */
static memest_plan *plan_new(memest_error *err) {
  memest_plan *pl = calloc(1, sizeof *pl);
  if (pl != NULL) pl->mc = malloc(sizeof *pl->mc);
  if (pl == NULL || pl->mc == NULL) {
    free(pl);
    memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan");
    return NULL;
  }
  return pl;
}

/* Begins prepared plan pl on its parsed config: the swept values, the
** option variants and every combination checked; frees pl on failure. */
static memest_code plan_sweep(memest_plan *pl, const memest_plan_request *req, int cols,
                              memest_plan **out, memest_error *err) {
  memest_code rc;
  snprintf(pl->model_title, sizeof pl->model_title, "%s", pl->mc->arch->title);
  pl->layers = pl->mc->layers;
  pl->experts = pl->mc->experts;
  dims_build(pl, req, pl->mc);
  rc = memi_plan_variants(pl, req, cols, err);
  if (rc == MEMEST_OK) rc = check_size(pl, err);
  if (rc == MEMEST_OK) rc = plan_check(pl, cols, err);
  if (rc != MEMEST_OK) {
    memest_plan_free(pl);
    return rc;
  }
  *out = pl;
  return MEMEST_OK;
}

memest_code memest_plan_begin(const char *config, size_t config_len,
                              const memest_plan_request *req, memest_plan **out,
                              memest_error *err) {
  memest_plan *pl;
  memest_code rc;
  int cols = 0;
  memi_err_clear(err);
  if (req == NULL || out == NULL) return memi_err_set(err, MEMEST_E_VALUE, "", "no plan request given");
  *out = NULL;
  if ((pl = plan_new(err)) == NULL) return MEMEST_E_NOMEM;
  rc = memi_plan_prepare(pl, req, &cols, err);
  if (rc == MEMEST_OK) rc = load_config(config, config_len, &req->base, pl->mc, err);
  if (rc == MEMEST_OK) memi_model_source_settle(&pl->base, config == NULL);
  if (rc != MEMEST_OK) {
    memest_plan_free(pl);
    return rc;
  }
  return plan_sweep(pl, req, cols, out, err);
}

memest_code memi_plan_run_parsed(const model_config *mc, const memest_plan_request *req,
                                 est_cache *cache, int bare, memest_plan **out,
                                 memest_error *err) {
  memest_plan *pl;
  memest_code rc;
  int cols = 0;
  *out = NULL;
  if ((pl = plan_new(err)) == NULL) return MEMEST_E_NOMEM;
  *pl->mc = *mc;
  pl->cache = cache;
  pl->cache_borrowed = cache != NULL;
  pl->bare = bare;
  rc = memi_plan_prepare(pl, req, &cols, err);
  if (rc != MEMEST_OK) {
    memest_plan_free(pl);
    return rc;
  }
  rc = plan_sweep(pl, req, cols, out, err);
  if (rc == MEMEST_OK) rc = memi_plan_conclude(*out, err);
  if (rc == MEMEST_OK) memi_plan_release(*out);
  if (rc != MEMEST_OK && *out != NULL) {
    memest_plan_free(*out);
    *out = NULL;
  }
  return rc;
}

static memest_code refuse_finished(const memest_plan *plan, memest_error *err) {
  if (plan == NULL) return memi_err_set(err, MEMEST_E_VALUE, "", "no plan given");
  if (plan->finished) {
    return memi_err_set(err, MEMEST_E_VALUE, "",
                   "the plan is finished; begin a new one to estimate rows again");
  }
  return MEMEST_OK;
}

memest_code memest_plan_estimate_rows(memest_plan *plan, int from, int to, memest_error *err) {
  memest_code rc;
  memi_err_clear(err);
  if ((rc = refuse_finished(plan, err)) != MEMEST_OK) return rc;
  if (from < 0 || to < from || to > plan->n_rows) {
    return memi_err_set(err, MEMEST_E_VALUE, "",
                   "rows [%d, %d) are not a range of the plan's %d rows; give 0 <= from <= to "
                   "<= the row count",
                   from, to, plan->n_rows);
  }
  return memi_plan_estimate(plan, plan->mc, from, to, err);
}

memest_code memi_plan_conclude(memest_plan *plan, memest_error *err) {
  memest_code rc;
  if ((rc = refuse_finished(plan, err)) != MEMEST_OK) return rc;
  rc = memi_plan_estimate(plan, plan->mc, 0, plan->n_rows, err);
  if (rc == MEMEST_OK) rc = settle(plan, err);
  if (rc != MEMEST_OK) return rc;
  choose_answer(plan);
  plan->expert_share =
      plan->n_rows > 0 ? memi_plan_expert_share(plan->mc, plan->rows[0].in[D_SEQ]) : 0.0;
  return MEMEST_OK;
}

void memi_plan_release(memest_plan *plan) {
  free(plan->mc);
  plan->mc = NULL;
  if (!plan->cache_borrowed) memi_est_cache_free(plan->cache);
  plan->cache = NULL;
  plan->finished = 1;
}

int memest_plan_row_count(const memest_plan *plan) { return plan != NULL ? plan->n_rows : 0; }
int memest_plan_answer(const memest_plan *plan) {
  return plan != NULL && plan->finished ? plan->answer : -1;
}

void memest_plan_free(memest_plan *plan) {
  int i;
  if (plan == NULL) return;
  for (i = 0; i < plan->n_rows; i++) free(plan->rows[i].fail_err);
  free(plan->mc);
  if (!plan->cache_borrowed) memi_est_cache_free(plan->cache);
  free(plan->rows);
  free(plan->notes);
  free(plan->variants);
  free(plan);
}
/* }====================================================================== */
