/*
** routing_margin.c — the margin: the largest routing factor at which a
** layout still fits (OK or TIGHT), found by re-estimating the same inputs in
** the factor mode (docs/model.md "Routing"); and the public calls built on
** it: a result's routing and peaks along the factor axis. It sits above the
** estimate; the row counts it varies are routing.c's.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/routing_margin.h"

/* {======================================================================
** The margin. The peak never falls as the factor rises (every row count
** is non-decreasing in it), so "fits" is one interval [1, margin]; each
** probe is one estimate without advice of the same inputs in the factor
** mode. A secant from the estimate's own factor finds the upper end; then
** the line through the bracket's ends (false position, the Illinois rule
** against a stalled end) narrows it, each probe moving an end by a step at
** least, to one step.
** ======================================================================= */
typedef struct probe {
  const model_config *mc;
  memest_params p;
  memest_result *r;
  int64_t rank;              /* simulate only this pipeline rank; -1: every rank */
  int64_t worst;             /* the worst rank of the last probe */
  int64_t grid;              /* the margin's steps per unit of factor */
  est_cache *cache;          /* layer programs shared by the probes, or NULL */
} probe;

/* Estimates at factor f (or balanced when f <= 0): *excess = peak - capacity. */
static memest_code probe_at(probe *pb, double f, int64_t *excess, memest_error *err) {
  memest_params q = pb->p;
  memest_code rc;
  if (f > 0.0) {
    q.routing = MEMEST_ROUTING_FACTOR;
    q.routing_factor = f;
    q.given |= 1u << MEMEST_P_ROUTING_FACTOR;
    q.given &= ~(1u << MEMEST_P_ROUTING);
    q.ep_imbalance = 1.0;
  } else {
    q.routing = MEMEST_ROUTING_BALANCED;
    q.given |= 1u << MEMEST_P_ROUTING;
    q.given &= ~(1u << MEMEST_P_ROUTING_FACTOR);
    q.ep_imbalance = 1.0;
  }
  if (pb->rank >= 0) q.pp_rank = pb->rank;
  rc = memi_est_run(pb->mc, &q, pb->r, pb->cache, err);
  if (rc != MEMEST_OK) return rc;
  *excess = pb->r->peak - pb->r->capacity;
  pb->worst = pb->r->ranks[pb->r->worst].rank;
  memi_est_release(pb->r);
  return MEMEST_OK;
}

/* The search state: the bracket in thousandths of a factor [lo, hi] (lo
** fits; hi does not, or is just above the unprobed cap while hi_known is
** 0) with the excess at each end, and the two latest probes for a secant.
** The margin is the largest thousandth that fits, whatever path the search
** took. */
typedef struct bracket {
  int64_t grid;              /* steps per unit of factor: 1000 or 100 */
  int64_t lo, hi;
  int64_t g_lo, g_hi;        /* the excess at lo and at hi (halved while the other end moves) */
  int hi_known;
  int moved;                 /* the end the last probe moved: -1 lo, 1 hi, 0 none */
  double f[2];
  int64_t g[2];
  int n;
} bracket;

static void bracket_add(bracket *b, double f, int64_t g) {
  double at = f * (double)b->grid;
  /* A probe on the grid (t / grid) counts as step t, not as t - 1 plus an
  ** ulp: floor(2.014 * 1000) is 2013. */
  if (fabs(at - (double)llround(at)) < 1e-6) at = (double)llround(at);
  /* An end that stays while the other moves twice has its excess halved
  ** (the Illinois rule): the peak rises in stairs, and a line through a
  ** stair's edge would otherwise creep toward the root one step a probe. */
  if (g <= 0 && (int64_t)floor(at) > b->lo) {
    b->lo = (int64_t)floor(at);
    b->g_lo = g;
    if (b->moved == -1) b->g_hi /= 2;
    b->moved = -1;
  }
  if (g > 0 && (!b->hi_known || (int64_t)ceil(at) < b->hi)) {
    b->hi = (int64_t)ceil(at);
    b->g_hi = g;
    if (b->moved == 1 && b->hi_known) b->g_lo /= 2;
    b->moved = 1;
    b->hi_known = 1;
  }
  b->f[1] = b->f[0];
  b->g[1] = b->g[0];
  b->f[0] = f;
  b->g[0] = g;
  if (b->n < 2) b->n++;
}

