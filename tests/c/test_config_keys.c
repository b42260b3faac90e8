/*
** test_config_keys.c — how a config's keys are read, for every family:
** unread keys named unless known not to change memory (the table that
** docs/architectures/README.md lists), parts beside the text decoder, a
** top level and a text_config that disagree, spellings that disagree,
** per-layer lists, dense-layer selectors the trainer does not follow,
** DeepSeek's shared-expert count, zero experts, and active parameters
** without the input embedding.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"
#include "sim/model_summary.h"

/* Qwen3-MoE: H 64, 4 heads of 16 (2 KV heads), 8 experts of width 32
** (top-2), 2 layers; 140,672 parameters (test_arch_qwen3.c). */
static const char qwen3[] =
    "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"head_dim\":16,\"num_experts\":8,"
    "\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"norm_topk_prob\":true,"
    "\"num_hidden_layers\":2,\"vocab_size\":128}";

/* DeepSeek-V2: H 64, 2 heads, no q LoRA, 8 experts of width 32 (top-2),
** dense width 96 on layer 0, 4 layers (test_arch_deepseek.c); no
** n_shared_experts, which each test adds. */
static const char deepseek[] =
    "{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"num_attention_heads\":2,"
    "\"q_lora_rank\":null,\"kv_lora_rank\":32,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,"
    "\"v_head_dim\":16,\"n_routed_experts\":8,\"num_experts_per_tok\":2,"
    "\"moe_intermediate_size\":32,\"intermediate_size\":96,"
    "\"first_k_dense_replace\":1,\"num_hidden_layers\":4,\"vocab_size\":128}";

/* Qwen3.5 with two full-attention layers (no Gated DeltaNet keys needed). */
static const char qwen35[] =
    "{\"model_type\":\"qwen3_5_moe_text\",\"hidden_size\":64,\"num_attention_heads\":2,"
    "\"num_key_value_heads\":1,\"head_dim\":32,\"full_attention_interval\":1,"
    "\"num_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
    "\"shared_expert_intermediate_size\":32,\"num_hidden_layers\":2,\"vocab_size\":128}";

/* gpt-oss: a sliding and a full layer (test_arch_gptoss.c). */
static const char gptoss[] =
    "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"head_dim\":16,\"attention_bias\":true,"
    "\"num_local_experts\":8,\"num_experts_per_tok\":2,\"intermediate_size\":32,"
    "\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"sliding_window\":8,"
    "\"num_hidden_layers\":2,\"vocab_size\":128}";

/* A Mixtral-style generic config: 2 layers, 4 experts of 96 (top-2). */
static const char mixtral[] =
    "{\"model_type\":\"mixtral\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"intermediate_size\":96,\"num_local_experts\":4,"
    "\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"vocab_size\":128}";

/* base with the keys `extra` (JSON members, no braces) added first. */
static memest_code parse_with(const char *base, const char *extra, model_config *mc,
                              memest_error *err) {
  char text[2048];
  snprintf(text, sizeof text, "{%s%s%s", extra, extra[0] ? "," : "", base + 1);
  memi_err_clear(err);
  return memi_cfg_parse(text, strlen(text), mc, err);
}

/* The warning of mc that contains `part`, or "" (for a readable failure). */
static const char *warning_with(const model_config *mc, const char *part) {
  int i;
  for (i = 0; i < mc->n_warnings; i++) {
    if (strstr(mc->warnings[i], part) != NULL) return mc->warnings[i];
  }
  return "";
}

static int64_t total(const model_config *mc) {
  int ovf = 0;
  return memi_msum_total_parameters(mc, &ovf);
}

