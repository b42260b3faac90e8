/*
** test_params.c — the parameter table (core/base/params.c) and what it drives:
** every row's bounds enforced at min, max, min-1 and max+1 both by
** memest_params_set and by the check of stored values, the defaults that
** memest_params_init applies, the enum names, the equivalent command and
** the reason codes that layout problems carry.
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "check.h"

static memest_code try_set(const char *name, const char *v, memest_error *err) {
  memest_params p;
  memest_params_init(&p);
  return memest_params_set(&p, name, v, err);
}

static void fmt_bound(char *buf, size_t size, const memest_param_info *pi, double v) {
  if (strcmp(pi->kind, "int") == 0) snprintf(buf, size, "%lld", (long long)v);
  else snprintf(buf, size, "%.17g", v);
}

/* A valid run on the default example, to which one stored value is added. */
static void valid_run(memest_params *p) {
  memest_params_init(p);
  check_params(p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
}

/* Stores v in row pi's field of p, as a C caller filling the struct would. */
static void store(memest_params *p, const memest_param_info *pi, double v) {
  char *f = (char *)p + pi->offset;
  if (strcmp(pi->kind, "int") == 0) {
    int64_t x = (int64_t)v;
    memcpy(f, &x, sizeof x);
  } else {
    memcpy(f, &v, sizeof v);
  }
}

static void test_bounds_from_table(void) {
  int id, rows = 0;
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    int is_int = strcmp(pi->kind, "int") == 0;
    double above, below;
    char v[64];
    memest_error err;
    if (!is_int && strcmp(pi->kind, "number") != 0) continue;
    rows++;
    CHECK(pi->max > pi->min);
    CHECK(pi->limit[0] != '\0');
    above = is_int ? pi->max + 1 : pi->max * (1 + 1e-12);
    below = is_int ? pi->min - 1 : (pi->min > 0 ? pi->min * (1 - 1e-12) : -1e-9);
    fmt_bound(v, sizeof v, pi, pi->max);
    CHECK_I64(try_set(pi->name, v, &err), MEMEST_OK);
    fmt_bound(v, sizeof v, pi, pi->min);
    CHECK_I64(try_set(pi->flag, v, &err), MEMEST_OK);
    fmt_bound(v, sizeof v, pi, above);
    CHECK_I64(try_set(pi->name, v, &err), MEMEST_E_LIMIT);
    CHECK_STR(err.field, pi->name);
    if (is_int) CHECK_HAS(err.message, pi->limit);
    fmt_bound(v, sizeof v, pi, below);
    CHECK_I64(try_set(pi->name, v, &err), MEMEST_E_VALUE);
    /* The same bounds on a value stored directly: max passes, max+1 is
    ** refused with the parameter, the reason and the limit's name. */
    {
      memest_params p;
      memest_error errs[4];
      int n, k;
      valid_run(&p);
      p.given |= 1u << id;
      if (id == MEMEST_P_GPU_MEMORY_GB) p.given &= ~(1u << MEMEST_P_GPU);
      store(&p, pi, pi->max);
      /* The layout may refuse the extreme; the range check does not. */
      n = memest_validate(NULL, 0, &p, errs, 4);
      for (k = 0; k < n && k < 4; k++) CHECK(errs[k].reason != MEMEST_R_RANGE);
      valid_run(&p);
      p.given |= 1u << id;
      if (id == MEMEST_P_GPU_MEMORY_GB) p.given &= ~(1u << MEMEST_P_GPU);
      store(&p, pi, above);
      CHECK_I64(memest_validate(NULL, 0, &p, errs, 4), 1);
      CHECK_I64(errs[0].code, MEMEST_E_LIMIT);
      CHECK_I64(errs[0].reason, MEMEST_R_RANGE);
      CHECK_STR(errs[0].field, pi->name);
      CHECK_HAS(errs[0].message, pi->flag);
      CHECK_HAS(errs[0].message, pi->limit);
      store(&p, pi, below);
      CHECK_I64(memest_validate(NULL, 0, &p, errs, 4), 1);
      CHECK_I64(errs[0].code, MEMEST_E_VALUE);
      CHECK_I64(errs[0].reason, MEMEST_R_RANGE);
    }
  }
  CHECK_I64(rows, 16);
  /* One name for pp_rank's limit, its value MEMEST_MAX_PP - 1. */
  CHECK_STR(memest_param_describe(MEMEST_P_PP_RANK)->limit, "MEMEST_MAX_PP - 1");
  CHECK_I64((int64_t)memest_param_describe(MEMEST_P_PP_RANK)->max, MEMEST_MAX_PP - 1);
  CHECK_I64((int64_t)memest_param_describe(MEMEST_P_GLOBAL_BATCH_SIZE)->max,
            MEMEST_MAX_GLOBAL_BATCH);
  CHECK_I64(memest_param_describe(MEMEST_P_SEQUENCE_LENGTH)->offset,
            offsetof(memest_params, sequence_length));
  CHECK_STR(memest_param_describe(MEMEST_P_TOTAL_GPUS)->label, "Total GPUs");
  CHECK_STR(memest_param_describe(MEMEST_P_PP_SIZE)->short_name, "pp");
}

