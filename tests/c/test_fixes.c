/*
** test_fixes.c — every fix a problem offers lands on a valid layout in one
** step (fix_search.c): the cases where the check's own nearest value used
** to fail the next check, and a sweep over bad layouts of every preset in
** which each offered fix is applied and the inputs validated again; every
** refused value's fix and example accepted (params.c); every suggestion's
** fix and the nearest OK layout's (advice.c, nearest.c) estimated again.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

/* Applies "name=value[,name=value]" with memest_params_set. */
static int apply(memest_params *p, const char *fix) {
  char buf[96], *s = buf;
  memest_error e;
  snprintf(buf, sizeof buf, "%s", fix);
  while (*s) {
    char *comma = strchr(s, ','), *eq;
    if (comma) *comma = '\0';
    eq = strchr(s, '=');
    if (eq == NULL) return 0;
    *eq = '\0';
    if (memest_params_set(p, s, eq + 1, &e) != MEMEST_OK) return 0;
    if (!comma) break;
    s = comma + 1;
  }
  return 1;
}

static int problems(const char *config, const memest_params *p, memest_error *errs, int max) {
  return memest_validate(config, config ? strlen(config) : 0, p, errs, max);
}

/* The first problem's fix, checked to leave no problem at all. */
static void one_step(const char *config, const memest_params *p, const char *want_fix) {
  memest_error errs[8];
  memest_params q = *p;
  int n = problems(config, p, errs, 8);
  CHECK(n > 0);
  if (n == 0) return;
  CHECK_STR(errs[0].fix, want_fix);
  CHECK(apply(&q, errs[0].fix));
  CHECK_I64(problems(config, &q, errs, 8), 0);
}

