/*
** test_errors.c — every class of bad input gets its own code, the field
** that can fix it, a message naming the problem and the fix, and where one
** exists a nearer valid value; nothing crashes and nothing is defaulted.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

static memest_code run(const char *config, const memest_params *p, memest_error *err) {
  memest_result *r = NULL;
  memest_code rc = memest_estimate(config, config ? strlen(config) : 0, p, &r, err);
  memest_result_free(r);
  if (rc == MEMEST_OK) memset(err, 0, sizeof *err);
  return rc;
}

static void base(memest_params *p) {
  check_params(p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
}

static void set(memest_params *p, const char *k, const char *v) {
  memest_error err;
  CHECK_I64(memest_params_set(p, k, v, &err), MEMEST_OK);
}

static void test_values(void) {
  memest_params p;
  memest_error err;
  memest_params_init(&p);
  CHECK_I64(memest_params_set(&p, "pp_size", "0", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "--pp-size must be at least 1");
  CHECK_STR(err.field, "pp_size");
  CHECK_I64(memest_params_set(&p, "--ep-size", "-2", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "cp_size", "two", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "must be a whole number, got 'two'");
  CHECK_I64(memest_params_set(&p, "total_gpus", "4.5", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "global_batch_size", "99999999999999999999999", &err),
            MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_GLOBAL_BATCH");
  CHECK_I64(memest_params_set(&p, "sequence_length", "", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "-80", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "nan", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "1e300", &err), MEMEST_E_LIMIT);
  CHECK_I64(memest_params_set(&p, "fragmentation", "2", &err), MEMEST_E_LIMIT);
  CHECK_I64(memest_params_set(&p, "ep_imbalance", "0.5", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "optimizer", "sgd", &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "adamw, muon");
  CHECK_I64(memest_params_set(&p, "sharding", "ddp", &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "fsdp, hsdp");
  CHECK_I64(memest_params_set(&p, "gpu", "rtx4090", &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "h100, h200, b200, a100-80, a100-40");
  CHECK_I64(memest_params_set(&p, "--no-such-flag", "1", &err), MEMEST_E_UNKNOWN);
  CHECK_I64(memest_params_set(&p, "timeline", "maybe", &err), MEMEST_E_VALUE);
  CHECK_I64(p.given, 0); /* nothing bad was stored */
}

static void test_missing(void) {
  memest_params p;
  memest_error errs[12];
  int n;
  memest_params_init(&p);
  set(&p, "pp_size", "4");
  n = memest_validate(NULL, 0, &p, errs, 12);
  CHECK_I64(n, 8); /* model, ep, cp, gpus, mbs, gbs, seq and the GPU */
  CHECK_I64(errs[0].code, MEMEST_E_MISSING);
  CHECK_STR(errs[0].field, "model");
  CHECK_HAS(errs[2].message, "--cp-size: context-parallel degree");
  CHECK_HAS(errs[2].message, "1 if you do not use context parallelism");
  CHECK_STR(errs[7].field, "gpu_memory_gb");
}

static void test_layouts(void) {
  memest_params p;
  memest_error err;
  base(&p);
  set(&p, "total_gpus", "30");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_STR(err.field, "total_gpus");
  CHECK_HAS(err.message, "not a multiple of pp*cp*ep = 32");
  CHECK_STR(err.fix, "total_gpus=32");
  base(&p);
  set(&p, "global_batch_size", "1001");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_HAS(err.message, "not a multiple of micro_batch_size*dp*ep");
  CHECK_STR(err.fix, "global_batch_size=1000");
  base(&p);
  set(&p, "global_batch_size", "32");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_HAS(err.message, "num_chunks = gbs/(mbs*dp*ep) = 4 is below 2*pp = 8");
  CHECK_HAS(err.message, "--global-batch-size 64");
  CHECK_STR(err.fix, "global_batch_size=64");
  base(&p);
  set(&p, "ep_size", "3");
  set(&p, "total_gpus", "12");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_STR(err.field, "ep_size");
  CHECK_HAS(err.message, "128 experts do not divide over --ep-size 3");
  /* No expert count alone divides 12 GPUs and 1,024 sequences: ep 2 with
  ** 16 GPUs is as near as ep 4 with 16, and uses fewer experts per rank. */
  CHECK_STR(err.fix, "ep_size=2,total_gpus=16");
  CHECK_HAS(err.message, "the nearest layout that passes every check: --ep-size 2 --total-gpus 16");
  base(&p);
  set(&p, "ep_size", "64");
  set(&p, "total_gpus", "256");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_UNSUPPORTED);
  CHECK_HAS(err.message, "asserts ep <= 32");
  base(&p);
  set(&p, "cp_size", "2");
  set(&p, "total_gpus", "64");
  set(&p, "sequence_length", "4098");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_HAS(err.message, "not a multiple of 2*cp = 4");
  CHECK_STR(err.fix, "sequence_length=4096");
  base(&p);
  set(&p, "pp_size", "25");
  set(&p, "total_gpus", "200");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LAYOUT);
  CHECK_HAS(err.message, "48 layers, fewer than the 2*pp = 50 stages");
  CHECK_STR(err.fix, "pp_size=24,total_gpus=192");
  base(&p);
  set(&p, "pp_rank", "4");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_VALUE);
  base(&p);
  set(&p, "gpu_memory_gb", "80");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "either --gpu or --gpu-memory-gb");
}

