/*
** routing.c — how tokens spread over the expert-parallel ranks (spec §4.1,
** docs/model.md "Routing"): the routed, grouped-GEMM and dedup rows of the
** measured, balanced and factor modes, the physical cap of the routing
** factor, and the margin: the largest factor at which a layout still fits,
** found by re-estimating the same inputs in the factor mode.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routing.h"
#include "sim.h"

/* The margin is found to this relative precision. */
#define ROUTING_MARGIN_TOLERANCE 0.001

double routing_cap(int64_t experts, int64_t top_k, int64_t ep) {
  double per = top_k > 0 ? (double)experts / (double)top_k : 1.0;
  if (ep < 1) return 1.0;
  return per < (double)ep ? per : (double)ep;
}

double routing_factor_of(const memest_params *p) {
  if (p->routing == MEMEST_ROUTING_FACTOR) return p->routing_factor;
  if (p->routing == MEMEST_ROUTING_BALANCED) return 1.0;
  return (double)CHOICE_ROUTING_FACTOR_NUM / CHOICE_ROUTING_FACTOR_DEN * p->ep_imbalance;
}

/* E[dedup rows sent] = m*ep*(1 - C(E-El, k)/C(E, k)) (spec §4.1). */
static double dedup_fraction(int64_t experts, int64_t e_loc, int64_t k) {
  double ratio = 1.0;
  int64_t i;
  if (experts - e_loc < k) return 1.0;
  for (i = 0; i < k; i++) ratio *= (double)(experts - e_loc - i) / (double)(experts - i);
  return 1.0 - ratio;
}

/* {======================================================================
** Balanced routing: the trainer's benchmark mode (force_balance) rewrites
** token t's j-th choice to expert (t + j*(E//k)) mod E on every rank, with t
** the rank's own token index 0..m-1. The k choices of a token are distinct
** (j*(E//k) < E), every EP peer sends the same pattern, and so expert e
** receives ep * (k*(m div E) + #{j : (e - j*(E//k)) mod E < m mod E}) rows.
** ======================================================================= */
static int64_t expert_of(int64_t t, int64_t j, int64_t stride, int64_t experts) {
  return (t + j * stride) % experts;
}

/* The EP ranks (a bit each; ep <= 32) that token residue t's choices reach. */
static uint32_t ranks_of(int64_t t, const run_dims *d, int64_t stride, int64_t experts) {
  uint32_t set = 0;
  int64_t j;
  for (j = 0; j < d->top_k; j++) {
    set |= 1u << (expert_of(t, j, stride, experts) / d->e_loc);
  }
  return set;
}