/* The next thousandth to try. While the upper end is unknown: the secant
** through the two latest probes, aimed half a step past its root, if below
** the cap; else the cap itself. Then the line through the bracket's ends,
** where it falls inside; else the middle. */
static double bracket_next(const bracket *b, double cap) {
  double f = -1.0;
  int64_t t;
  if (b->n == 1) return b->f[0] > 1.0 ? 1.0 : (b->f[0] * 2.0 < cap ? b->f[0] * 2.0 : cap);
  if (b->n == 2 && b->g[0] != b->g[1] && b->f[0] != b->f[1]) {
    f = b->f[0] - (double)b->g[0] * (b->f[0] - b->f[1]) / (double)(b->g[0] - b->g[1]);
    f = f * (double)b->grid + (b->g[0] <= 0 ? 0.5 : -0.5);
  }
  if (!b->hi_known) {
    /* Upward from the fitting probes: the secant's root if below the cap. */
    if (f > (double)b->lo && f < cap * (double)b->grid) {
      return (double)(int64_t)llround(f) / (double)b->grid;
    }
    return cap;
  }
  /* Both ends known: the line through them (false position), aimed at the
  ** last step below its root. */
  if (b->g_hi > b->g_lo) {
    f = floor((double)b->lo + (double)(b->hi - b->lo) * -(double)b->g_lo /
                                  ((double)b->g_hi - (double)b->g_lo));
  }
  t = f > (double)b->lo && f < (double)b->hi ? (int64_t)llround(f) : (b->lo + b->hi) / 2;
  if (t <= b->lo) t = b->lo + 1;
  if (t >= b->hi) t = b->hi - 1;
  return (double)t / (double)b->grid;
}

/* Narrows the bracket to one thousandth; stops at once if the cap fits
** (*cap_fits). */
static memest_code narrow(probe *pb, bracket *b, double cap, int *cap_fits, memest_error *err) {
  int round;
  for (round = 0; round < 64 && (!b->hi_known || b->hi - b->lo > 1); round++) {
    double f = bracket_next(b, cap);
    int64_t g;
    memest_code rc;
    if ((rc = probe_at(pb, f, &g, err))) return rc;
    bracket_add(b, f, g);
    if (!b->hi_known && f >= cap) {
      *cap_fits = 1;
      break;
    }
  }
  return MEMEST_OK;
}

/* What one search found: the margin in thousandths, whether the cap fits,
** and whether the margin of 1 rests on the balanced mode. */
typedef struct found {
  int has_margin, cap_fits, by_balanced;
  int64_t lo;
} found;

/* Searches the margin with every probe on pb->rank (or every rank). The
** estimate's own factor f0 (excess, from every rank) seeds the bracket. */
static memest_code search(probe *pb, const memest_params *p, double f0, int64_t excess,
                          double cap, found *fd, memest_error *err) {
  bracket b;
  int64_t g;
  memest_code rc = MEMEST_OK;
  memset(&b, 0, sizeof b);
  memset(fd, 0, sizeof *fd);
  b.grid = pb->grid;
  if (p->routing != MEMEST_ROUTING_BALANCED) bracket_add(&b, f0, excess);
  if (b.lo < b.grid) {
    /* Out of memory at its own factor: no margin unless balanced routing
    ** fits, and a margin of 1 if it does but uniform rows do not. */
    if (p->routing == MEMEST_ROUTING_BALANCED) g = excess;
    else if ((rc = probe_at(pb, 0.0, &g, err))) return rc;
    if (g > 0) return MEMEST_OK;
    if ((rc = probe_at(pb, 1.0, &g, err))) return rc;
    bracket_add(&b, 1.0, g);
    if (g > 0) {
      fd->has_margin = fd->by_balanced = 1;
      fd->lo = b.grid;
      return MEMEST_OK;
    }
  }
  fd->cap_fits = b.f[0] >= cap && b.g[0] <= 0;
  if (!fd->cap_fits) rc = narrow(pb, &b, cap, &fd->cap_fits, err);
  fd->has_margin = 1;
  fd->lo = b.lo;
  return rc;
}

