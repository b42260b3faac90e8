/*
** test_routing.c — routing skew: the balanced mode's rows worked by hand,
** the factor mode and its physical cap, the margin (fits at it, not 0.5%
** above, null when even balanced routing is out of memory, the cap when the
** layout fits there), peaks that never fall as the factor rises, and the
** routing inputs' errors.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan/plan.h"
#include "sim/routing.h"

static run_dims dims(int64_t m, int64_t k, int64_t ep, int64_t experts) {
  run_dims d;
  memset(&d, 0, sizeof d);
  d.m = m;
  d.top_k = k;
  d.ep = ep;
  d.e_loc = experts / ep;
  return d;
}

static memest_params balanced(void) {
  memest_params p;
  memest_params_init(&p);
  p.routing = MEMEST_ROUTING_BALANCED;
  return p;
}

/* Qwen3-30B-A3B at ep 8, m = 4096 (E = 128 divides m): token t's j-th
** choice is (t + 16j) mod 128, so each expert gets 4096*8/128 = 256 rows
** from each of the 8 peers, 2,048 in all, a multiple of 128: the 16 local
** experts receive 16 x 2,048 = 32,768 = m*k rows and the grouped GEMM has no
** padding. The 8 choices sit 16 experts apart, one per rank, so the dedup
** dispatch sends m*k = 32,768 rows and every rank receives as many. */
static void test_balanced_divisible(void) {
  memest_params p = balanced();
  run_dims d = dims(4096, 8, 8, 128);
  memi_routing_tokens(128, &p, &d);
  CHECK_I64(d.n_in, 4096 * 8);
  CHECK_I64(d.m_act, 32768);
  CHECK_I64(d.d_s, 32768);
  CHECK_I64(d.d_r, 32768);
  CHECK_I64(d.routing_milli, 1000);
  CHECK_I64(d.ovf, 0);
}

/* E = 8, k = 2, ep = 4, m = 5 (E does not divide m): stride 4, tokens
** 0..4 choose {0,4} {1,5} {2,6} {3,7} {4,0}. Per peer, experts 0 and 4 get 2
** rows, the others 1. Rank 0 holds experts 0,1: 4 peers x 3 = 12 rows (rank 2
** likewise, ranks 1 and 3 get 8), so the busiest rank gets 12 = 1.2 x m*k;
** its grouped GEMM rows are r128(8) + r128(4) = 256. Every token reaches 2
** ranks: 10 dedup rows sent; rank 0 is reached by tokens 0, 1 and 4 of each
** peer: 12 received. */
static void test_balanced_remainder(void) {
  memest_params p = balanced();
  run_dims d = dims(5, 2, 4, 8);
  memi_routing_tokens(8, &p, &d);
  CHECK_I64(d.n_in, 12);
  CHECK_I64(d.m_act, 256);
  CHECK_I64(d.d_s, 10);
  CHECK_I64(d.d_r, 12);
  CHECK_I64(d.routing_milli, 1200);
}

/* With ep = 1 every expert is local: m*k rows in every mode. Balanced
** routing still sets the padding: 128 experts x r128(4096*8/128 = 256). */
static void test_balanced_ep1(void) {
  memest_params p = balanced();
  run_dims d = dims(4096, 8, 1, 128);
  memi_routing_tokens(128, &p, &d);
  CHECK_I64(d.n_in, 32768);
  CHECK_I64(d.m_act, 32768);
  CHECK_I64(d.d_s, 0);
}

/* The factor mode: ceil(F*m*k) rows, capped where every peer's token
** sends min(k, E_loc) rows here: cap = min(ep, E/k). */
static void test_factor_and_cap(void) {
  memest_params p;
  run_dims d = dims(4096, 8, 8, 128);
  memest_params_init(&p);
  p.routing = MEMEST_ROUTING_FACTOR;
  p.routing_factor = 1.5;
  memi_routing_tokens(128, &p, &d);
  CHECK_I64(d.n_in, 49152);
  CHECK_I64(d.m_act, 50176);   /* r128(49,152 + 64*16) */
  CHECK(fabs(memi_routing_cap(128, 8, 8) - 8.0) < 1e-12);    /* ep binds */
  CHECK(fabs(memi_routing_cap(32, 4, 16) - 8.0) < 1e-12);    /* E/k binds: E_loc 2 < k 4 */
  CHECK(fabs(memi_routing_cap(64, 6, 2) - 2.0) < 1e-12);
  p.routing_factor = 8.0;
  d = dims(4096, 8, 8, 128);
  memi_routing_tokens(128, &p, &d);
  CHECK_I64(d.n_in, 4096 * 8 * 8);        /* every token of every peer: 8 rows here */
  p.routing_factor = 8.0;
  d = dims(100, 4, 16, 32);               /* E_loc 2: at most 2 of 4 choices land here */
  memi_routing_tokens(32, &p, &d);
  CHECK_I64(d.n_in, 100 * 16 * 2);
}

