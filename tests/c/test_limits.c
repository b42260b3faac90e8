/*
** test_limits.c — every limit in core/base/bounds.h at its boundary: the maximum
** is accepted and the maximum + 1 refused with MEMEST_E_LIMIT (or the code
** the check names), and an estimate at an accepted extreme finishes within
** a time budget and a memory budget (docs/limits.md).
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "base/bounds.h"
#include "check.h"

/* CPU seconds an accepted extreme may take; sanitizer builds run slower. */
#if defined(__SANITIZE_ADDRESS__)
#define TIME_BUDGET 10.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIME_BUDGET 10.0
#endif
#endif
#ifndef TIME_BUDGET
#define TIME_BUDGET 2.0
#define RSS_BUDGET_KIB (512L * 1024L)
#else
#define RSS_BUDGET_KIB (3L * 1024L * 1024L)
#endif

/* Processor time, so that a busy machine does not fail the budget. */
static double now_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

static void set(memest_params *p, const char *k, const char *v) {
  memest_error err;
  memest_code rc = memest_params_set(p, k, v, &err);
  if (rc != MEMEST_OK) fprintf(stderr, "set %s=%s: %s\n", k, v, err.message);
  CHECK_I64(rc, MEMEST_OK);
}

static void set_i(memest_params *p, const char *k, long long v) {
  char b[32];
  snprintf(b, sizeof b, "%lld", v);
  set(p, k, b);
}

/* memest_params_set's answer for name=value, as text or integer. */
static memest_code try_set(const char *k, const char *v) {
  memest_params p;
  memest_error err;
  memest_params_init(&p);
  return memest_params_set(&p, k, v, &err);
}

static memest_code try_i(const char *k, long long v) {
  char b[32];
  snprintf(b, sizeof b, "%lld", v);
  return try_set(k, b);
}

/* A qwen3_moe config; head_dim < 0 leaves the key out. */
typedef struct cfg {
  long long hidden, heads, kv, head_dim, layers, vocab, experts, top_k, inter;
} cfg;

static const cfg small_cfg = {256, 4, 2, 64, 16, 1000, 8, 2, 128};

static char *cfg_text(const cfg *c) {
  char *t = malloc(1024);
  int n = snprintf(t, 1024,
                   "{\"model_type\": \"qwen3_moe\", \"hidden_size\": %lld, "
                   "\"num_attention_heads\": %lld, \"num_key_value_heads\": %lld, "
                   "\"num_hidden_layers\": %lld, \"vocab_size\": %lld, \"num_experts\": %lld, "
                   "\"num_experts_per_tok\": %lld, \"moe_intermediate_size\": %lld",
                   c->hidden, c->heads, c->kv, c->layers, c->vocab, c->experts, c->top_k,
                   c->inter);
  if (c->head_dim >= 0) n += snprintf(t + n, 1024 - (size_t)n, ", \"head_dim\": %lld", c->head_dim);
  snprintf(t + n, 1024 - (size_t)n, "}");
  return t;
}

/* A run of the small config that any layout check accepts. */
static void base(memest_params *p, long long pp, long long ep, long long cp, long long gpus,
                 long long mbs, long long gbs, long long seq) {
  memest_params_init(p);
  set(p, "model", "limits");
  set_i(p, "pp_size", pp);
  set_i(p, "ep_size", ep);
  set_i(p, "cp_size", cp);
  set_i(p, "total_gpus", gpus);
  set_i(p, "micro_batch_size", mbs);
  set_i(p, "global_batch_size", gbs);
  set_i(p, "sequence_length", seq);
  set(p, "gpu", "h200");
}

/* Estimates text with p within the time budget; returns the code and,
** for a success, checks that the result prints. */
static memest_code run_timed(const char *what, const char *text, const memest_params *p,
                             memest_error *err) {
  memest_result *r = NULL;
  memest_error local;
  memest_code rc;
  double t0 = now_s(), dt;
  if (err == NULL) err = &local;
  rc = memest_estimate(text, text ? strlen(text) : 0, p, &r, err);
  if (rc == MEMEST_OK) {
    char *json = memest_result_json(r), *report = memest_result_text(r);
    CHECK(json != NULL && report != NULL);
    memest_free(json);
    memest_free(report);
    memest_result_free(r);
  }
  dt = now_s() - t0;
  if (dt > TIME_BUDGET) {
    fprintf(stderr, "%s took %.2f s, over the %.1f s budget\n", what, dt, TIME_BUDGET);
    check_failures++;
  }
  if (getenv("MEMEST_LIMITS_VERBOSE")) {
    printf("  %-44s %-9s %.3f s\n", what, memest_code_name(rc), dt);
  }
  return rc;
}

