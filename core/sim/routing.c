/*
** routing.c — how tokens spread over the expert-parallel ranks (memory-model.md §4.1,
** docs/model.md "Routing"): the routed, grouped-GEMM and dedup rows of the
** measured, balanced and factor modes, and the physical cap of the routing
** factor. The layout calls it; the margin search built on top of the
** estimate is routing_margin.c.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/routing.h"

double memi_routing_cap(int64_t experts, int64_t top_k, int64_t ep) {
  double per = top_k > 0 ? (double)experts / (double)top_k : 1.0;
  if (ep < 1) return 1.0;
  return per < (double)ep ? per : (double)ep;
}

double memi_routing_factor_of(const memest_params *p) {
  if (p->routing == MEMEST_ROUTING_FACTOR) return p->routing_factor;
  if (p->routing == MEMEST_ROUTING_BALANCED) return 1.0;
  return (double)CHOICE_ROUTING_FACTOR_NUM / CHOICE_ROUTING_FACTOR_DEN * p->ep_imbalance;
}

/* E[dedup rows sent] = m*ep*(1 - C(E-El, k)/C(E, k)) (memory-model.md §4.1). */
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

void memi_routing_tokens(int64_t experts, const memest_params *p, run_dims *d) {
  int *o = &d->ovf;
  int64_t mk = ck_mul(o, d->m, d->top_k);
  if (experts > 0 && d->top_k > 0 && p->routing == MEMEST_ROUTING_BALANCED &&
      d->ep <= MEMEST_MAX_EP) {
    balanced_tokens(experts, d);
    d->routing_milli = mk > 0 ? (int64_t)llround((double)d->n_in / (double)mk * 1000.0) : 1000;
    return;
  }
  if (d->ep > 1) {
    double f = memi_routing_factor_of(p);
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
