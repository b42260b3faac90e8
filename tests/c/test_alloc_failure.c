/*
** test_alloc_failure.c — every allocation an estimate, a plan and a config
** parse make can fail. The test links with --wrap for malloc, calloc,
** realloc and free (the library's own calls) and routes cJSON's through
** cJSON_InitHooks, counts the calls of one run, then reruns it failing the
** n-th call for every n: each run must end in MEMEST_E_NOMEM (or succeed,
** where the failed allocation had a fallback) and leave no block behind.
** Under scripts/sanitize.sh the same runs are also checked by ASan.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

/* The test's own bookkeeping: calls counted, the call to fail, live blocks,
** and a fingerprint of the run's answer (its JSON and text, or its errors),
** so that a run that survives a failed allocation must give the same answer. */
static long alloc_calls, fail_at, live_blocks;
static unsigned long long answer_hash;

static void answer_add(const char *s) {
  for (; s != NULL && *s != '\0'; s++) answer_hash = (answer_hash ^ (unsigned char)*s) * 1099511628211ULL;
  answer_hash = (answer_hash ^ 0xFFu) * 1099511628211ULL;
}

static int fail_now(void) {
  alloc_calls++;
  return fail_at > 0 && alloc_calls == fail_at;
}

void *__wrap_malloc(size_t n) {
  void *p;
  if (fail_now()) return NULL;
  p = __real_malloc(n);
  if (p != NULL) live_blocks++;
  return p;
}

void *__wrap_calloc(size_t n, size_t size) {
  void *p;
  if (fail_now()) return NULL;
  p = __real_calloc(n, size);
  if (p != NULL) live_blocks++;
  return p;
}

void *__wrap_realloc(void *old, size_t n) {
  void *p;
  if (fail_now()) return NULL;
  p = __real_realloc(old, n);
  if (p != NULL && old == NULL) live_blocks++;
  return p;
}

void __wrap_free(void *p) {
  if (p != NULL) live_blocks--;
  __real_free(p);
}

static void *json_malloc(size_t n) { return __wrap_malloc(n); }
static void json_free(void *p) { __wrap_free(p); }

typedef memest_code (*scenario)(void);

static memest_code run_estimate(void) {
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  memest_code rc;
  char *json = NULL, *text = NULL;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  if (memest_params_set(&p, "timeline", "true", &err) != MEMEST_OK) return MEMEST_E_VALUE;
  rc = memest_estimate(NULL, 0, &p, &r, &err);
  if (rc == MEMEST_OK) {
    json = memest_result_json(r);
    text = memest_result_text(r);
    if (json == NULL || text == NULL) rc = MEMEST_E_NOMEM;
    answer_add(json);
    answer_add(text);
  }
  memest_free(json);
  memest_free(text);
  memest_result_free(r);
  return rc;
}

/* An estimate no single knob makes OK, so that its suggestions end with the
** planner's search for the nearest OK layout (two plans, on 2 and 4 GPUs):
** the small test config, 16 GiB GPUs, seq 8192, mbs 2. */
static memest_code run_nearest(void) {
  size_t len = 0;
  char *cfg = check_read_file("tests/data/tiny.json", &len);
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  memest_code rc;
  char *json = NULL;
  if (cfg == NULL) return MEMEST_E_NOMEM;
  check_params(&p, "tiny.json", 1, 1, 1, 2, 2, 64, 8192, "h100");
  p.given &= ~(1u << MEMEST_P_GPU);   /* a 16 GiB GPU instead */
  p.gpu[0] = '\0';
  if (memest_params_set(&p, "gpu_memory_gb", "16", &err) != MEMEST_OK) {
    free(cfg);
    return MEMEST_E_VALUE;
  }
  rc = memest_estimate(cfg, len, &p, &r, &err);
  free(cfg);
  if (rc == MEMEST_OK) {
    json = memest_result_json(r);
    if (json == NULL) rc = MEMEST_E_NOMEM;
    else if (strstr(json, "\"nearest_layout\":{\"found\":true") == NULL) rc = MEMEST_E_VALUE;
    answer_add(json);
  }
  memest_free(json);
  memest_result_free(r);
  return rc;
}