/* Qwen1.5-MoE (60 experts) at ep 8: ep 4 fits the 32 GPUs and the batch as
** they are (ep 10 would need 40 GPUs and then gbs 1,020); pp 32 on 48
** layers: pp 4 on the same 32 GPUs (pp 24 would need 192); DeepSeek-V3 at
** ep 64: ep 8 (ep 32 would need 128 GPUs). */
static void test_chains(void) {
  size_t len;
  char *qwen15 = check_read_file("tests/data/published/qwen1.5-moe-a2.7b.json", &len);
  memest_params p;
  CHECK(qwen15 != NULL);
  check_params(&p, "qwen1.5", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  if (qwen15 != NULL) one_step(qwen15, &p, "ep_size=4");
  free(qwen15);
  check_params(&p, "qwen3-30b-a3b", 32, 8, 1, 32, 1, 1024, 4096, "h100");
  one_step(NULL, &p, "pp_size=4");
  check_params(&p, "deepseek-v3", 4, 64, 1, 32, 1, 1024, 4096, "h100");
  one_step(NULL, &p, "ep_size=8");
  /* cp 4 on 32 GPUs with seq 4,100: the nearer multiple of 8 below, and the
  ** GPUs that pp*ep*cp = 128 needs, in one fix. */
  check_params(&p, "qwen3-30b-a3b", 4, 8, 4, 32, 1, 1024, 4100, "h100");
  one_step(NULL, &p, "sequence_length=4096,total_gpus=128");
}

/* Every problem of every bad layout in the sweep: its fix, if any, applied
** alone gives inputs with no problem. */
static void test_sweep(void) {
  static const int64_t pps[] = {1, 3, 4, 7, 32, 40};
  static const int64_t eps[] = {1, 3, 6, 8, 12, 64};
  static const int64_t cps[] = {1, 2, 3};
  static const int64_t gpus[] = {8, 30, 96};
  static const int64_t gbss[] = {16, 1000, 1024};
  static const int64_t seqs[] = {4096, 4098};
  int m, a, b, c, d, e, f, tried = 0, fixed = 0, bad = 0;
  for (m = 0; m < memest_model_preset_count(); m++) {
    const char *name = memest_model_preset_name(m);
    for (a = 0; a < 6; a++)
      for (b = 0; b < 6; b++)
        for (c = 0; c < 3; c++)
          for (d = 0; d < 3; d++)
            for (e = 0; e < 3; e++)
              for (f = 0; f < 2; f++) {
                memest_params p;
                memest_error errs[8];
                int n, i;
                check_params(&p, name, pps[a], eps[b], cps[c], gpus[d], 1, gbss[e], seqs[f],
                             "h100");
                n = problems(NULL, &p, errs, 8);
                for (i = 0; i < n && i < 8; i++) {
                  memest_params q = p;
                  memest_error again[8];
                  tried++;
                  if (!errs[i].fix[0]) continue;
                  if (!apply(&q, errs[i].fix) || problems(NULL, &q, again, 8) != 0) {
                    if (bad++ < 5) {
                      fprintf(stderr, "%s pp %lld ep %lld cp %lld gpus %lld gbs %lld seq %lld: "
                              "fix %s leaves: %s\n", name, (long long)pps[a], (long long)eps[b],
                              (long long)cps[c], (long long)gpus[d], (long long)gbss[e],
                              (long long)seqs[f], errs[i].fix, again[0].message);
                    }
                  } else {
                    fixed++;
                  }
                }
              }
  }
  printf("test_fixes: %d problems, %d fixes applied, each valid in one step\n", tried, fixed);
  CHECK_I64(bad, 0);
  CHECK(fixed > 1000);
}

/* The value after `lead` in msg (up to ';', ' ' or the end), or "". */
static void value_after(const char *msg, const char *lead, char *out, size_t size) {
  const char *at = strstr(msg, lead);
  size_t n = 0;
  out[0] = '\0';
  if (at == NULL) return;
  at += strlen(lead);
  while (at[n] && at[n] != ';' && at[n] != ' ' && n + 1 < size) n++;
  snprintf(out, size, "%.*s", (int)n, at);
}

/* Every number input refused in each way a number can be wrong: the value
** the message offers and the fix, when there is one, are accepted. */
static void test_number_fixes(void) {
  static const char *const odd[] = {"nan", "NaN", "inf", "-inf", "infinity", "0x10", "",
                                    "1e400", "-1e400", "1,5", "5%", "-0.1", "5", "150", "1e9"};
  int id, refused = 0, offered = 0;
  size_t k;
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    if (strcmp(pi->kind, "number") != 0) continue;
    for (k = 0; k < sizeof odd / sizeof odd[0]; k++) {
      memest_params p;
      memest_error e, e2;
      char lead[64], v[64];
      memest_params_init(&p);
      if (memest_params_set(&p, pi->name, odd[k], &e) == MEMEST_OK) continue;
      refused++;
      snprintf(lead, sizeof lead, "give e.g. %s ", pi->flag);
      value_after(e.message, lead, v, sizeof v);
      if (!v[0]) value_after(e.message, "the nearest value in range is ", v, sizeof v);
      if (!v[0]) {
        snprintf(lead, sizeof lead, "give %s ", pi->flag);
        value_after(e.message, lead, v, sizeof v);
      }
      if (!v[0]) fprintf(stderr, "%s %s offers no value: %s\n", pi->flag, odd[k], e.message);
      CHECK(v[0] != '\0');
      if (v[0]) {
        offered++;
        CHECK_I64(memest_params_set(&p, pi->name, v, &e2), MEMEST_OK);
      }
      if (e.fix[0]) {
        memest_params q;
        memest_params_init(&q);
        CHECK(apply(&q, e.fix));
      }
    }
  }
  CHECK(refused >= 40);
  CHECK_I64(offered, refused);
  {
    memest_params p;
    memest_error e;
    memest_params_init(&p);
    /* nan: the default; beyond the range: the nearest bound; a percent: the fraction. */
    CHECK_I64(memest_params_set(&p, "fragmentation", "nan", &e), MEMEST_E_VALUE);
    CHECK_STR(e.fix, "fragmentation=0.1");
    CHECK_I64(memest_params_set(&p, "fragmentation", "-0.1", &e), MEMEST_E_VALUE);
    CHECK_STR(e.fix, "fragmentation=0");
    CHECK_I64(memest_params_set(&p, "fragmentation", "5", &e), MEMEST_E_LIMIT);
    CHECK_STR(e.fix, "fragmentation=0.05");
    CHECK_I64(memest_params_set(&p, "fragmentation", "1e400", &e), MEMEST_E_LIMIT);
    CHECK_STR(e.fix, "fragmentation=1");
    CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "inf", &e), MEMEST_E_VALUE);
    CHECK_STR(e.fix, "");   /* no capacity is a safe guess */
    CHECK_HAS(e.message, "--gpu-memory-gb 80");
  }
  {
    /* The same values stored by a C caller (or a page) are refused with the
    ** same fixes, which give a valid run. */
    static const char *const stored[][2] = {{"nan", "fragmentation=0.1"}, {"-0.5", "fragmentation=0"},
                                            {"7", "fragmentation=1"}};
    size_t i;
    for (i = 0; i < sizeof stored / sizeof stored[0]; i++) {
      memest_params p;
      memest_error errs[4];
      check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
      p.fragmentation = strtod(stored[i][0], NULL);
      CHECK_I64(memest_validate(NULL, 0, &p, errs, 4), 1);
      CHECK_STR(errs[0].fix, stored[i][1]);
      CHECK(apply(&p, errs[0].fix));
      CHECK_I64(memest_validate(NULL, 0, &p, errs, 4), 0);
    }
  }
}