static void test_configs(void) {
  memest_params p;
  memest_error err;
  base(&p);
  CHECK_I64(run("{\n  \"model_type\": \"qwen3_moe\",\n  \"hidden_size\" 2048\n}", &p, &err),
            MEMEST_E_JSON);
  CHECK_I64(err.line, 3);
  CHECK_HAS(err.message, "line 3");
  CHECK_I64(run("", &p, &err), MEMEST_E_JSON);
  CHECK_I64(run("[1, 2]", &p, &err), MEMEST_E_CONFIG);
  CHECK_I64(run("{\"model_type\": \"qwen3_moe\"} trailing", &p, &err), MEMEST_E_JSON);
  CHECK_I64(run("{\"model_type\": \"qwen3_moe\", \"num_attention_heads\": 32, "
                "\"num_hidden_layers\": 48, \"vocab_size\": 1000}",
                &p, &err),
            MEMEST_E_CONFIG);
  CHECK_STR(err.field, "hidden_size");
  CHECK_HAS(err.message, "'hidden_size' is missing");
  CHECK_I64(run("{\"model_type\": \"qwen3_moe\", \"hidden_size\": \"2048\"}", &p, &err),
            MEMEST_E_CONFIG);
  CHECK_HAS(err.message, "must be a whole number, got a string");
  CHECK_I64(run("{\"model_type\": \"qwen3_moe\", \"hidden_size\": 1e30, "
                "\"num_attention_heads\": 32, \"num_hidden_layers\": 48, \"vocab_size\": 1000}",
                &p, &err),
            MEMEST_E_LIMIT);
  /* An unknown model_type without the generic keys is refused ... */
  CHECK_I64(run("{\"model_type\": \"mamba\", \"d_model\": 2048}", &p, &err), MEMEST_E_UNSUPPORTED);
  CHECK_HAS(err.message, "unknown model_type 'mamba'");
  /* ... and a nested level too deep is a limit, not a stack overflow. */
  {
    char deep[400];
    int i;
    for (i = 0; i < 100; i++) deep[i] = '[';
    for (i = 100; i < 200; i++) deep[i] = ']';
    deep[200] = '\0';
    CHECK_I64(run(deep, &p, &err), MEMEST_E_LIMIT);
  }
  memset(&p, 0, sizeof p);
  base(&p);
  set(&p, "model", "no-such-model");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "qwen3-30b-a3b");
}

static void test_generic_model(void) {
  const char *llama =
      "{\"model_type\": \"llama\", \"hidden_size\": 1024, \"num_attention_heads\": 16, "
      "\"num_key_value_heads\": 4, \"num_hidden_layers\": 8, \"vocab_size\": 32000, "
      "\"intermediate_size\": 4096}";
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  char *json;
  check_params(&p, "llama.json", 2, 1, 1, 4, 1, 16, 1024, "h100");
  CHECK_I64(memest_estimate(llama, strlen(llama), &p, &r, &err), MEMEST_OK);
  if (r == NULL) return;
  json = memest_result_json(r);
  CHECK_HAS(json, "model_type 'llama' is not one the trainer runs");
  CHECK_HAS(json, "\"architecture\":\"generic (Qwen3-style layer)\"");
  memest_free(json);
  memest_result_free(r);
  /* ep > 1 on a model without experts is a layout error. */
  check_params(&p, "llama.json", 2, 2, 1, 4, 1, 16, 1024, "h100");
  CHECK_I64(run(llama, &p, &err), MEMEST_E_LAYOUT);
  CHECK_STR(err.fix, "ep_size=1");
}