static memest_code run_cfg(const char *what, const cfg *c, const memest_params *p,
                           memest_error *err) {
  char *t = cfg_text(c);
  memest_code rc = run_timed(what, t, p, err);
  free(t);
  return rc;
}

/* {======================================================================
** Parameters: memest_params_set, one value at a time
** ======================================================================= */
static void test_param_bounds(void) {
  static const struct {
    const char *name;
    long long lo, hi;
  } ints[] = {
    {"pp_size", 1, MEMEST_MAX_PP},
    {"ep_size", 1, MEMEST_MAX_GPUS},
    {"cp_size", 1, MEMEST_MAX_CP},
    {"total_gpus", 1, MEMEST_MAX_GPUS},
    {"micro_batch_size", 1, MEMEST_MAX_MICRO_BATCH},
    {"global_batch_size", 1, MEMEST_MAX_GLOBAL_BATCH},
    {"sequence_length", 1, MEMEST_MAX_SEQUENCE},
    {"pp_rank", -1, MEMEST_MAX_PP - 1},
    {"timeline_limit", 0, MEMEST_MAX_TIMELINE_EVENTS},
  };
  char buf[1024], v[64];
  size_t i;
  for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    CHECK_I64(try_i(ints[i].name, ints[i].hi), MEMEST_OK);
    CHECK_I64(try_i(ints[i].name, ints[i].hi + 1), MEMEST_E_LIMIT);
    CHECK_I64(try_i(ints[i].name, ints[i].lo), MEMEST_OK);
    CHECK_I64(try_i(ints[i].name, ints[i].lo - 1), MEMEST_E_VALUE);
  }
  CHECK_I64(try_set("pp_size", "99999999999999999999999"), MEMEST_E_LIMIT);
  /* GPU memory: [MEMEST_MIN_GPU_GIB, MEMEST_MAX_GPU_GIB]. */
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_GPU_GIB);
  CHECK_I64(try_set("gpu_memory_gb", v), MEMEST_OK);
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_GPU_GIB * (1 + 1e-12));
  CHECK_I64(try_set("gpu_memory_gb", v), MEMEST_E_LIMIT);
  snprintf(v, sizeof v, "%.17g", MEMEST_MIN_GPU_GIB);
  CHECK_I64(try_set("gpu_memory_gb", v), MEMEST_OK);
  snprintf(v, sizeof v, "%.17g", MEMEST_MIN_GPU_GIB * (1 - 1e-12));
  CHECK_I64(try_set("gpu_memory_gb", v), MEMEST_E_VALUE);
  CHECK_I64(try_set("gpu_memory_gb", "1e-310"), MEMEST_E_VALUE);
  /* Routing skew and fragmentation. */
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_EP_IMBALANCE);
  CHECK_I64(try_set("ep_imbalance", v), MEMEST_OK);
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_EP_IMBALANCE * (1 + 1e-12));
  CHECK_I64(try_set("ep_imbalance", v), MEMEST_E_LIMIT);
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_FRAGMENTATION);
  CHECK_I64(try_set("fragmentation", v), MEMEST_OK);
  snprintf(v, sizeof v, "%.17g", MEMEST_MAX_FRAGMENTATION * (1 + 1e-12));
  CHECK_I64(try_set("fragmentation", v), MEMEST_E_LIMIT);
  /* The model label fills memest_params.model, NUL included. */
  memset(buf, 'm', sizeof buf);
  buf[sizeof ((memest_params *)0)->model - 1] = '\0';
  CHECK_I64(try_set("model", buf), MEMEST_OK);
  buf[sizeof ((memest_params *)0)->model - 1] = 'm';
  buf[sizeof ((memest_params *)0)->model] = '\0';
  CHECK_I64(try_set("model", buf), MEMEST_E_LIMIT);
}
/* }====================================================================== */

