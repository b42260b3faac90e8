/*
** test_regressions.c — one test per bug that fuzzing, the sanitizers or
** the limits audit found: the input that broke memest and what it must
** answer now. Memory and undefined-behaviour bugs fail here only under
** scripts/sanitize.sh; the plain build checks the answers.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "check.h"
#include "model/model.h"

static memest_code run(const char *config, const memest_params *p, memest_error *err) {
  memest_result *r = NULL;
  memest_code rc = memest_estimate(config, config ? strlen(config) : 0, p, &r, err);
  memest_result_free(r);
  return rc;
}

static void set(memest_params *p, const char *k, const char *v) {
  memest_error err;
  memest_code rc = memest_params_set(p, k, v, &err);
  if (rc != MEMEST_OK) fprintf(stderr, "set %s=%s: %s\n", k, v, err.message);
  CHECK_I64(rc, MEMEST_OK);
}

/* A config that is JSON but not an object was described after cJSON had
** freed it (heap use after free in memi_cfg_parse). Found by fuzz_config. */
static void test_non_object_config(void) {
  static const char *const texts[] = {"[1, 2]", "3", "\"x\"", "null", "true"};
  static const char *const named[] = {"an array", "a number", "a string", "null", "a boolean"};
  memest_params p;
  memest_error err;
  size_t i;
  check_params(&p, "cfg", 1, 1, 1, 1, 1, 2, 64, "h100");
  for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    CHECK_I64(run(texts[i], &p, &err), MEMEST_E_CONFIG);
    CHECK_HAS(err.message, named[i]);
    CHECK(memest_validate(texts[i], strlen(texts[i]), &p, &err, 1) == 1);
  }
}

/* The rows of one layer's saved set were summed without a check: huge
** attention widths overflowed a signed 64-bit sum (undefined behaviour)
** before the overflow flag was looked at. Found by the limits audit. */
static void test_saved_rows_overflow(void) {
  const char *cfg =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 262144, \"num_attention_heads\": 4096, "
      "\"num_key_value_heads\": 4096, \"head_dim\": 4096, \"num_hidden_layers\": 2, "
      "\"vocab_size\": 1000, \"num_experts\": 8, \"num_experts_per_tok\": 2, "
      "\"moe_intermediate_size\": 128}";
  memest_params p;
  memest_error err;
  check_params(&p, "wide-attention", 1, 1, 1, 1, 4096, 8192, MEMEST_MAX_SEQUENCE, "h100");
  CHECK_I64(run(cfg, &p, &err), MEMEST_E_OVERFLOW);
  CHECK_HAS(err.message, "overflow");
}

/* A head_dim derived from hidden_size / num_attention_heads was used
** without its range check: 0 (more heads than hidden units) estimated an
** attention of no size, and hidden_size / 1 passed MEMEST_MAX_HEAD_DIM. */
static void test_derived_head_dim(void) {
  const char *zero =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 64, \"num_attention_heads\": 128, "
      "\"num_key_value_heads\": 2, \"num_hidden_layers\": 2, \"vocab_size\": 1000, "
      "\"num_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 128}";
  const char *wide =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 262144, \"num_attention_heads\": 1, "
      "\"num_key_value_heads\": 1, \"num_hidden_layers\": 2, \"vocab_size\": 1000, "
      "\"num_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 128}";
  memest_params p;
  memest_error err;
  check_params(&p, "cfg", 1, 1, 1, 1, 1, 2, 64, "h100");
  CHECK_I64(run(zero, &p, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "head_dim");
  CHECK_HAS(err.message, "defaults to, 0,");
  CHECK_I64(run(wide, &p, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "head_dim");
}

/* The model's parameter count overflowed 64 bits unnoticed (the flag went
** to a field nobody read) and the report printed a wrong count. */
static void test_parameter_count_overflow(void) {
  const char *cfg =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 262144, \"num_attention_heads\": 64, "
      "\"num_key_value_heads\": 1, \"num_hidden_layers\": 1024, \"vocab_size\": 1000, "
      "\"num_experts\": 16384, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 1048576}";
  memest_params p;
  memest_error err;
  check_params(&p, "huge", 512, 1, 1, 512, 1, 1024, 64, "h100");
  set(&p, "pp_rank", "0");
  CHECK_I64(run(cfg, &p, &err), MEMEST_E_OVERFLOW);
  CHECK_HAS(err.message, "parameter count");
}

/* The grand total (tensors + non-PyTorch + fragmentation) was summed
** without a check and overflowed for a peak above 2^62 bytes. */
static void test_grand_total_overflow(void) {
  const char *cfg =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 16, \"num_attention_heads\": 1, "
      "\"num_key_value_heads\": 1, \"num_hidden_layers\": 2, \"vocab_size\": 16777216, "
      "\"num_experts\": 2, \"num_experts_per_tok\": 1, \"moe_intermediate_size\": 16}";
  memest_params p;
  memest_error err;
  check_params(&p, "logits", 1, 1, 1, 1, 8192, 16384, MEMEST_MAX_SEQUENCE, "h100");
  set(&p, "fragmentation", "1");
  CHECK_I64(run(cfg, &p, &err), MEMEST_E_OVERFLOW);
  /* With 10% fragmentation the same run fits in 64 bits and is reported. */
  set(&p, "fragmentation", "0.1");
  CHECK_I64(run(cfg, &p, &err), MEMEST_OK);
}

/* memest_params filled directly (the planner, a C program) reached the
** layout with pp*ep*cp = 0 and divided by zero. */
static void test_struct_zero_degree(void) {
  memest_params p;
  memest_error err;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  p.ep_size = 0;
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_VALUE);
  CHECK_STR(err.field, "ep_size");
  p.ep_size = 8;
  p.cp_size = 0;
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_VALUE);
  p.cp_size = 1;
  p.micro_batch_size = 0;
  CHECK(memest_validate(NULL, 0, &p, &err, 1) == 1);
  CHECK_STR(err.field, "micro_batch_size");
}