static memest_result *estimate_ok(const memest_params *p) {
  memest_result *r = NULL;
  memest_error err;
  memest_code rc = memest_estimate(NULL, 0, p, &r, &err);
  if (rc != MEMEST_OK) fprintf(stderr, "estimate failed: %s\n", err.message);
  CHECK_I64(rc, MEMEST_OK);
  return r;
}

static memest_status status_at(const memest_params *base, double f) {
  memest_params p = *base;
  memest_result *r;
  memest_status s;
  memest_error err;
  char v[32];
  snprintf(v, sizeof v, "%.17g", f);
  CHECK_I64(memest_params_set(&p, "routing_factor", v, &err), MEMEST_OK);
  r = estimate_ok(&p);
  if (r == NULL) return MEMEST_FITS_OOM;
  s = memest_result_status(r);
  memest_result_free(r);
  return s;
}

/* The default example: the margin fits and 0.5% above it does not. */
static void test_margin_default(void) {
  memest_params p;
  memest_result *r;
  memest_routing_info ri;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  r = estimate_ok(&p);
  if (r == NULL) return;
  memest_result_routing(r, &ri);
  CHECK(ri.applies);
  CHECK(ri.has_margin);
  CHECK(!ri.margin_is_limit);
  CHECK_I64(ri.mode, MEMEST_ROUTING_MEASURED);
  CHECK(fabs(ri.factor - 1.18) < 1e-12);
  CHECK(fabs(ri.cap - 8.0) < 1e-12);
  CHECK(ri.margin > 1.18 && ri.margin < 8.0);
  CHECK(status_at(&p, ri.margin) != MEMEST_FITS_OOM);
  CHECK(status_at(&p, ri.margin * 1.005) == MEMEST_FITS_OOM);
  memest_result_free(r);
}

/* Qwen3-30B-A3B at pp 1 on 8 H100 is out of memory even when balanced. */
static void test_margin_null(void) {
  memest_params p;
  memest_result *r;
  memest_routing_info ri;
  memest_error err;
  char *json;
  check_params(&p, "qwen3-30b-a3b", 1, 8, 1, 8, 1, 1024, 2048, "h100");
  CHECK_I64(memest_params_set(&p, "optimizer", "muon", &err), MEMEST_OK);
  r = estimate_ok(&p);
  if (r == NULL) return;
  memest_result_routing(r, &ri);
  CHECK(!ri.has_margin);
  json = memest_result_json(r);
  CHECK_HAS(json, "\"margin\":null");
  memest_free(json);
  memest_result_free(r);
  CHECK_I64(memest_params_set(&p, "routing", "balanced", &err), MEMEST_OK);
  r = estimate_ok(&p);
  if (r == NULL) return;
  CHECK_I64(memest_result_status(r), MEMEST_FITS_OOM);
  memest_result_free(r);
}

/* A layout that fits at the cap reports the cap and says so. */
static void test_margin_at_cap(void) {
  memest_params p;
  memest_result *r;
  memest_routing_info ri;
  memest_error err;
  char *json;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h200");
  p.gpu[0] = '\0';
  p.given &= ~(1u << MEMEST_P_GPU);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "400", &err), MEMEST_OK);
  r = estimate_ok(&p);
  if (r == NULL) return;
  memest_result_routing(r, &ri);
  CHECK(ri.has_margin);
  CHECK(ri.margin_is_limit);
  CHECK(fabs(ri.margin - 8.0) < 1e-12);
  json = memest_result_json(r);
  CHECK_HAS(json, "\"margin\":8,\"margin_is_limit\":true");
  memest_free(json);
  memest_result_free(r);
}