/* Every parameter has a label and a short name, each its own: a page shows
** them for the controls and in its sentences, never the flag. */
static void test_labels(void) {
  int id, other;
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    CHECK(pi->label != NULL && pi->label[0] != '\0' && strstr(pi->label, "--") == NULL);
    CHECK(pi->short_name != NULL && pi->short_name[0] != '\0' && strchr(pi->short_name, '_') == NULL);
    for (other = 0; other < id; other++) {
      CHECK(strcmp(memest_param_describe((memest_param_id)other)->label, pi->label) != 0);
      CHECK(strcmp(memest_param_describe((memest_param_id)other)->short_name, pi->short_name) != 0);
    }
  }
}

static void test_defaults(void) {
  memest_params p, z;
  int id;
  memest_params_init(&p);
  CHECK_I64(p.pp_rank, -1);
  CHECK(p.ep_imbalance == 1.0);
  CHECK(p.fragmentation == 0.10);
  CHECK_I64(p.timeline_limit, 100);
  CHECK_I64(p.optimizer, MEMEST_ADAMW);
  CHECK_I64(p.sharding, MEMEST_FSDP);
  CHECK_I64(p.fp8_training, MEMEST_FP8_DISABLED);
  CHECK_I64(p.given, 0);
  /* Setting each optional input to its default text leaves p as it was. */
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    memest_error err;
    if (pi->required || !pi->default_text[0]) continue;
    z = p;
    CHECK_I64(memest_params_set(&z, pi->name, pi->default_text, &err), MEMEST_OK);
    z.given = 0;
    /* Giving --routing-factor, even its default 1.18, selects the factor
    ** mode; nothing else changes. */
    if (id == MEMEST_P_ROUTING_FACTOR) {
      CHECK_I64(z.routing, MEMEST_ROUTING_FACTOR);
      z.routing = p.routing;
    }
    CHECK(memcmp(&z, &p, sizeof p) == 0);
  }
}

/* "a|b|c" has name i at position i. */
static void check_choices(const char *choices, const char *(*name)(int), int n) {
  char joined[128] = "";
  int i;
  for (i = 0; i < n; i++) {
    if (i) strcat(joined, "|");
    strcat(joined, name(i));
  }
  CHECK_STR(choices, joined);
  CHECK(name(n) == NULL);
  CHECK(name(-1) == NULL);
}
static const char *opt_name(int i) { return memest_optimizer_name((memest_optimizer)i); }
static const char *shard_name(int i) { return memest_sharding_name((memest_sharding)i); }
static const char *fp8_name(int i) { return memest_fp8_name((memest_fp8)i); }

static void test_enum_names(void) {
  check_choices(memest_param_describe(MEMEST_P_OPTIMIZER)->choices, opt_name, 2);
  check_choices(memest_param_describe(MEMEST_P_SHARDING)->choices, shard_name, 2);
  check_choices(memest_param_describe(MEMEST_P_FP8_TRAINING)->choices, fp8_name, 2);
  CHECK_STR(memest_optimizer_name(MEMEST_MUON), "muon");
  CHECK_STR(memest_sharding_name(MEMEST_HSDP), "hsdp");
  CHECK_STR(memest_fp8_name(MEMEST_FP8_DEEP_GEMM), "deep-gemm");
  CHECK_STR(memest_status_name(MEMEST_FITS_OK), "OK");
  CHECK_STR(memest_status_name(MEMEST_FITS_TIGHT), "TIGHT");
  CHECK_STR(memest_status_name(MEMEST_FITS_OOM), "OOM");
  CHECK(memest_status_name((memest_status)3) == NULL);
  CHECK_I64(memest_tight_percent(), 5);
  CHECK_I64(memest_component_count(), 17);
  CHECK_STR(memest_component_key(0), "master_params");
  CHECK_STR(memest_component_title(0), "fp32 master weights (sharded)");
  CHECK_STR(memest_component_key(16), "optimizer_transients");
  CHECK(memest_component_key(17) == NULL);
  CHECK_STR(memest_reason_name(MEMEST_R_CHUNKS_MIN), "chunks_min");
  CHECK_STR(memest_reason_name(MEMEST_R_NONE), "none");
  CHECK_STR(memest_reason_name(MEMEST_R_COUNT), "none");
}

