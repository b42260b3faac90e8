/*
** test_arch_generic.c — configs the trainer does not run (arch_generic.c):
** Mixtral-8x7B's parameter total and the warning that the architecture is
** approximated, a dense Llama-style config estimated as dense (its
** per-layer saved bytes in BF16 and FP8, and the refusal of ep > 1), and
** configs of another model_type on a family's HF class read as that family.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"

/* A dense Llama-style layer: H 64, 4 heads of 16 (2 KV heads), MLP 96. */
static const char tiny[] =
    "{\"model_type\":\"llama\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"intermediate_size\":96,\"num_hidden_layers\":2,"
    "\"vocab_size\":128}";

/* Mixtral-8x7B: 32 layers x (attention 41,943,040 + norms 8,192 + router
** 32,768 + 8 experts x 3 x 14,336 x 4,096 = 1,409,286,144) + embed and
** lm_head 2 x 131,072,000 + norm 4,096 = 46,702,792,704 (46.7B within
** 0.2%). Tiny Llama: per layer q 4,096, k, v 2,048 each, o 4,096, norms
** 128, MLP 3 x 96 x 64 = 18,432; 2 layers + 16,384 + 64 = 78,144. */
static void test_totals(void) {
  const char *preset = memest_model_preset_config("mixtral-8x7b");
  size_t len;
  char *text = check_read_file(CHECK_MODELS "mixtral-8x7b.json", &len);
  model_config mc;
  memest_error err;
  CHECK(text != NULL && preset != NULL);
  if (text != NULL) CHECK_I64(parse_total(text, len), 46702792704LL);
  if (preset != NULL) CHECK_I64(parse_total(preset, strlen(preset)), 46702792704LL);
  CHECK(fabs(46702792704.0 / 46.7e9 - 1.0) < 0.002);
  if (text != NULL) {
    CHECK_I64(memi_cfg_parse(text, len, &mc, &err), MEMEST_OK);
    CHECK_STR(mc.arch->title, "generic (Qwen3-style layer)");
    CHECK_I64(mc.n_warnings, 1);
    CHECK_HAS(mc.warnings[0], "model_type 'mixtral' is not one the trainer runs; estimated from "
                              "the generic keys");
  }
  free(text);
  CHECK_I64(parse_total(tiny, strlen(tiny)), 78144);
}

/* Dense, pp 1, ep 1 (m 128). Stage 1: rstd 1,024, q 16,384, k 8,192, v
** 8,192, o 16,384, lse 128*4*4 = 2,048 = 52,224; the dense block adds the
** residual, x2, MLP output and layer output (4 x 16,384) and g, u, act
** 3*128*96*2 = 73,728: 191,488. FP8: q/k/v/o weight_t and input_t 45,088
** in stage 1; x2ᵀ twice 2 x (64*128 + 4) = 16,392 and actᵀ 96*128 + 4 =
** 12,292 replace act: 240,684. */
static void test_dense(void) {
  tiny_run *t = tiny_build(tiny, 1, 1, 0);
  memest_params p;
  memest_error errs[4];
  if (t != NULL) {
    CHECK_STR(prog(t, 0)->kind, "dense MLP");
    CHECK_I64(prog(t, 0)->moe, 0);
    CHECK_I64(prog(t, 0)->retained, 191488);
    CHECK_I64(t->mc.experts, 0);
    CHECK_HAS(t->mc.warnings[0], "model_type 'llama' is not one the trainer runs");
  }
  tiny_free(t);
  t = tiny_build(tiny, 1, 1, 1);
  if (t != NULL) CHECK_I64(prog(t, 0)->retained, 240684);
  tiny_free(t);
  check_params(&p, "tiny", 1, 2, 1, 2, 1, 4, 128, "h100");
  CHECK_I64(memest_validate(tiny, strlen(tiny), &p, errs, 4), 1);
  CHECK_HAS(errs[0].message, "needs experts, and this config has none (a dense model)");
}