/* ep = 1: no routing, no margin, and the report says so. */
static void test_ep1_report(void) {
  memest_params p;
  memest_result *r;
  memest_routing_info ri;
  char *text;
  check_params(&p, "deepseek-v2-lite", 1, 1, 1, 8, 1, 256, 2048, "h100");
  r = estimate_ok(&p);
  if (r == NULL) return;
  memest_result_routing(r, &ri);
  CHECK(!ri.applies);
  CHECK(!ri.has_margin);
  text = memest_result_text(r);
  CHECK_HAS(text, "Routing      does not apply: ep = 1");
  memest_free(text);
  memest_result_free(r);
}

/* The peak never falls as the factor rises, from 1 to the cap. */
static void test_peaks_monotone(void) {
  memest_params p;
  double f[57];
  uint64_t peaks[57];
  memest_error err;
  int i;
  check_params(&p, "deepseek-v2-lite", 2, 4, 1, 16, 1, 512, 2048, "h100");
  for (i = 0; i < 57; i++) f[i] = 1.0 + (double)i * 3.0 / 56.0;   /* 1..4 = min(4, 64/6) */
  CHECK_I64(memest_routing_peaks(NULL, 0, &p, f, 57, peaks, &err), MEMEST_OK);
  for (i = 1; i < 57; i++) CHECK(peaks[i] >= peaks[i - 1]);
  CHECK(peaks[56] > peaks[0]);
  f[0] = 4.5;
  CHECK_I64(memest_routing_peaks(NULL, 0, &p, f, 1, peaks, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "routing_factor");
}

/* Balanced routing lowers the default example's tensor peak: its routed
** rows are m*k instead of 1.18 m*k. */
static void test_balanced_lowers_peak(void) {
  memest_params p;
  memest_result *a, *b;
  memest_error err;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  a = estimate_ok(&p);
  CHECK_I64(memest_params_set(&p, "--routing", "balanced", &err), MEMEST_OK);
  b = estimate_ok(&p);
  if (a == NULL || b == NULL) return;
  /* 48 MoE layer-chunks in flight at the peak, each without the surplus of
  ** 38,667 - 32,768 = 5,899 rows: scatter (40,960 - 34,816)*2048*2 +
  ** g/u/act 3*(39,808 - 32,768)*768*2 + 2 index tensors 2*5,899*8 =
  ** 57,700,528 bytes. */
  CHECK_I64(memest_result_tensor_peak_bytes(a) - memest_result_tensor_peak_bytes(b),
            48LL * 57700528LL);
  CHECK_I64(b->lo.d.n_in, 32768);
  CHECK_I64(a->lo.d.n_in, 38667);
  memest_result_free(a);
  memest_result_free(b);
}

static void test_routing_errors(void) {
  memest_params p;
  memest_error err;
  memest_result *r = NULL;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_params_set(&p, "routing_factor", "0.9", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "routing", "skewed", &err), MEMEST_E_UNKNOWN);
  CHECK_I64(memest_params_set(&p, "routing_factor", "8.5", &err), MEMEST_OK);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "min(ep, experts/top_k) = 8");
  CHECK_STR(err.fix, "routing_factor=8");
  CHECK_I64(memest_params_set(&p, "routing", "balanced", &err), MEMEST_OK);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "needs --routing factor, not balanced");
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  /* --routing factor alone takes the default factor, 1.18: the measured
  ** mode's rows and peak. */
  CHECK_I64(memest_params_set(&p, "routing", "factor", &err), MEMEST_OK);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  if (r != NULL) {
    memest_result *m;
    memest_params q;
    check_params(&q, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
    m = estimate_ok(&q);
    if (m != NULL) CHECK_I64(memest_result_peak_bytes(r), memest_result_peak_bytes(m));
    memest_result_free(m);
    memest_result_free(r);
    r = NULL;
  }
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_params_set(&p, "ep_imbalance", "1.2", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "routing", "balanced", &err), MEMEST_OK);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "ep_imbalance");
}