static void test_command(void) {
  memest_params p;
  memest_error err;
  char cmd[512];
  valid_run(&p);
  memest_params_command(&p, cmd, sizeof cmd);
  CHECK_STR(cmd, "memest --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 "
                 "--micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100");
  CHECK_I64(memest_params_set(&p, "optimizer", "muon", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "sharding", "hsdp", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "fp8_training", "deep-gemm", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "pp_rank", "2", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "ep_imbalance", "1.25", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "fragmentation", "0.2", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "timeline", "true", &err), MEMEST_OK);
  memest_params_command(&p, cmd, sizeof cmd);
  CHECK_STR(cmd, "memest --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 "
                 "--micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100 "
                 "--fp8-training deep-gemm --optimizer muon --sharding hsdp --pp-rank 2 "
                 "--ep-imbalance 1.25 --fragmentation 0.2");
  memest_params_init(&p);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "79.5", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "model", "my model.json", &err), MEMEST_OK);
  memest_params_command(&p, cmd, sizeof cmd);
  CHECK_STR(cmd, "memest --model 'my model.json' --pp-size 0 --ep-size 0 --cp-size 0 "
                 "--total-gpus 0 --micro-batch-size 0 --global-batch-size 0 --sequence-length 0 "
                 "--gpu-memory-gb 79.5");
}

/* The reason of the first layout problem of run (pp, ep, cp, gpus, mbs, gbs, seq). */
static memest_reason reason_of(int64_t pp, int64_t ep, int64_t cp, int64_t gpus, int64_t mbs,
                               int64_t gbs, int64_t seq, const char *model) {
  memest_params p;
  memest_error e;
  memest_params_init(&p);
  check_params(&p, model, pp, ep, cp, gpus, mbs, gbs, seq, "h100");
  if (memest_validate(NULL, 0, &p, &e, 1) == 0) return MEMEST_R_NONE;
  return e.reason;
}

static void test_reasons(void) {
  const char *q = "qwen3-30b-a3b";  /* 48 layers, 128 experts */
  memest_params p;
  memest_error e[4];
  CHECK_I64(reason_of(4, 8, 1, 32, 1, 1024, 4096, q), MEMEST_R_NONE);
  CHECK_I64(reason_of(4, 64, 1, 256, 1, 1024, 4096, q), MEMEST_R_EP_ABOVE_MAX);
  CHECK_I64(reason_of(4, 3, 1, 12, 1, 1024, 4096, q), MEMEST_R_EP_EXPERTS);
  CHECK_I64(reason_of(4, 8, 2, 64, 1, 1024, 4095, q), MEMEST_R_SEQ_CP);
  CHECK_I64(reason_of(25, 8, 1, 200, 1, 1024, 4096, q), MEMEST_R_PP_LAYERS);
  CHECK_I64(reason_of(4, 8, 1, 33, 1, 1024, 4096, q), MEMEST_R_GPUS_GROUP);
  CHECK_I64(reason_of(4, 8, 1, 32, 1, 1020, 4096, q), MEMEST_R_GBS_UNIT);
  CHECK_I64(reason_of(4, 8, 1, 32, 1, 56, 4096, q), MEMEST_R_CHUNKS_MIN);
  CHECK_I64(reason_of(4, 8, 1, 32, 1, 64, 4096, q), MEMEST_R_NONE);
  CHECK_I64(reason_of(2, 1, 2, 4, 1, 64, 4096, "gpt-oss-20b"), MEMEST_R_CP_ARCH);
  memest_params_init(&p);
  CHECK_I64(memest_validate(NULL, 0, &p, e, 4) >= 4, 1);
  CHECK_I64(e[0].reason, MEMEST_R_MISSING);
  valid_run(&p);
  CHECK_I64(memest_params_set(&p, "pp_rank", "4", e), MEMEST_OK);
  CHECK_I64(memest_validate(NULL, 0, &p, e, 4), 1);
  CHECK_I64(e[0].reason, MEMEST_R_PP_RANK);
  /* A config problem carries its position and no reason. */
  CHECK_I64(memest_validate("{\n  \"model_type\": \"qwen3_moe\",,\n}", 33, &p, e, 1), 1);
  CHECK_I64(e[0].code, MEMEST_E_JSON);
  CHECK_I64(e[0].line, 2);
  CHECK(e[0].column > 0);
  CHECK_I64(e[0].reason, MEMEST_R_NONE);
}

int main(void) {
  test_bounds_from_table();
  test_defaults();
  test_labels();
  test_enum_names();
  test_command();
  test_reasons();
  return check_done("test_params");
}