/* A GPU of 1e-310 GiB was accepted: its capacity rounded to 0 bytes and
** the report divided by it ("headroom -inf%"). */
static void test_zero_capacity(void) {
  memest_params p;
  memest_error err;
  memest_params_init(&p);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "1e-310", &err), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "gpu_memory_gb", "0.0001", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "at least");
}

/* timeline_limit was a per-rank count with no bound over the ranks: 512
** ranks x 4 Mi events asked for hundreds of GiB, and the check for a whole
** timeline (4N + 16 events per rank) undercounted 2N + 5P + 3. */
static void test_timeline_total(void) {
  memest_params p;
  memest_error err;
  check_params(&p, "qwen3-30b-a3b", 16, 1, 1, 16, 1, 4096, 512, "h100");
  set(&p, "timeline", "true");
  set(&p, "timeline_limit", "8192");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LIMIT);
  CHECK_STR(err.field, "timeline_limit");
  CHECK_HAS(err.fix, "timeline_limit=");
  /* The fix it names is accepted. */
  set(&p, "timeline_limit", strchr(err.fix, '=') + 1);
  CHECK_I64(run(NULL, &p, &err), MEMEST_OK);
}

/* The replay's work had no bound: pp 512 x 1 Mi chunks took minutes (a
** hang for the page). It is refused at once now. */
static void test_replay_work(void) {
  memest_params p;
  memest_error err;
  check_params(&p, "qwen3-30b-a3b", 16, 1, 1, 16, 1, MEMEST_MAX_CHUNKS, 512, "h100");
  CHECK_I64(run(NULL, &p, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_REPLAY_CHUNKS");
  CHECK_STR(err.fix, "pp_rank=0");
}

/* The command echoed in both reports was cut at 2,047 characters, so a
** long quoted model label did not reproduce the run. */
static void test_long_command(void) {
  char label[sizeof ((memest_params *)0)->model];
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  char *json, *text;
  memset(label, '\'', sizeof label - 1);
  label[sizeof label - 1] = '\0';
  check_params(&p, "x", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  set(&p, "model", label);
  set(&p, "fragmentation", "0.125");
  CHECK_I64(memest_estimate(memest_model_preset_config("qwen3-30b-a3b"),
                            strlen(memest_model_preset_config("qwen3-30b-a3b")), &p, &r, &err),
            MEMEST_OK);
  if (r == NULL) return;
  json = memest_result_json(r);
  text = memest_result_text(r);
  CHECK_HAS(json, "--gpu h100 --fragmentation 0.125\",");
  CHECK_HAS(text, "--gpu h100 --fragmentation 0.125\n");
  memest_free(json);
  memest_free(text);
  memest_result_free(r);
}

/* A family whose layer adds one parameter past PARAMS_PER_LAYER_MAX: the
** parameter was dropped without a word, so the estimate undercounted.
** Found by the second hostile-input review. */
static void too_many_params(const model_config *mc, int layer, int64_t e_loc, param_list *out) {
  int i;
  (void)mc;
  (void)layer;
  (void)e_loc;
  for (i = 0; i <= PARAMS_PER_LAYER_MAX; i++) memi_params_add(out, "w", 8, 8, 1, 2, 0, 0);
}

static void test_params_per_layer(void) {
  size_t len = 0;
  char *text = check_read_file("presets/qwen3-30b-a3b.json", &len);
  model_config *mc = malloc(sizeof *mc);
  arch_ops wide;
  param_list pl;
  memest_error err;
  CHECK(text != NULL && mc != NULL);
  if (text == NULL || mc == NULL) return;
  CHECK_I64(memi_cfg_parse(text, len, mc, &err), MEMEST_OK);
  CHECK_I64(memi_cfg_check_params(mc, &err), MEMEST_OK);
  wide = *mc->arch;
  wide.layer_params = too_many_params;
  mc->arch = &wide;
  pl.n = pl.dropped = 0;
  too_many_params(mc, 0, 1, &pl);
  CHECK_I64(pl.n, PARAMS_PER_LAYER_MAX);
  CHECK_I64(pl.dropped, 1);
  CHECK_I64(memi_cfg_check_params(mc, &err), MEMEST_E_OVERFLOW);
  CHECK_HAS(err.message, "layer 0 of this Qwen3-MoE model has 33 parameter tensors");
  CHECK_HAS(err.message, "PARAMS_PER_LAYER_MAX = 32");
  free(mc);
  free(text);
}

int main(void) {
  test_params_per_layer();
  test_non_object_config();
  test_saved_rows_overflow();
  test_derived_head_dim();
  test_parameter_count_overflow();
  test_grand_total_overflow();
  test_struct_zero_degree();
  test_zero_capacity();
  test_timeline_total();
  test_replay_work();
  test_long_command();
  return check_done("test_regressions");
}