/* {======================================================================
** The config: size, nesting and every key's range
** ======================================================================= */
static void test_config_size_and_depth(void) {
  memest_params p;
  memest_error err;
  char *t = cfg_text(&small_cfg), *big;
  size_t n = strlen(t);
  base(&p, 1, 1, 1, 1, 1, 2, 64);
  /* Exactly MEMEST_MAX_CONFIG_BYTES: the config padded with spaces. */
  big = malloc(MEMEST_MAX_CONFIG_BYTES + 2);
  memcpy(big, t, n);
  memset(big + n, ' ', MEMEST_MAX_CONFIG_BYTES - n);
  big[MEMEST_MAX_CONFIG_BYTES] = '\0';
  CHECK_I64(run_timed("config of MEMEST_MAX_CONFIG_BYTES", big, &p, NULL), MEMEST_OK);
  big[MEMEST_MAX_CONFIG_BYTES] = ' ';
  big[MEMEST_MAX_CONFIG_BYTES + 1] = '\0';
  CHECK_I64(run_timed("config of MEMEST_MAX_CONFIG_BYTES + 1", big, &p, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_CONFIG_BYTES");
  free(big);
  /* MEMEST_MAX_JSON_DEPTH levels, the config object counting as one. */
  big = malloc(n + 2 * MEMEST_MAX_JSON_DEPTH + 64);
  {
    int depth;
    for (depth = MEMEST_MAX_JSON_DEPTH; depth <= MEMEST_MAX_JSON_DEPTH + 1; depth++) {
      size_t k = 0;
      int d;
      memcpy(big, t, n - 1);              /* without the closing brace */
      k = n - 1;
      memcpy(big + k, ", \"x\": ", 7);
      k += 7;
      for (d = 1; d < depth; d++) big[k++] = '[';
      for (d = 1; d < depth; d++) big[k++] = ']';
      big[k++] = '}';
      big[k] = '\0';
      CHECK_I64(run_timed("config nested to the depth limit", big, &p, &err),
                depth <= MEMEST_MAX_JSON_DEPTH ? MEMEST_OK : MEMEST_E_LIMIT);
    }
    CHECK_HAS(err.message, "MEMEST_MAX_JSON_DEPTH");
  }
  free(big);
  free(t);
}

static void test_config_keys(void) {
  static const struct {
    const char *what;
    size_t off;          /* field of cfg */
    long long max;
    const char *limit;   /* the limit's name, which the refusal gives */
  } keys[] = {
    {"hidden_size", offsetof(cfg, hidden), MEMEST_MAX_HIDDEN, "MEMEST_MAX_HIDDEN"},
    {"num_attention_heads", offsetof(cfg, heads), MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS"},
    {"num_key_value_heads", offsetof(cfg, kv), MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS"},
    {"head_dim", offsetof(cfg, head_dim), MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"num_hidden_layers", offsetof(cfg, layers), MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
    {"vocab_size", offsetof(cfg, vocab), MEMEST_MAX_VOCAB, "MEMEST_MAX_VOCAB"},
    {"num_experts", offsetof(cfg, experts), MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS"},
    {"num_experts_per_tok", offsetof(cfg, top_k), MEMEST_MAX_TOP_K, "MEMEST_MAX_TOP_K"},
    {"moe_intermediate_size", offsetof(cfg, inter), MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE"},
  };
  memest_params p;
  memest_error err;
  size_t i;
  base(&p, 1, 1, 1, 1, 1, 2, 64);
  for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    cfg c = small_cfg;
    long long *f = (long long *)((char *)&c + keys[i].off);
    char what[96];
    memest_code rc;
    /* Keep the other keys consistent with the extreme one. */
    if (keys[i].off == offsetof(cfg, heads)) c.kv = 1;
    if (keys[i].off == offsetof(cfg, kv)) c.heads = MEMEST_MAX_HEADS;
    if (keys[i].off == offsetof(cfg, top_k)) c.experts = MEMEST_MAX_TOP_K;
    if (keys[i].off == offsetof(cfg, hidden)) c.heads = MEMEST_MAX_HIDDEN / MEMEST_MAX_HEAD_DIM;
    *f = keys[i].max;
    snprintf(what, sizeof what, "%s at its maximum", keys[i].what);
    rc = run_cfg(what, &c, &p, &err);
    /* Accepted: it estimates, or its byte counts overflow and say so. */
    if (rc != MEMEST_OK) fprintf(stderr, "%s: %s\n", what, err.message);
    CHECK(rc == MEMEST_OK || rc == MEMEST_E_OVERFLOW);
    *f = keys[i].max + 1;
    snprintf(what, sizeof what, "%s over its maximum", keys[i].what);
    CHECK_I64(run_cfg(what, &c, &p, &err), MEMEST_E_LIMIT);
    CHECK_HAS(err.message, keys[i].limit);
    CHECK_STR(err.field, keys[i].what);
  }
  /* A dense generic config names its MLP width in intermediate_size. */
  {
    char t[512];
    long long inter;
    for (inter = MEMEST_MAX_INTERMEDIATE; inter <= MEMEST_MAX_INTERMEDIATE + 1; inter++) {
      snprintf(t, sizeof t,
               "{\"model_type\": \"llama\", \"hidden_size\": 256, \"num_attention_heads\": 4, "
               "\"num_hidden_layers\": 4, \"vocab_size\": 1000, \"intermediate_size\": %lld}",
               inter);
      CHECK_I64(run_timed("dense intermediate_size at the limit", t, &p, &err),
                inter <= MEMEST_MAX_INTERMEDIATE ? MEMEST_OK : MEMEST_E_LIMIT);
    }
  }
}

/* One key of a shared config set to v (in text_config when the decoder
** keys live there); NULL if the file is missing. */
static char *config_with(const char *file, const char *key, long long v) {
  char path[256], *text, *out;
  cJSON *root, *obj;
  snprintf(path, sizeof path, CHECK_MODELS "%s.json", file);
  text = check_read_file(path, NULL);
  if (text == NULL) return NULL;
  root = cJSON_Parse(text);
  free(text);
  if (root == NULL) return NULL;
  obj = root;
  if (cJSON_GetObjectItemCaseSensitive(root, key) == NULL &&
      cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "text_config"))) {
    obj = cJSON_GetObjectItemCaseSensitive(root, "text_config");
  }
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  cJSON_AddNumberToObject(obj, key, (double)v);
  out = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  return out;
}

/* The keys only one family reads, each at its limit and one past it. At
** the limit the key itself is not what refuses the run (another check
** may); one past it is MEMEST_E_LIMIT naming the key. */
static void test_family_keys(void) {
  static const struct {
    const char *file, *key;
    long long max;
    const char *limit;   /* the limit's name, which the refusal gives */
  } keys[] = {
    {"deepseek-v3", "q_lora_rank", MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE"},
    {"deepseek-v3", "kv_lora_rank", MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE"},
    {"deepseek-v3", "qk_nope_head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"deepseek-v3", "qk_rope_head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"deepseek-v3", "v_head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"deepseek-v3", "n_routed_experts", MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS"},
    {"deepseek-v3", "n_shared_experts", MEMEST_MAX_SHARED_EXPERTS, "MEMEST_MAX_SHARED_EXPERTS"},
    {"deepseek-v3", "first_k_dense_replace", MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
    {"deepseek-v3", "num_nextn_predict_layers", MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
    {"gpt-oss-20b", "sliding_window", MEMEST_MAX_SEQUENCE, "MEMEST_MAX_SEQUENCE"},
    {"gpt-oss-20b", "head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"gpt-oss-20b", "num_local_experts", MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS"},
    {"qwen3.5-35b-a3b", "linear_num_key_heads", MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS"},
    {"qwen3.5-35b-a3b", "linear_num_value_heads", MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS"},
    {"qwen3.5-35b-a3b", "linear_key_head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"qwen3.5-35b-a3b", "linear_value_head_dim", MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
    {"qwen3.5-35b-a3b", "linear_conv_kernel_dim", MEMEST_MAX_CONV_KERNEL, "MEMEST_MAX_CONV_KERNEL"},
    {"qwen3.5-35b-a3b", "shared_expert_intermediate_size", MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE"},
    {"qwen3.5-35b-a3b", "full_attention_interval", MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
    {"qwen3.5-35b-a3b", "mtp_num_hidden_layers", MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
  };
  memest_params p;
  memest_error err;
  size_t i;
  base(&p, 1, 1, 1, 1, 1, 2, 64);
  for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    char what[96], *t = config_with(keys[i].file, keys[i].key, keys[i].max);
    memest_code rc;
    if (t == NULL) {
      fprintf(stderr, "%s: " CHECK_MODELS "%s.json is missing\n", keys[i].key, keys[i].file);
      check_failures++;
      continue;
    }
    snprintf(what, sizeof what, "%s at its maximum", keys[i].key);
    rc = run_timed(what, t, &p, &err);
    if (rc == MEMEST_E_LIMIT) CHECK(strcmp(err.field, keys[i].key) != 0);
    free(t);
    t = config_with(keys[i].file, keys[i].key, keys[i].max + 1);
    snprintf(what, sizeof what, "%s over its maximum", keys[i].key);
    CHECK_I64(run_timed(what, t, &p, &err), MEMEST_E_LIMIT);
    CHECK_STR(err.field, keys[i].key);
    CHECK_HAS(err.message, keys[i].limit);
    free(t);
  }
}

/* Every config key at its maximum at once: refused with an overflow, in
** bounded time, never a crash. */
static void test_config_all_max(void) {
  cfg c = {MEMEST_MAX_HIDDEN, MEMEST_MAX_HIDDEN / MEMEST_MAX_HEAD_DIM, 1, MEMEST_MAX_HEAD_DIM,
           MEMEST_MAX_LAYERS, MEMEST_MAX_VOCAB, MEMEST_MAX_EXPERTS, MEMEST_MAX_TOP_K,
           MEMEST_MAX_INTERMEDIATE};
  memest_params p;
  memest_error err;
  memest_code rc;
  base(&p, MEMEST_MAX_PP, 1, 1, MEMEST_MAX_PP, MEMEST_MAX_MICRO_BATCH,
       2LL * MEMEST_MAX_PP * MEMEST_MAX_MICRO_BATCH, MEMEST_MAX_SEQUENCE);
  rc = run_cfg("every config key at its maximum", &c, &p, &err);
  CHECK(rc == MEMEST_OK || rc == MEMEST_E_OVERFLOW);
  if (rc != MEMEST_OK) CHECK_HAS(err.message, "overflow");
}
/* }====================================================================== */

/* {======================================================================
** The layout: degrees, chunks, the replay's work and the timeline
** ======================================================================= */
static void test_layout_bounds(void) {
  cfg deep = small_cfg;
  memest_params p;
  memest_error err;
  char *t = cfg_text(&small_cfg);
  long long n;
  /* pp: MEMEST_MAX_PP needs 2 * MEMEST_MAX_PP layers. */
  deep.layers = MEMEST_MAX_LAYERS;
  base(&p, MEMEST_MAX_PP, 1, 1, MEMEST_MAX_PP, 1, 2 * MEMEST_MAX_PP, 64);
  CHECK_I64(run_cfg("pp at MEMEST_MAX_PP, every rank", &deep, &p, NULL), MEMEST_OK);
  set(&p, "pp_rank", "0");
  CHECK_I64(run_cfg("pp at MEMEST_MAX_PP, one rank", &deep, &p, NULL), MEMEST_OK);
  /* ep: the trainer's 32. */
  {
    cfg c = small_cfg;
    c.experts = MEMEST_MAX_EP;
    base(&p, 1, MEMEST_MAX_EP, 1, MEMEST_MAX_EP, 1, 2 * MEMEST_MAX_EP, 64);
    CHECK_I64(run_cfg("ep at MEMEST_MAX_EP", &c, &p, NULL), MEMEST_OK);
    c.experts = 2 * MEMEST_MAX_EP;
    base(&p, 1, MEMEST_MAX_EP + 1, 1, MEMEST_MAX_EP + 1, 1, 2 * (MEMEST_MAX_EP + 1), 64);
    CHECK_I64(run_cfg("ep over MEMEST_MAX_EP", &c, &p, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, "ep_size");
  }
  /* cp: MEMEST_MAX_CP splits a sequence of 2 * MEMEST_MAX_CP tokens. */
  base(&p, 1, 1, MEMEST_MAX_CP, MEMEST_MAX_CP, 1, 2, 2 * MEMEST_MAX_CP);
  CHECK_I64(run_timed("cp at MEMEST_MAX_CP", t, &p, NULL), MEMEST_OK);
  /* total_gpus and dp: MEMEST_MAX_GPUS data-parallel ranks. */
  base(&p, 1, 1, 1, MEMEST_MAX_GPUS, 1, 2LL * MEMEST_MAX_GPUS, 64);
  CHECK_I64(run_timed("dp at MEMEST_MAX_DP", t, &p, NULL), MEMEST_OK);
  /* micro batch, sequence and global batch at their maxima. */
  base(&p, 1, 1, 1, 1, MEMEST_MAX_MICRO_BATCH, 2LL * MEMEST_MAX_MICRO_BATCH, 64);
  CHECK_I64(run_timed("micro batch at MEMEST_MAX_MICRO_BATCH", t, &p, NULL), MEMEST_OK);
  base(&p, 1, 1, 1, 1, 1, 2, MEMEST_MAX_SEQUENCE);
  CHECK_I64(run_timed("sequence at MEMEST_MAX_SEQUENCE", t, &p, NULL), MEMEST_OK);
  base(&p, 1, 1, 1, MEMEST_MAX_GLOBAL_BATCH / MEMEST_MAX_CHUNKS / MEMEST_MAX_MICRO_BATCH,
       MEMEST_MAX_MICRO_BATCH, MEMEST_MAX_GLOBAL_BATCH, 64);
  CHECK_I64(run_timed("global batch at MEMEST_MAX_GLOBAL_BATCH", t, &p, NULL), MEMEST_OK);
  /* Chunks per step: MEMEST_MAX_CHUNKS on one rank. */
  base(&p, 2, 1, 1, 2, 1, MEMEST_MAX_CHUNKS, 64);
  set(&p, "pp_rank", "1");
  CHECK_I64(run_timed("MEMEST_MAX_CHUNKS chunks", t, &p, NULL), MEMEST_OK);
  base(&p, 2, 1, 1, 2, 1, MEMEST_MAX_CHUNKS + 1, 64);
  set(&p, "pp_rank", "1");
  CHECK_I64(run_timed("MEMEST_MAX_CHUNKS + 1 chunks", t, &p, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_CHUNKS");
  /* The replay: chunks x ranks up to MEMEST_MAX_REPLAY_CHUNKS. */
  n = MEMEST_MAX_REPLAY_CHUNKS / 4;
  base(&p, 4, 1, 1, 4, 1, n, 64);
  CHECK_I64(run_timed("MEMEST_MAX_REPLAY_CHUNKS on 4 ranks", t, &p, NULL), MEMEST_OK);
  n = MEMEST_MAX_REPLAY_CHUNKS / 5;
  base(&p, 5, 1, 1, 5, 1, n, 64);
  CHECK_I64(run_timed("MEMEST_MAX_REPLAY_CHUNKS on 5 ranks", t, &p, NULL), MEMEST_OK);
  base(&p, 5, 1, 1, 5, 1, n + 1, 64);
  CHECK_I64(run_timed("over MEMEST_MAX_REPLAY_CHUNKS on 5 ranks", t, &p, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_REPLAY_CHUNKS");
  CHECK_STR(err.field, "global_batch_size");
  CHECK_STR(err.fix, "pp_rank=0");
  set(&p, "pp_rank", "0");
  CHECK_I64(run_timed("the same on one rank", t, &p, NULL), MEMEST_OK);
  free(t);
}

static void test_timeline_bounds(void) {
  memest_params p;
  memest_error err;
  char *t = cfg_text(&small_cfg);
  long long per_rank;
  /* One rank keeps MEMEST_MAX_TIMELINE_EVENTS of a longer schedule. */
  base(&p, 2, 1, 1, 2, 1, MEMEST_MAX_TIMELINE_EVENTS, 64);
  set(&p, "timeline", "true");
  set_i(&p, "timeline_limit", MEMEST_MAX_TIMELINE_EVENTS);
  set(&p, "pp_rank", "0");
  CHECK_I64(run_timed("timeline of MEMEST_MAX_TIMELINE_EVENTS", t, &p, NULL), MEMEST_OK);
  /* Every rank: the limit is on the events kept over all of them. */
  set(&p, "pp_rank", "-1");
  CHECK_I64(run_timed("the same on every rank", t, &p, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_TIMELINE_EVENTS");
  CHECK_STR(err.field, "timeline_limit");
  set_i(&p, "timeline_limit", MEMEST_MAX_TIMELINE_EVENTS / 2);
  CHECK_I64(run_timed("half of it on each of 2 ranks", t, &p, NULL), MEMEST_OK);
  set_i(&p, "timeline_limit", MEMEST_MAX_TIMELINE_EVENTS / 2 + 1);
  CHECK_I64(run_timed("half of it + 1 on each of 2 ranks", t, &p, &err), MEMEST_E_LIMIT);
  /* The whole timeline (limit 0): rank 0 has 2N + 5P + 3 events at most,
  ** 2N + 5P + 4 is what the check counts. */
  per_rank = MEMEST_MAX_TIMELINE_EVENTS / 2;   /* 2 ranks */
  base(&p, 2, 1, 1, 2, 1, (per_rank - 5 * 2 - 4) / 2, 64);
  set(&p, "timeline", "true");
  set(&p, "timeline_limit", "0");
  CHECK_I64(run_timed("a whole timeline at the limit", t, &p, NULL), MEMEST_OK);
  base(&p, 2, 1, 1, 2, 1, (per_rank - 5 * 2 - 4) / 2 + 1, 64);
  set(&p, "timeline", "true");
  set(&p, "timeline_limit", "0");
  CHECK_I64(run_timed("a whole timeline over the limit", t, &p, &err), MEMEST_E_LIMIT);
  free(t);
}
/* }====================================================================== */

/* {======================================================================
** memest_params filled directly, without memest_params_set
** ======================================================================= */
static void test_struct_ranges(void) {
  memest_params p;
  memest_error err;
  memest_result *r = NULL;
  base(&p, 4, 8, 1, 32, 1, 1024, 4096);
  set(&p, "model", "qwen3-30b-a3b");
  p.pp_size = 0;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "pp_size");
  p.pp_size = MEMEST_MAX_PP + 1;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_LIMIT);
  p.pp_size = 4;
  p.total_gpus = -32;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  p.total_gpus = 32;
  p.ep_imbalance = 0.5;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "ep_imbalance");
  p.ep_imbalance = NAN;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  p.fragmentation = NAN;
  p.ep_imbalance = 1.0;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "fragmentation");
  p.fragmentation = 0.1;
  p.ep_imbalance = 1.0;
  p.optimizer = (memest_optimizer)7;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_UNKNOWN);
  p.optimizer = MEMEST_ADAMW;
  memcpy(p.gpu, "tpu", 4);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_UNKNOWN);
  CHECK_STR(err.field, "gpu");
  memcpy(p.gpu, "h100", 5);
  memset(p.model, 'x', sizeof p.model);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "model");
  CHECK(r == NULL);
  CHECK(memest_validate(NULL, 0, &p, &err, 1) == 1);
}
/* }====================================================================== */

int main(void) {
  struct rusage ru;
  test_param_bounds();
  test_config_size_and_depth();
  test_config_keys();
  test_family_keys();
  test_config_all_max();
  test_layout_bounds();
  test_timeline_bounds();
  test_struct_ranges();
  /* Memory: every accepted extreme above ran in this process. */
  getrusage(RUSAGE_SELF, &ru);
  if (ru.ru_maxrss > RSS_BUDGET_KIB) {
    fprintf(stderr, "peak RSS %ld KiB is over the budget of %ld KiB\n", ru.ru_maxrss,
            (long)RSS_BUDGET_KIB);
    check_failures++;
  }
  return check_done("test_limits");
}