/* Kimi K2 as published (model_type kimi_k2 on DeepseekV3ForCausalLM):
** read as deepseek_v3. Per layer MLA: q_a 7,168 x 1,536, its norm 1,536,
** q_b 1,536 x 64 x 192, kv_a 7,168 x 576, its norm 512, kv_b 512 x 64 x
** 256, o 8,192 x 7,168 = 101,124,096, plus two norms 14,336; one dense
** MLP 3 x 7,168 x 18,432 = 396,361,728; 60 MoE layers of 385 SwiGLU
** experts of 2,048 (384 routed, 1 shared: 44,040,192 each) and a router
** of 384 x 7,168; embed_tokens and lm_head 2 x 163,840 x 7,168 and the
** final norm: 1,026,408,209,408. */
static const char kimi_k2[] =
    "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"model_type\":\"kimi_k2\","
    "\"hidden_size\":7168,\"intermediate_size\":18432,\"moe_intermediate_size\":2048,"
    "\"num_hidden_layers\":61,\"num_attention_heads\":64,\"num_key_value_heads\":64,"
    "\"n_shared_experts\":1,\"n_routed_experts\":384,\"num_experts_per_tok\":8,"
    "\"first_k_dense_replace\":1,\"moe_layer_freq\":1,\"kv_lora_rank\":512,"
    "\"q_lora_rank\":1536,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,"
    "\"v_head_dim\":128,\"vocab_size\":163840,\"max_position_embeddings\":131072,"
    "\"tie_word_embeddings\":false,\"num_nextn_predict_layers\":0,"
    "\"topk_method\":\"noaux_tc\",\"scoring_func\":\"sigmoid\"}";

/* Whether `key` is one of the n NUL-separated names in `list`. */
static int keys_has(const char *list, int n, const char *key) {
  int i;
  for (i = 0; i < n; i++, list += strlen(list) + 1) {
    if (strcmp(list, key) == 0) return 1;
  }
  return 0;
}

/* The family a config's `architectures` names stands in for an unknown
** model_type: the same total as under the family's own model_type, a
** warning naming the class, the key noted as read, and a missing key's
** error that says how the config was read. A class no family has, or
** architectures that is not a list, leaves the generic family. */
static void test_by_class(void) {
  size_t len;
  char *qwen = check_read_file(CHECK_MODELS "qwen3-30b-a3b.json", &len);
  char *renamed, *at;
  model_config mc;
  memest_error err;
  CHECK_I64(memi_cfg_parse(kimi_k2, strlen(kimi_k2), &mc, &err), MEMEST_OK);
  CHECK_STR(mc.arch->model_type, "deepseek_v3");
  CHECK_STR(mc.model_type, "kimi_k2");
  CHECK_HAS(mc.warnings[0], "model_type 'kimi_k2' is not one the trainer runs; its architectures "
                            "names DeepseekV3ForCausalLM, so it is read as model_type 'deepseek_v3'");
  CHECK_HAS(mc.warnings[1], "model_type 'kimi_k2' is estimated with the DeepSeek-V2 layer");
  CHECK_I64(parse_total(kimi_k2, strlen(kimi_k2)), 1026408209408LL);
  CHECK(qwen != NULL);
  if (qwen == NULL) return;
  renamed = malloc(len + 32);
  CHECK(renamed != NULL);
  at = strstr(qwen, "\"qwen3_moe\"");
  CHECK(at != NULL);
  if (renamed != NULL && at != NULL) {
    /* model_type "qwen3_moe" -> "my_finetune" */
    snprintf(renamed, len + 32, "%.*s\"my_finetune\"%s", (int)(at - qwen), qwen, at + 11);
    CHECK_I64(parse_total(renamed, strlen(renamed)), parse_total(qwen, len));
    CHECK_I64(memi_cfg_parse(renamed, strlen(renamed), &mc, &err), MEMEST_OK);
    CHECK_STR(mc.arch->title, "Qwen3-MoE");
    CHECK_I64(mc.n_warnings, 1);
    CHECK(keys_has(mc.keys_read, mc.n_keys_read, "architectures"));
  }
  free(renamed);
  free(qwen);
  /* Without kv_lora_rank the DeepSeek reader refuses, and says why it read. */
  {
    char *cut = malloc(sizeof kimi_k2);
    CHECK(cut != NULL);
    if (cut != NULL) {
      at = strstr(kimi_k2, "\"kv_lora_rank\":512,");
      snprintf(cut, sizeof kimi_k2, "%.*s%s", (int)(at - kimi_k2), kimi_k2, at + 19);
      CHECK_I64(memi_cfg_parse(cut, strlen(cut), &mc, &err), MEMEST_E_CONFIG);
      CHECK_STR(err.field, "kv_lora_rank");
      CHECK_HAS(err.message, "(read as model_type 'deepseek_v3', since its architectures names "
                             "DeepseekV3ForCausalLM)");
      /* An unknown class: the generic family, MLA keys unread. */
      at = strstr(kimi_k2, "DeepseekV3");
      snprintf(cut, sizeof kimi_k2, "%.*sSomeOther%s", (int)(at - kimi_k2), kimi_k2, at + 10);
      CHECK_I64(memi_cfg_parse(cut, strlen(cut), &mc, &err), MEMEST_OK);
      CHECK_STR(mc.arch->title, "generic (Qwen3-style layer)");
      free(cut);
    }
  }
}

int main(void) {
  test_totals();
  test_dense();
  test_by_class();
  return check_done("test_arch_generic");
}