memest_code memi_routing_margin(const model_config *mc, const memest_params *p, const run_dims *d,
                           int64_t excess, int64_t worst, int64_t grid, est_cache *cache,
                           memest_routing_info *out, memest_error *err) {
  probe pb;
  found fd;
  double f0 = memi_routing_factor_of(p);
  int64_t g = 0;
  int tries;
  memest_code rc;
  memset(out, 0, sizeof *out);
  out->mode = p->routing;
  out->applies = d->ep > 1 && mc->experts > 0;
  out->cap = out->applies ? memi_routing_cap(mc->experts, mc->top_k, d->ep) : 1.0;
  out->factor = p->routing == MEMEST_ROUTING_BALANCED || !out->applies
                    ? (d->m * d->top_k > 0 ? (double)d->n_in / (double)(d->m * d->top_k) : 1.0)
                    : (f0 < out->cap ? f0 : out->cap);
  if (!out->applies) return MEMEST_OK;
  memset(&pb, 0, sizeof pb);
  pb.mc = mc;
  pb.p = *p;
  pb.p.timeline = 0;
  pb.p.detail = 0;
  pb.rank = p->pp_rank < 0 && d->pp > 1 ? worst : -1;
  pb.grid = grid;
  pb.cache = cache;
  pb.r = malloc(sizeof *pb.r);
  if (pb.r == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the routing margin");
  /* On one rank a probe costs 1/pp of one on every rank. "Does not fit"
  ** there holds for the layout; "fits" is checked once on every rank. If
  ** another rank fails that check, the search moves to it; after pp moves
  ** it runs on every rank. */
  rc = search(&pb, p, out->factor, excess, out->cap, &fd, err);
  for (tries = 0; rc == MEMEST_OK && pb.rank >= 0 && fd.has_margin; tries++) {
    double m = fd.cap_fits ? out->cap : (double)fd.lo / (double)pb.grid;
    int proven = !fd.by_balanced && !fd.cap_fits && p->routing != MEMEST_ROUTING_BALANCED &&
                 excess <= 0 && fd.lo == (int64_t)floor(out->factor * (double)pb.grid);
    if (proven) break;
    pb.rank = -1;
    rc = probe_at(&pb, fd.by_balanced ? 0.0 : m, &g, err);
    if (rc != MEMEST_OK || g <= 0) break;
    pb.rank = tries + 1 < d->pp ? pb.worst : -1;
    rc = search(&pb, p, out->factor, excess, out->cap, &fd, err);
  }
  if (rc == MEMEST_OK && fd.has_margin) {
    out->has_margin = 1;
    out->margin_is_limit = fd.cap_fits;
    out->margin = fd.cap_fits ? out->cap : (double)fd.lo / (double)pb.grid;
  }
  free(pb.r);
  return rc;
}
/* }====================================================================== */

/* {======================================================================
** Public: a result's routing, and peaks along the factor axis.
** ======================================================================= */
void memest_result_routing(const memest_result *r, memest_routing_info *out) {
  *out = r->routing;
}

memest_code memest_routing_peaks(const char *config, size_t config_len, const memest_params *p,
                                 const double *factors, int n, uint64_t *peaks,
                                 memest_error *err) {
  const char *text = config;
  size_t len = config_len;
  model_config *mc;
  memest_result *r;
  est_cache *cache;
  memest_error first;
  memest_code rc = MEMEST_OK;
  int i;
  memi_err_clear(err);
  if (p == NULL || (n > 0 && (factors == NULL || peaks == NULL)) || n < 0) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "no parameters, factors or peaks given");
  }
  if (memi_layout_problems(NULL, p, &first, 1) > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  if (text == NULL) {
    text = memest_model_preset_config(p->model);
    if (text == NULL) {
      return memi_err_set(err, MEMEST_E_UNKNOWN, "model",
                     "unknown model preset '%.100s'; run memest --list-models, or give a "
                     "config.json", p->model);
    }
    len = strlen(text);
  }
  mc = malloc(sizeof *mc);
  r = malloc(sizeof *r);
  cache = memi_est_cache_new();
  if (mc == NULL || r == NULL || cache == NULL) {
    free(mc);
    free(r);
    memi_est_cache_free(cache);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  rc = memi_cfg_parse(text, len, mc, err);
  for (i = 0; rc == MEMEST_OK && i < n; i++) {
    memest_params q = *p;
    q.routing = MEMEST_ROUTING_FACTOR;
    q.routing_factor = factors[i];
    q.given |= 1u << MEMEST_P_ROUTING_FACTOR;
    q.given &= ~(1u << MEMEST_P_ROUTING);
    q.ep_imbalance = 1.0;
    q.timeline = 0;
    q.detail = 0;
    rc = memi_est_run(mc, &q, r, cache, err);
    if (rc == MEMEST_OK) {
      peaks[i] = (uint64_t)r->peak;
      memi_est_release(r);
    }
  }
  free(mc);
  free(r);
  memi_est_cache_free(cache);
  return rc;
}
/* }====================================================================== */