/* Every unread key is named unless the table knows it leaves memory alone
** (before, no family the trainer runs named any, and the generic family
** only keys whose names looked like sizes: JetMoE's kv_channels went
** unnamed). */
static void test_unread(void) {
  model_config mc;
  memest_error err;
  const char *w;
  CHECK_I64(parse_with(qwen3,
                       "\"kv_channels\":128,\"rope_theta\":1e6,\"bos_token_id\":1,"
                       "\"attention_dropout\":0.1,\"rms_norm_eps\":1e-6,\"mlp_bias\":false,"
                       "\"intermediate_size\":768,\"foo\":null,\"bar\":[],"
                       "\"quantization_config\":{\"quant_method\":\"fp8\"}",
                       &mc, &err),
            MEMEST_OK);
  w = warning_with(&mc, "not read");
  CHECK_HAS(w, "config key 'kv_channels' is not read, and memest does not know it to leave "
               "memory alone");
  CHECK(strstr(w, "rope_theta") == NULL && strstr(w, "mlp_bias") == NULL);
  CHECK(strstr(w, "intermediate_size") == NULL && strstr(w, "foo") == NULL);
  CHECK_I64(total(&mc), 140672);
  /* A bias switched on is named; so is every other unknown key. */
  CHECK_I64(parse_with(qwen3, "\"mlp_bias\":true,\"widen\":2", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "not read"), "config keys 'mlp_bias', 'widen' are not read");
  /* A config with only known keys hears nothing. */
  CHECK_I64(parse_with(qwen3, "\"rope_scaling\":{\"rope_type\":\"default\"}", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.n_warnings, 0);
}

/* The table is documented: docs/architectures/README.md names every key. */
static void test_documented(void) {
  size_t len;
  char *doc = check_read_file("docs/architectures/README.md", &len);
  const char *name;
  char quoted[96];
  int i, off, n = 0;
  CHECK(doc != NULL);
  for (i = 0; doc != NULL && memi_cfg_quiet_key(i, &name, &off); i++) {
    snprintf(quoted, sizeof quoted, "`%s`", name);
    if (strstr(doc, quoted) == NULL) fprintf(stderr, "not in the README: %s\n", quoted);
    CHECK(strstr(doc, quoted) != NULL);
    n++;
  }
  CHECK(n > 50);
  free(doc);
}

/* A vision tower beside the decoder is said not to be counted. */
static void test_parts(void) {
  model_config mc;
  memest_error err;
  CHECK_I64(parse_with(qwen3, "\"vision_config\":{\"depth\":27,\"hidden_size\":1152}", &mc, &err),
            MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "vision_config"),
            "config key 'vision_config' describes a part of the model beside its text decoder");
  CHECK_I64(total(&mc), 140672);
  /* Another object that no reader knows is an unread key, not a tower. */
  CHECK_I64(parse_with(qwen3, "\"moe_config\":{\"experts\":16}", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "not read"), "config key 'moe_config' is not read");
  CHECK_STR(warning_with(&mc, "beside its text decoder"), "");
}

/* A top level and a text_config: what the part not read gives otherwise
** is named (before, the other part's keys were dropped without a word). */
static void test_text_config(void) {
  model_config mc;
  memest_error err;
  char text[1024];
  snprintf(text, sizeof text,
           "{\"model_type\":\"llava\",\"hidden_size\":999,\"tie_word_embeddings\":true,"
           "\"torch_dtype\":\"bfloat16\",\"text_config\":%s}",
           qwen3);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "given otherwise"),
            "config keys 'hidden_size', 'tie_word_embeddings' are given otherwise in the top "
            "level than in text_config, which is the part read (it holds model_type "
            "'qwen3_moe'): the top level's values are not used");
  CHECK_I64(mc.hidden, 64);
  CHECK_I64(mc.tied_embeddings, 0);
  /* The top level read, text_config beside it. */
  CHECK_I64(parse_with(qwen3, "\"text_config\":{\"hidden_size\":128,\"num_experts\":8}", &mc, &err),
            MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "given otherwise"),
            "config key 'hidden_size' is given otherwise in text_config than in the top level");
  CHECK(strstr(warning_with(&mc, "given otherwise"), "num_experts") == NULL);
}