static memest_code run_config(void) {
  size_t len = 0;
  char *cfg = check_read_file("presets/deepseek-v3.json", &len);
  memest_params p;
  memest_error err;
  memest_result *r = NULL;
  memest_code rc;
  char *json = NULL;
  if (cfg == NULL) return MEMEST_E_NOMEM;
  check_params(&p, "config.json", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  if (memest_validate(cfg, len, &p, &err, 1) > 0) {
    free(cfg);
    return err.code;
  }
  rc = memest_estimate(cfg, len, &p, &r, &err);
  free(cfg);
  if (rc == MEMEST_OK) {
    json = memest_result_json(r);
    if (json == NULL) rc = MEMEST_E_NOMEM;
    answer_add(json);
  }
  memest_free(json);
  memest_result_free(r);
  return rc;
}

/* Runs the plan the n (name, value) pairs of set ask for, on the config
** file `config` (NULL: the preset named), its JSON and text added to the
** answer; the JSON must hold `must`. */
static memest_code run_plan_of(const char *const (*set)[2], size_t n, const char *config,
                               const char *must) {
  memest_plan_request req;
  memest_plan *plan = NULL;
  memest_error err;
  memest_code rc;
  char *json = NULL, *text = NULL, *cfg = NULL;
  size_t i, len = 0;
  memest_plan_request_init(&req, MEMEST_PLAN_LAYOUTS);
  for (i = 0; i < n; i++) {
    if (memest_plan_request_set(&req, set[i][0], set[i][1], &err) != MEMEST_OK) return err.code;
  }
  if (config != NULL && (cfg = check_read_file(config, &len)) == NULL) return MEMEST_E_NOMEM;
  rc = memest_plan_run(cfg, len, &req, &plan, &err);
  free(cfg);
  if (rc == MEMEST_OK) {
    json = memest_plan_json(plan);
    text = memest_plan_text(plan);
    if (json == NULL || text == NULL) rc = MEMEST_E_NOMEM;
    else if (strstr(json, must) == NULL) rc = MEMEST_E_VALUE;
    answer_add(json);
    answer_add(text);
  }
  memest_free(json);
  memest_free(text);
  memest_plan_free(plan);
  return rc;
}

/* A small vary plan (two values), so that failing each of its allocations
** in turn stays within seconds. */
static memest_code run_plan(void) {
  static const char *const set[][2] = {
      {"model", "qwen3-30b-a3b"}, {"gpu", "h100"},        {"gpus_per_node", "8"},
      {"ep_size", "8"},           {"cp_size", "1"},       {"dp", "1"},
      {"micro_batch_size", "1"},  {"global_batch_size", "64"},
      {"sequence_length", "2048"}, {"pp_size", "2,4"},    {"vary", "pp"},
  };
  return run_plan_of(set, sizeof set / sizeof set[0], NULL, "\"rows\":[");
}

/* A vary-nodes plan, which runs pp over whole nodes beside it. */
static memest_code run_vary_nodes(void) {
  static const char *const set[][2] = {
      {"model", "tiny.json"},  {"gpu", "h100"},    {"gpus_per_node", "2"},
      {"ep_size", "2"},        {"cp_size", "1"},   {"pp_size", "2"},
      {"micro_batch_size", "1"}, {"global_batch_size", "64"},
      {"sequence_length", "2048"}, {"nodes", "1,2,3"}, {"vary", "nodes"},
  };
  return run_plan_of(set, sizeof set / sizeof set[0], "tests/data/tiny.json",
                     "\"pp_over_nodes\":{");
}

/* Fails each allocation of `run` in turn; returns the calls of a full run. */
static long fail_each(const char *name, scenario run) {
  long total, n, nomem = 0, fallbacks = 0;
  unsigned long long want;
  alloc_calls = 0;
  fail_at = 0;
  live_blocks = 0;
  answer_hash = 14695981039346656037ULL;
  CHECK_I64(run(), MEMEST_OK);
  CHECK_I64(live_blocks, 0);
  total = alloc_calls;
  want = answer_hash;
  for (n = 1; n <= total; n++) {
    memest_code rc;
    alloc_calls = 0;
    fail_at = n;
    live_blocks = 0;
    answer_hash = 14695981039346656037ULL;
    rc = run();
    fail_at = 0;
    if (rc == MEMEST_E_NOMEM) nomem++;
    else if (rc == MEMEST_OK && answer_hash == want) fallbacks++;
    else if (rc == MEMEST_OK) {
      fprintf(stderr, "%s: failing allocation %ld of %ld changed the answer\n", name, n, total);
      rc = MEMEST_E_VALUE;
    } else fprintf(stderr, "%s: failing allocation %ld of %ld gave %s\n", name, n, total,
                 memest_code_name(rc));
    if (live_blocks != 0) {
      fprintf(stderr, "%s: failing allocation %ld of %ld left %ld blocks\n", name, n, total,
              live_blocks);
    }
    CHECK(rc == MEMEST_E_NOMEM || rc == MEMEST_OK);
    CHECK_I64(live_blocks, 0);
  }
  printf("%s: %ld allocations, each failed in turn: %ld MEMEST_E_NOMEM, %ld recovered\n", name,
         total, nomem, fallbacks);
  CHECK(nomem > 0);
  return total;
}

int main(void) {
  cJSON_Hooks hooks = {json_malloc, json_free};
  cJSON_InitHooks(&hooks);
  fail_each("config parse", run_config);
  fail_each("estimate", run_estimate);
  fail_each("plan", run_plan);
  fail_each("estimate with the nearest-layout search", run_nearest);
  fail_each("vary nodes beside pp over whole nodes", run_vary_nodes);
  return check_done("test_alloc_failure");
}