static int popcount32(uint32_t x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

static void balanced_tokens(int64_t experts, run_dims *d) {
  int *o = &d->ovf;
  int64_t k = d->top_k, ep = d->ep, stride = experts / k;
  int64_t q = d->m / experts, rem = d->m % experts;
  int64_t best_n = -1, best_m = 0, best_r = 0, r, e, j, t, ds = 0, dr = 0;
  for (r = 0; r < ep; r++) {
    int64_t n = 0, ma = 0;
    for (e = r * d->e_loc; e < (r + 1) * d->e_loc; e++) {
      int64_t hits = 0, c;
      for (j = 0; j < k; j++) {
        if ((((e - j * stride) % experts) + experts) % experts < rem) hits++;
      }
      c = ck_mul(o, ep, ck_add(o, ck_mul(o, k, q), hits));
      n = ck_add(o, n, c);
      ma = ck_add(o, ma, round_up(c, 128));
    }
    if (n > best_n || (n == best_n && ma > best_m)) {
      best_n = n;
      best_m = ma;
      best_r = r;
    }
  }
  for (t = 0; t < experts && t < d->m; t++) {
    int64_t count = q + (t < rem);
    uint32_t set = ranks_of(t, d, stride, experts);
    ds = ck_add(o, ds, ck_mul(o, count, popcount32(set)));
    if ((set >> best_r) & 1u) dr = ck_add(o, dr, count);
  }
  d->n_in = best_n;
  d->m_act = best_m;
  d->d_s = ep > 1 ? ds : 0;
  d->d_r = ep > 1 ? ck_mul(o, ep, dr) : 0;
}
/* }====================================================================== */

void routing_tokens(int64_t experts, const memest_params *p, run_dims *d) {
  int *o = &d->ovf;
  int64_t mk = ck_mul(o, d->m, d->top_k);
  if (experts > 0 && d->top_k > 0 && p->routing == MEMEST_ROUTING_BALANCED &&
      d->ep <= MEMEST_MAX_EP) {
    balanced_tokens(experts, d);
    d->routing_milli = mk > 0 ? (int64_t)llround((double)d->n_in / (double)mk * 1000.0) : 1000;
    return;
  }
  if (d->ep > 1) {
    double f = routing_factor_of(p);
    double ds = (double)d->m * (double)d->ep * dedup_fraction(experts, d->e_loc, d->top_k);
    int64_t per = d->top_k < d->e_loc ? d->top_k : d->e_loc;
    int64_t cap = ck_mul(o, ck_mul(o, d->m, d->ep), per);
    d->routing_milli = (int64_t)llround(f * 1000.0);
    d->n_in = (int64_t)ceil((double)mk * f);
    if (d->n_in > cap) d->n_in = cap;
    d->d_s = (int64_t)llround(ds);
    d->d_r = (int64_t)llround(ds * f);
    if (d->d_r > d->n_in) d->d_r = d->n_in;
  } else {
    d->routing_milli = 1000;
    d->n_in = mk;
    d->d_s = d->d_r = 0;
  }
  d->m_act = round_up(ck_add(o, d->n_in, ck_mul(o, CHOICE_GROUP_PAD_ROWS, d->e_loc)), 128);
}

/* {======================================================================
** The margin. The peak never falls as the factor rises (every row count
** is non-decreasing in it), so "fits" is one interval [1, margin]; each
** probe is one estimate without advice of the same inputs in the factor
** mode. Interpolation on the grand total narrows the bracket, a probe one
** tolerance step beyond each new end usually closes it, and bisection
** steps in whenever a round does not halve it.
** ======================================================================= */
typedef struct probe {
  const model_config *mc;
  memest_params p;
  memest_result *r;
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
  rc = est_run(pb->mc, &q, pb->r, 0, err);
  if (rc != MEMEST_OK) return rc;
  *excess = pb->r->peak - pb->r->capacity;
  est_release(pb->r);
  return MEMEST_OK;
}

/* Narrows [lo, hi] (lo fits, hi does not) to the tolerance. */
static memest_code narrow(probe *pb, double *lo, int64_t *g_lo, double *hi, int64_t *g_hi,
                          memest_error *err) {
  const double tol = 1.0 + ROUTING_MARGIN_TOLERANCE;
  int round;
  for (round = 0; round < 64 && *hi > *lo * tol; round++) {
    double width = *hi - *lo, f, side;
    int64_t g;
    memest_code rc;
    double span = (double)*g_hi - (double)*g_lo;
    f = span > 0.0 ? *lo + width * (-(double)*g_lo) / span : 0.5 * (*lo + *hi);
    if (f < *lo * (1.0 + 0.5 * ROUTING_MARGIN_TOLERANCE)) f = *lo * (1.0 + 0.5 * ROUTING_MARGIN_TOLERANCE);
    if (f > *hi / (1.0 + 0.5 * ROUTING_MARGIN_TOLERANCE)) f = *hi / (1.0 + 0.5 * ROUTING_MARGIN_TOLERANCE);
    if ((rc = probe_at(pb, f, &g, err))) return rc;
    if (g <= 0) {
      *lo = f;
      *g_lo = g;
      side = f * tol;
    } else {
      *hi = f;
      *g_hi = g;
      side = f / tol;
    }
    if (side > *lo && side < *hi && *hi > *lo * tol) {
      if ((rc = probe_at(pb, side, &g, err))) return rc;
      if (g <= 0) {
        *lo = side;
        *g_lo = g;
      } else {
        *hi = side;
        *g_hi = g;
      }
    }
    if (*hi - *lo > 0.5 * width && *hi > *lo * tol) {
      f = 0.5 * (*lo + *hi);
      if ((rc = probe_at(pb, f, &g, err))) return rc;
      if (g <= 0) {
        *lo = f;
        *g_lo = g;
      } else {
        *hi = f;
        *g_hi = g;
      }
    }
  }
  return MEMEST_OK;
}

memest_code routing_margin(const model_config *mc, const memest_params *p, const run_dims *d,
                           memest_status status, memest_routing_info *out, memest_error *err) {
  probe pb;
  double f0 = routing_factor_of(p), lo = 1.0, hi;
  int64_t g_lo, g_hi, g;
  memest_code rc = MEMEST_OK;
  memset(out, 0, sizeof *out);
  out->mode = p->routing;
  out->applies = d->ep > 1 && mc->experts > 0;
  out->cap = out->applies ? routing_cap(mc->experts, mc->top_k, d->ep) : 1.0;
  out->factor = p->routing == MEMEST_ROUTING_BALANCED || !out->applies
                    ? (d->m * d->top_k > 0 ? (double)d->n_in / (double)(d->m * d->top_k) : 1.0)
                    : (f0 < out->cap ? f0 : out->cap);
  if (!out->applies) return MEMEST_OK;
  memset(&pb, 0, sizeof pb);
  pb.mc = mc;
  pb.p = *p;
  pb.p.timeline = 0;
  pb.p.detail = 0;
  pb.r = malloc(sizeof *pb.r);
  if (pb.r == NULL) return err_set(err, MEMEST_E_NOMEM, "", "out of memory for the routing margin");
  hi = out->cap;
  /* No margin when even the trainer's balanced routing does not fit. */
  if (p->routing == MEMEST_ROUTING_BALANCED) g = status == MEMEST_FITS_OOM;
  else rc = probe_at(&pb, 0.0, &g, err);
  if (rc == MEMEST_OK && g <= 0) {
    rc = probe_at(&pb, hi, &g_hi, err);
    if (rc == MEMEST_OK && g_hi <= 0) {
      out->has_margin = 1;
      out->margin = hi;
      out->margin_is_limit = 1;
    } else if (rc == MEMEST_OK) {
      rc = probe_at(&pb, lo, &g_lo, err);
      if (rc == MEMEST_OK && g_lo > 0) {
        out->has_margin = 1;   /* only perfectly even routing fits */
        out->margin = 1.0;
      } else if (rc == MEMEST_OK) {
        /* The estimate's own factor is a free first probe. */
        if (p->routing != MEMEST_ROUTING_BALANCED && f0 > lo && f0 < hi) {
          rc = probe_at(&pb, f0, &g, err);
          if (rc == MEMEST_OK && g <= 0) {
            lo = f0;
            g_lo = g;
          } else if (rc == MEMEST_OK) {
            hi = f0;
            g_hi = g;
          }
        }
        if (rc == MEMEST_OK) rc = narrow(&pb, &lo, &g_lo, &hi, &g_hi, err);
        if (rc == MEMEST_OK) {
          out->has_margin = 1;
          out->margin = lo;
        }
      }
    }
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
  memest_error first;
  memest_code rc = MEMEST_OK;
  int i;
  err_clear(err);
  if (p == NULL || (n > 0 && (factors == NULL || peaks == NULL)) || n < 0) {
    return err_set(err, MEMEST_E_VALUE, "", "no parameters, factors or peaks given");
  }
  if (layout_problems(NULL, p, &first, 1) > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  if (text == NULL) {
    text = memest_model_preset_config(p->model);
    if (text == NULL) {
      return err_set(err, MEMEST_E_UNKNOWN, "model",
                     "unknown model preset '%.100s'; run memest --list-models, or give a "
                     "config.json", p->model);
    }
    len = strlen(text);
  }
  mc = malloc(sizeof *mc);
  r = malloc(sizeof *r);
  if (mc == NULL || r == NULL) {
    free(mc);
    free(r);
    return err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  rc = cfg_parse(text, len, mc, err);
  for (i = 0; rc == MEMEST_OK && i < n; i++) {
    memest_params q = *p;
    q.routing = MEMEST_ROUTING_FACTOR;
    q.routing_factor = factors[i];
    q.given |= 1u << MEMEST_P_ROUTING_FACTOR;
    q.given &= ~(1u << MEMEST_P_ROUTING);
    q.ep_imbalance = 1.0;
    q.timeline = 0;
    q.detail = 0;
    rc = est_run(mc, &q, r, 0, err);
    if (rc == MEMEST_OK) {
      peaks[i] = (uint64_t)r->peak;
      est_release(r);
    }
  }
  free(mc);
  free(r);
  return rc;
}
/* }====================================================================== */