/* The equivalent command echoes the routing flags. */
static void test_command(void) {
  memest_params p;
  memest_error err;
  char cmd[1024];
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_params_set(&p, "routing_factor", "1.75", &err), MEMEST_OK);
  memest_params_command(&p, cmd, sizeof cmd);
  CHECK_HAS(cmd, " --routing-factor 1.75");
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_params_set(&p, "routing", "balanced", &err), MEMEST_OK);
  memest_params_command(&p, cmd, sizeof cmd);
  CHECK_HAS(cmd, " --routing balanced");
}

/* Plan rows carry the margin an estimate of the row reports (to a
** hundredth), and
** --min-routing-margin keeps only the rows that reach it. */
static void test_plan_margin(void) {
  memest_plan_request req;
  memest_plan *pl = NULL;
  memest_error err;
  int i, n, kept = 0;
  memest_plan_request_init(&req, MEMEST_PLAN_LAYOUTS);
  CHECK_I64(memest_plan_request_set(&req, "model", "qwen3-30b-a3b", &err), MEMEST_OK);
  CHECK_I64(memest_plan_request_set(&req, "gpu", "h100", &err), MEMEST_OK);
  CHECK_I64(memest_plan_request_set(&req, "total_gpus", "16", &err), MEMEST_OK);
  CHECK_I64(memest_plan_request_set(&req, "global_batch_size", "256", &err), MEMEST_OK);
  CHECK_I64(memest_plan_request_set(&req, "sequence_length", "2048", &err), MEMEST_OK);
  CHECK_I64(memest_plan_request_set(&req, "micro_batch_size", "1", &err), MEMEST_OK);
  CHECK_I64(memest_plan_run(NULL, 0, &req, &pl, &err), MEMEST_OK);
  if (pl == NULL) return;
  n = memest_plan_row_count(pl);
  CHECK(n > 4);
  for (i = 0; i < n; i++) {
    memest_params p;
    memest_result *r;
    memest_routing_info ri;
    CHECK_I64(memest_plan_row_params(pl, i, &p, &err), MEMEST_OK);
    r = estimate_ok(&p);
    if (r == NULL) continue;
    memest_result_routing(r, &ri);
    CHECK_I64(ri.has_margin, pl->rows[i].routing.has_margin);
    /* A row's margin is the estimate's to a hundredth: the largest hundredth
    ** that fits (or the cap, as the estimate says). */
    if (ri.margin_is_limit) CHECK(fabs(ri.margin - pl->rows[i].routing.margin) < 1e-12);
    else CHECK(fabs(floor(ri.margin * 100.0 + 1e-9) / 100.0 - pl->rows[i].routing.margin) < 1e-12);
    /* Every row's margin is the last thousandth that fits, over every rank. */
    if (ri.has_margin && !ri.margin_is_limit) {
      CHECK(status_at(&p, ri.margin) != MEMEST_FITS_OOM);
      CHECK(status_at(&p, ri.margin + 0.001) == MEMEST_FITS_OOM);
    }
    if (ri.applies ? ri.has_margin && pl->rows[i].routing.margin >= 2.5
                   : memest_result_status(r) != MEMEST_FITS_OOM) {
      kept++;
    }
    memest_result_free(r);
  }
  memest_plan_free(pl);
  CHECK_I64(memest_plan_request_set(&req, "--min-routing-margin", "2.5", &err), MEMEST_OK);
  CHECK_I64(memest_plan_run(NULL, 0, &req, &pl, &err), MEMEST_OK);
  if (pl == NULL) return;
  CHECK_I64(memest_plan_row_count(pl), kept);
  CHECK(kept > 0 && kept < n);
  for (i = 0; i < memest_plan_row_count(pl); i++) {
    CHECK(!pl->rows[i].routing.applies || pl->rows[i].routing.margin >= 2.5);
  }
  memest_plan_free(pl);
  CHECK_I64(memest_plan_request_set(&req, "min_routing_margin", "0.5", &err), MEMEST_E_VALUE);
}

int main(void) {
  test_balanced_divisible();
  test_balanced_remainder();
  test_balanced_ep1();
  test_factor_and_cap();
  test_margin_default();
  test_margin_null();
  test_margin_at_cap();
  test_ep1_report();
  test_peaks_monotone();
  test_balanced_lowers_peak();
  test_routing_errors();
  test_command();
  test_plan_margin();
  return check_done("test_routing");
}