/* Spellings of one key must agree; a list stands for one value only where
** a family reads it per layer, and only with one entry per layer. */
static void test_spellings_and_lists(void) {
  model_config mc;
  memest_error err;
  CHECK_I64(parse_with(qwen3, "\"num_local_experts\":16", &mc, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "num_local_experts");
  CHECK_HAS(err.message, "config keys 'num_experts' and 'num_local_experts' both give one value "
                         "of the model, and they differ");
  CHECK_I64(parse_with(qwen35, "\"num_local_experts\":16", &mc, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "num_local_experts");
  CHECK_I64(parse_with(qwen3, "\"num_local_experts\":8", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.experts, 8);
  /* num_experts: [8] is not the number 8 (it was read as 8). */
  {
    const char *at = strstr(qwen3, "\"num_experts\":8");
    char text[512];
    snprintf(text, sizeof text, "%.*s\"num_experts\":[8]%s", (int)(at - qwen3), qwen3, at + 15);
    CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_CONFIG);
    CHECK_STR(err.field, "num_experts");
    CHECK_HAS(err.message, "config key 'num_experts' is a list, not one whole number");
  }
  /* Hunyuan's per-layer top-k: one entry per layer (2), not 3 (it was
  ** accepted); one per layer agrees with the same number under HF's name. */
  {
    char text[512];
    const char *at = strstr(mixtral, "\"num_experts_per_tok\":2");
    snprintf(text, sizeof text, "%.*s\"moe_topk\":[2,2,2]%s", (int)(at - mixtral), mixtral, at + 23);
    CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, "moe_topk");
    CHECK_HAS(err.message, "config key 'moe_topk' has 3 entries, but the model has 2 layers");
  }
  CHECK_I64(parse_with(mixtral, "\"moe_topk\":[2,2]", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.top_k, 2);
  CHECK_I64(parse_with(mixtral, "\"moe_topk\":[1,1]", &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_HAS(err.message, "config keys 'num_experts_per_tok' and 'moe_topk' both give one value");
}

/* Booleans and whole numbers given as strings are refused ("false" is true
** to Python), and a per-layer list of attention kinds has one per layer. */
static void test_types(void) {
  model_config mc;
  memest_error err;
  CHECK_I64(parse_with(qwen3, "\"tie_word_embeddings\":\"false\"", &mc, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "tie_word_embeddings");
  CHECK_HAS(err.message, "config key 'tie_word_embeddings' must be true or false, got a string");
  CHECK_I64(parse_with(mixtral, "\"use_qk_norm\":\"true\"", &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "use_qk_norm");
  CHECK_I64(parse_with(qwen3, "\"max_position_embeddings\":\"4096\"", &mc, &err), MEMEST_E_CONFIG);
  CHECK_HAS(err.message, "config key 'max_position_embeddings' must be a whole number, got a string");
  CHECK_I64(parse_with(mixtral, "\"attn_type_list\":[1,1,1]", &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "attn_type_list");
  CHECK_HAS(err.message, "config key 'attn_type_list' has 3 entries, but the model has 2 layers");
  CHECK_I64(parse_with(mixtral, "\"attn_type_list\":[1,1]", &mc, &err), MEMEST_OK);
}

/* Zero experts: refused in every family (Mixtral's became a dense model). */
static void test_zero_experts(void) {
  model_config mc;
  memest_error err;
  char text[512];
  const char *at = strstr(mixtral, "\"num_local_experts\":4");
  snprintf(text, sizeof text, "%.*s\"num_local_experts\":0%s", (int)(at - mixtral), mixtral, at + 21);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "num_local_experts");
  CHECK_HAS(err.message, "config key 'num_local_experts' is 0; it must be between 1 and 16,384");
  at = strstr(qwen3, "\"num_experts\":8");
  snprintf(text, sizeof text, "%.*s\"num_experts\":0%s", (int)(at - qwen3), qwen3, at + 15);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_CONFIG);
  CHECK_HAS(err.message, "config key 'num_experts' is 0; it must be between 1 and 16,384");
}

/* Dense-layer selectors of families whose trainer builds its own layers:
** invalid values refused, others said to be overridden (all were read as
** nothing before). */
static void test_selectors(void) {
  static const char *const bad[] = {"0", "-1", "1.5", "\"2\""};
  model_config mc;
  memest_error err;
  char extra[64];
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(extra, sizeof extra, "\"decoder_sparse_step\":%s", bad[i]);
    CHECK_I64(parse_with(qwen3, extra, &mc, &err), MEMEST_E_CONFIG);
    CHECK_STR(err.field, "decoder_sparse_step");
    snprintf(extra, sizeof extra, "\"moe_layer_freq\":%s", bad[i]);
    CHECK_I64(parse_with(deepseek, extra, &mc, &err), MEMEST_E_CONFIG);
    CHECK_STR(err.field, "moe_layer_freq");
  }
  CHECK_I64(parse_with(qwen3, "\"mlp_only_layers\":[5]", &mc, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "mlp_only_layers");
  /* decoder_sparse_step 2 makes layer 0 dense in HF's Qwen3-MoE; the trainer
  ** builds experts there all the same, and so does the estimate. */
  CHECK_I64(parse_with(qwen3, "\"decoder_sparse_step\":2,\"mlp_only_layers\":[]", &mc, &err),
            MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "dense"),
            "config key 'decoder_sparse_step' makes layer 0 dense (MLP-only) in the config's "
            "model, but the trainer's Qwen3-MoE builds experts on every layer: estimated as the "
            "trainer builds it, and a checkpoint of this config would not load into it");
  CHECK_I64(mc.layer_dense[0], 0);
  CHECK_I64(total(&mc), 140672);
  CHECK_I64(parse_with(qwen35, "\"mlp_only_layers\":[1]", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "dense"), "config key 'mlp_only_layers' makes layer 1 dense "
                                        "(MLP-only) in the config's model, but the trainer's "
                                        "Qwen3.5-MoE");
  /* moe_layer_freq 2: layers 1 and 3 of 4 dense in DeepSeek's own modelling
  ** code; the trainer puts experts on every layer from first_k_dense_replace. */
  CHECK_I64(parse_with(deepseek, "\"moe_layer_freq\":2,\"n_shared_experts\":1", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "dense"),
            "config key 'moe_layer_freq' makes layers 1, 3 dense (MLP-only) in the config's "
            "model, but the trainer's DeepSeek-V2 builds experts on every layer from "
            "first_k_dense_replace on: estimated as the trainer builds them");
  CHECK_I64(mc.layer_dense[1] + mc.layer_dense[3], 0);
  /* The values the trainer builds anyway are read, and quiet. */
  CHECK_I64(parse_with(deepseek, "\"moe_layer_freq\":1,\"n_shared_experts\":1", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.n_warnings, 0);
}

/* Keys a trainer overrides: Qwen3.5's output gate, gpt-oss's second top-k. */
static void test_overridden(void) {
  model_config mc;
  memest_error err;
  CHECK_I64(parse_with(qwen35, "\"attn_output_gate\":false", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "attn_output_gate"),
            "config key 'attn_output_gate' is false, but the trainer's Qwen3.5 attention always "
            "has the output gate");
  CHECK_I64(parse_with(qwen35, "\"attn_output_gate\":true", &mc, &err), MEMEST_OK);
  CHECK_STR(warning_with(&mc, "attn_output_gate"), "");
  CHECK_I64(parse_with(gptoss, "\"experts_per_token\":2", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.n_warnings, 0);
  CHECK_I64(parse_with(gptoss, "\"experts_per_token\":4", &mc, &err), MEMEST_OK);
  CHECK_HAS(warning_with(&mc, "not read"), "config key 'experts_per_token' is not read");
}

/* DeepSeek's shared MLP is moe_intermediate_size x n_shared_experts wide, or
** intermediate_size when that is 0. Per MoE layer (3 of them) it has 3 x 64
** x width parameters: 1 shared expert 6,144 each, 2 of them 12,288, the
** fallback to 96 18,432. */
static void test_deepseek_shared(void) {
  model_config mc;
  memest_error err;
  int64_t one;
  CHECK_I64(parse_with(deepseek, "\"n_shared_experts\":1", &mc, &err), MEMEST_OK);
  one = total(&mc);
  /* Absent: DeepseekV2Config's 2 (the fallback to 96 was taken, unsaid). */
  CHECK_I64(parse_with(deepseek, "", &mc, &err), MEMEST_OK);
  CHECK_I64(total(&mc) - one, 3 * 3 * 64 * 32);
  CHECK_I64(mc.n_warnings, 0);
  CHECK_I64(parse_with(deepseek, "\"n_shared_experts\":0", &mc, &err), MEMEST_OK);
  CHECK_I64(total(&mc) - one, 3 * 3 * 64 * 64);
  CHECK_I64(mc.shared_inter, 96);
  CHECK_HAS(warning_with(&mc, "n_shared_experts"),
            "n_shared_experts is 0, but the trainer's DeepSeekV2MoE still builds a shared MLP: "
            "moe_intermediate_size x 0 falls back to intermediate_size, so every MoE layer has a "
            "shared MLP of 96");
  CHECK_I64(parse_with(deepseek, "\"n_shared_experts\":null", &mc, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "n_shared_experts");
  /* A deepseek_v3 config without the key: DeepseekV3Config's 1. */
  {
    char v3[sizeof deepseek];
    char *at;
    snprintf(v3, sizeof v3, "%s", deepseek);
    at = strstr(v3, "deepseek_v2");
    at[10] = '3';
    CHECK_I64(parse_with(v3, "", &mc, &err), MEMEST_OK);
    CHECK_I64(total(&mc), one);
  }
}

/* The report gives active parameters both ways. gpt-oss-120b: 5,711,982,912
** with embed_tokens, 5,132,849,472 without (OpenAI publishes 5.13 B). */
static void test_active_both_ways(void) {
  size_t len;
  char *cfg = check_read_file(CHECK_MODELS "gpt-oss-120b.json", &len);
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  char *json = NULL, *text = NULL;
  CHECK(cfg != NULL);
  check_params(&p, "gpt-oss-120b", 2, 8, 1, 16, 1, 64, 4096, "h100");
  if (cfg != NULL) CHECK_I64(memest_estimate(cfg, len, &p, &r, &err), MEMEST_OK);
  if (r != NULL) {
    json = memest_result_json(r);
    text = memest_result_text(r);
  }
  CHECK(json != NULL && text != NULL);
  if (json != NULL && text != NULL) {
    CHECK_HAS(json, "\"active_parameters\":5711982912,"
                    "\"active_parameters_without_embedding\":5132849472");
    CHECK_HAS(text, "116,829,156,672 parameters (5,711,982,912 active per token, 5,132,849,472 "
                    "without the input embedding)");
  }
  memest_free(json);
  memest_free(text);
  memest_result_free(r);
  free(cfg);
}

int main(void) {
  test_unread();
  test_documented();
  test_parts();
  test_text_config();
  test_spellings_and_lists();
  test_types();
  test_zero_experts();
  test_selectors();
  test_overridden();
  test_deepseek_shared();
  test_active_both_ways();
  return check_done("test_config_keys");
}