/* An enum value spelled another way is offered as the fix; a GPU of no
** preset is pointed to --gpu-memory-gb; any other unknown value lists the
** choices with no fix. */
static void test_enum_fixes(void) {
  static const memest_param_id enums[] = {MEMEST_P_GPU, MEMEST_P_OPTIMIZER, MEMEST_P_SHARDING,
                                          MEMEST_P_FP8_TRAINING, MEMEST_P_ROUTING};
  size_t k;
  for (k = 0; k < sizeof enums / sizeof enums[0]; k++) {
    const memest_param_info *pi = memest_param_describe(enums[k]);
    const char *c = pi->choices;
    while (*c) {
      char choice[32], upper[32], want[64];
      const char *bar = strchr(c, '|');
      size_t n = bar ? (size_t)(bar - c) : strlen(c), i;
      memest_params p;
      memest_error e;
      snprintf(choice, sizeof choice, "%.*s", (int)n, c);
      for (i = 0; choice[i]; i++) {
        upper[i] = choice[i] >= 'a' && choice[i] <= 'z' ? (char)(choice[i] - 32)
                   : choice[i] == '-' ? '_' : choice[i];
      }
      upper[i] = '\0';
      memest_params_init(&p);
      CHECK_I64(memest_params_set(&p, pi->name, upper, &e), MEMEST_E_UNKNOWN);
      snprintf(want, sizeof want, "%s=%s", pi->name, choice);
      CHECK_STR(e.fix, want);
      CHECK(apply(&p, e.fix));
      c = bar ? bar + 1 : c + n;
    }
  }
  {
    static const char *const gpus[] = {"h800", "a100", "mi300x", "l40s", "h100-nvl"};
    memest_params p;
    memest_error e;
    memest_params_init(&p);
    for (k = 0; k < sizeof gpus / sizeof gpus[0]; k++) {
      CHECK_I64(memest_params_set(&p, "gpu", gpus[k], &e), MEMEST_E_UNKNOWN);
      CHECK_HAS(e.message, "--gpu-memory-gb");
      CHECK_STR(e.fix, "");
    }
    CHECK_I64(memest_params_set(&p, "optimizer", "sgd", &e), MEMEST_E_UNKNOWN);
    CHECK_HAS(e.message, "not one of: adamw, muon");
    CHECK_STR(e.fix, "");
  }
}

/* Applies "name=value,..." to p: 1 when every item is accepted. */
static int apply_fix(memest_params *p, const char *fix) { return apply(p, fix); }

/* The estimate of p as JSON (NULL on failure). */
static cJSON *estimate_json(const memest_params *p) {
  memest_result *r = NULL;
  memest_error e;
  cJSON *root = NULL;
  char *text;
  if (memest_estimate(NULL, 0, p, &r, &e) != MEMEST_OK) {
    fprintf(stderr, "estimate failed: %s\n", e.message);
    return NULL;
  }
  text = memest_result_json(r);
  if (text != NULL) root = cJSON_Parse(text);
  memest_free(text);
  memest_result_free(r);
  return root;
}

static const char *str_of(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static double num_of(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

/* Each suggestion's fix, applied, estimates to the peak and status it
** announced; returns how many suggestions are OK. */
static int check_suggestions(const memest_params *p, const cJSON *root) {
  const cJSON *s;
  int ok = 0;
  cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(root, "suggestions")) {
    memest_params q = *p;
    cJSON *again;
    CHECK(apply_fix(&q, str_of(s, "fix")));
    again = estimate_json(&q);
    CHECK(again != NULL);
    if (again == NULL) continue;
    CHECK_I64(num_of(again, "peak_bytes"), num_of(s, "peak_bytes"));
    CHECK_STR(str_of(again, "status"), str_of(s, "status"));
    ok += strcmp(str_of(s, "status"), "OK") == 0;
    cJSON_Delete(again);
  }
  return ok;
}

/* The suggestion of knob `knob` with fix `fix`, or NULL. */
static const cJSON *suggestion(const cJSON *root, const char *knob, const char *fix) {
  const cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(root, "suggestions")) {
    if (strcmp(str_of(s, "knob"), knob) == 0 && strcmp(str_of(s, "fix"), fix) == 0) return s;
  }
  return NULL;
}