/* Each family's reader refuses top_k above its expert count and kv heads
** that do not divide the query heads: every shipped model file, edited. */
static memest_code run_edited(const char *file, const char *key, double value,
                              memest_error *err) {
  char path[256], *text, *edited;
  size_t len;
  cJSON *root, *keys;
  memest_params p;
  memest_code rc;
  snprintf(path, sizeof path, CHECK_MODELS "%s", file);
  text = check_read_file(path, &len);
  CHECK(text != NULL);
  if (text == NULL) return MEMEST_OK;
  root = cJSON_Parse(text);
  free(text);
  keys = cJSON_GetObjectItemCaseSensitive(root, "text_config");
  if (keys == NULL) keys = root;
  cJSON_ReplaceItemInObjectCaseSensitive(keys, key, cJSON_CreateNumber(value));
  edited = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  check_params(&p, file, 1, 1, 1, 1, 1, 2, 1024, "h100");
  rc = run(edited, &p, err);
  free(edited);
  return rc;
}

/* The value of the first of keys the config has (in text_config when it
** nests them); *found names it. */
static double config_number(const char *file, const char *const *keys, const char **found) {
  char path[256], *text;
  size_t len;
  cJSON *root, *scope, *v = NULL;
  double out = 0;
  *found = NULL;
  snprintf(path, sizeof path, CHECK_MODELS "%s", file);
  text = check_read_file(path, &len);
  if (text == NULL) return 0;
  root = cJSON_Parse(text);
  free(text);
  scope = cJSON_GetObjectItemCaseSensitive(root, "text_config");
  if (scope == NULL) scope = root;
  for (; *keys != NULL && v == NULL; keys++) {
    v = cJSON_GetObjectItemCaseSensitive(scope, *keys);
    if (v != NULL) *found = *keys;
  }
  if (cJSON_IsNumber(v)) out = v->valuedouble;
  cJSON_Delete(root);
  return out;
}

static void test_family_checks(void) {
  static const char *const files[] = {"qwen3-30b-a3b.json",   "qwen3-235b-a22b.json",
                                      "deepseek-v2-lite.json", "deepseek-v3.json",
                                      "gpt-oss-20b.json",      "gpt-oss-120b.json",
                                      "mixtral-8x7b.json",     "qwen3.5-35b-a3b.json"};
  static const char *const expert_keys[] = {"num_experts", "n_routed_experts",
                                            "num_local_experts", NULL};
  static const char *const top_k_key[] = {"num_experts_per_tok", NULL};
  static const char *const head_key[] = {"num_attention_heads", NULL};
  size_t i;
  memest_error err;
  for (i = 0; i < sizeof files / sizeof files[0]; i++) {
    const char *experts_key, *found;
    double top_k = config_number(files[i], top_k_key, &found);
    double heads = config_number(files[i], head_key, &found);
    /* Mixtral is read by the generic reader, which says why it refuses. */
    memest_code want =
        strncmp(files[i], "mixtral", 7) == 0 ? MEMEST_E_UNSUPPORTED : MEMEST_E_CONFIG;
    config_number(files[i], expert_keys, &experts_key);
    CHECK(experts_key != NULL && top_k >= 2 && heads >= 8);
    if (experts_key == NULL) continue;
    CHECK_I64(run_edited(files[i], experts_key, top_k - 1, &err), want);
    CHECK_HAS(err.message, "but there are only");
    if (want == MEMEST_E_CONFIG) CHECK_STR(err.field, "num_experts_per_tok");
    if (strncmp(files[i], "deepseek", 8) == 0) continue; /* MLA: no kv-head groups */
    CHECK_I64(run_edited(files[i], "num_key_value_heads", heads - 1, &err), want);
    CHECK_HAS(err.message, "must divide num_attention_heads");
    if (want == MEMEST_E_CONFIG) CHECK_STR(err.field, "num_key_value_heads");
  }
}

int main(void) {
  test_values();
  test_missing();
  test_layouts();
  test_configs();
  test_generic_model();
  test_family_checks();
  return check_done("test_errors");
}