/* Whether a plan over pp, ep, cp on `gpus` GPUs and micro batches
** mbs..1 (halving) has an OK row, through the public planner. */
static int any_ok_layout(const memest_params *p, int64_t gpus) {
  memest_plan_request *req = malloc(sizeof *req);
  memest_plan *plan = NULL;
  memest_error e;
  char v[64], mbs[64] = "";
  int64_t m;
  int ok = 0;
  char *text;
  cJSON *root;
  const cJSON *row;
  if (req == NULL) return 0;
  memest_plan_request_init(req, MEMEST_PLAN_LAYOUTS);
  memest_plan_request_set(req, "model", p->model, &e);
  memest_plan_request_set(req, "gpu", p->gpu, &e);
  for (m = p->micro_batch_size; m >= 1; m /= 2) {
    size_t n = strlen(mbs);
    snprintf(mbs + n, sizeof mbs - n, "%s%lld", n ? "," : "", (long long)m);
  }
  CHECK_I64(memest_plan_request_set(req, "micro_batch_size", mbs, &e), MEMEST_OK);
  snprintf(v, sizeof v, "%lld", (long long)gpus);
  memest_plan_request_set(req, "total_gpus", v, &e);
  snprintf(v, sizeof v, "%lld", (long long)p->global_batch_size);
  memest_plan_request_set(req, "global_batch_size", v, &e);
  snprintf(v, sizeof v, "%lld", (long long)p->sequence_length);
  memest_plan_request_set(req, "sequence_length", v, &e);
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &e), MEMEST_OK);
  text = plan != NULL ? memest_plan_json(plan) : NULL;
  root = text != NULL ? cJSON_Parse(text) : NULL;
  cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows")) {
    ok |= strcmp(str_of(row, "status"), "OK") == 0;
  }
  cJSON_Delete(root);
  memest_free(text);
  memest_plan_free(plan);
  free(req);
  return ok;
}

/* A run no single knob makes OK gets the nearest OK layout: its fix,
** applied, is OK at the announced peak, and no OK layout exists on the
** GPU counts the search tried before it. */
static void check_nearest(const memest_params *p, const int64_t *fewer, int n_fewer,
                          int64_t want_gpus) {
  cJSON *root = estimate_json(p), *again;
  const cJSON *near;
  memest_params q = *p;
  int i;
  CHECK(root != NULL);
  if (root == NULL) return;
  CHECK_I64(check_suggestions(p, root), 0);
  near = cJSON_GetObjectItemCaseSensitive(root, "nearest_layout");
  CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(near, "found")));
  CHECK_I64(num_of(near, "total_gpus"), want_gpus);
  CHECK_STR(str_of(near, "status"), "OK");
  CHECK(apply_fix(&q, str_of(near, "fix")));
  CHECK_I64(q.total_gpus, want_gpus);
  again = estimate_json(&q);
  CHECK(again != NULL);
  if (again != NULL) {
    CHECK_STR(str_of(again, "status"), "OK");
    CHECK_I64(num_of(again, "peak_bytes"), num_of(near, "peak_bytes"));
    /* An OK run needs no search. */
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(again, "nearest_layout")));
  }
  for (i = 0; i < n_fewer; i++) CHECK(!any_ok_layout(p, fewer[i]));
  cJSON_Delete(again);
  cJSON_Delete(root);
}

/* DeepSeek-V3 on 256 H100s and Qwen3-30B-A3B at seq 16,384 with mbs 2: every
** single-knob suggestion stays OOM. The nearest OK layout is on 2,048 GPUs
** (cp 8) and on 64 GPUs (mbs 1, ep 4, cp 4); none is OK on 256..1,536 or on
** 32. With dp 1 (odd), cp and ep are now suggested on twice the GPUs. */
static void test_nearest_layout(void) {
  static const int64_t ds_fewer[] = {256, 512, 768, 1024, 1536};
  static const int64_t qw_fewer[] = {32};
  memest_params p;
  cJSON *root;
  check_params(&p, "deepseek-v3", 8, 32, 1, 256, 1, 1024, 4096, "h100");
  check_nearest(&p, ds_fewer, 5, 2048);
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 2, 1024, 16384, "h100");
  check_nearest(&p, qw_fewer, 1, 64);
  /* The default example (dp 1): cp and ep on twice the GPUs, same dp. */
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  root = estimate_json(&p);
  CHECK(root != NULL);
  if (root != NULL) {
    CHECK(suggestion(root, "cp_size", "cp_size=2,total_gpus=64") != NULL);
    CHECK(suggestion(root, "ep_size", "ep_size=16,total_gpus=64") != NULL);
    CHECK(check_suggestions(&p, root) > 0);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "nearest_layout")));
  }
  cJSON_Delete(root);
  /* dp 2 (even): cp takes it on the same GPUs. */
  check_params(&p, "qwen3-30b-a3b", 2, 8, 1, 32, 1, 1024, 4096, "h100");
  root = estimate_json(&p);
  if (root != NULL) CHECK(suggestion(root, "cp_size", "cp_size=2") != NULL);
  cJSON_Delete(root);
}

int main(void) {
  test_chains();
  test_sweep();
  test_number_fixes();
  test_enum_fixes();
  test_nearest_layout();
  return check_done("test_fixes");
}
