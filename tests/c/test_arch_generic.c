/*
** test_arch_generic.c — configs the trainer does not run (arch_generic.c):
** Mixtral-8x7B's parameter total and the warning that the architecture is
** approximated, a dense Llama-style config estimated as dense (its
** per-layer saved bytes in BF16 and FP8, and the refusal of ep > 1), and
** configs of another model_type on a family's HF class read as that family,
** ERNIE 4.5's spellings of top-k and of its MoE layer range, with its tied
** embeddings counted once in the parameter count, Hunyuan's per-layer
** lists, the refusal of state-space and linear-attention hybrids, DBRX's
** nested keys and Snowflake Arctic's residual MLP.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"
#include "sim/model_summary.h"

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
      /* A class no family has, with kv_lora_rank (DeepSeek-V3.2's
      ** DeepseekV32ForCausalLM, say): DeepSeek's MLA layer all the same,
      ** the same total, and the config's own keys named when unread. */
      at = strstr(kimi_k2, "DeepseekV3");
      snprintf(cut, sizeof kimi_k2, "%.*sSomeOther%s", (int)(at - kimi_k2), kimi_k2, at + 10);
      CHECK_I64(memi_cfg_parse(cut, strlen(cut), &mc, &err), MEMEST_OK);
      CHECK_STR(mc.arch->model_type, "deepseek_v3");
      CHECK_HAS(mc.warnings[0], "model_type 'kimi_k2' is not one the trainer runs; its "
                                "kv_lora_rank says it has DeepSeek's multi-head latent attention, "
                                "so it is read as model_type 'deepseek_v3'");
      CHECK_I64(parse_total(cut, strlen(cut)), 1026408209408LL);
      free(cut);
    }
  }
  /* With an indexer's keys besides (DeepSeek-V3.2): named as unread; the
  ** keys the DeepSeek layer ignores by design (moe_layer_freq 1 is read as
  ** a dense-layer selector; MLA has no num_key_value_heads) are not. */
  {
    char v32[sizeof kimi_k2 + 128];
    snprintf(v32, sizeof v32, "{\"index_n_heads\":64,\"index_head_dim\":128,%s", kimi_k2 + 1);
    at = strstr(v32, "DeepseekV3");
    memcpy(at, "DeepseekVx", 10);
    CHECK_I64(memi_cfg_parse(v32, strlen(v32), &mc, &err), MEMEST_OK);
    CHECK_HAS(mc.warnings[mc.n_warnings - 1], "config keys 'index_n_heads', 'index_head_dim' are "
                                              "not read, and memest does not know them to leave "
                                              "memory alone");
    CHECK(strstr(mc.warnings[mc.n_warnings - 1], "num_key_value_heads") == NULL);
    CHECK(!keys_has(mc.keys_ignored, mc.n_keys_ignored, "moe_layer_freq"));
    CHECK(keys_has(mc.keys_ignored, mc.n_keys_ignored, "num_key_value_heads"));
  }
  /* MLA beside linear attention (Kimi-Linear): refused, not read as DeepSeek. */
  {
    char linear[sizeof kimi_k2 + 128];
    snprintf(linear, sizeof linear, "{\"linear_attn_config\":{\"kda_layers\":[1,2,3]},%s",
             kimi_k2 + 1);
    at = strstr(linear, "DeepseekV3");
    memcpy(at, "DeepseekVx", 10);
    CHECK_I64(memi_cfg_parse(linear, strlen(linear), &mc, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, "linear_attn_config");
    CHECK_HAS(err.message, "says the model has linear-attention layers");
  }
  /* Neither a family's class nor MLA: the generic family. */
  {
    const char *plain = "{\"architectures\":[\"SomeOtherForCausalLM\"],\"model_type\":\"x\","
                        "\"hidden_size\":64,\"num_attention_heads\":4,\"intermediate_size\":96,"
                        "\"num_hidden_layers\":2,\"vocab_size\":128}";
    CHECK_I64(memi_cfg_parse(plain, strlen(plain), &mc, &err), MEMEST_OK);
    CHECK_STR(mc.arch->title, "generic (Qwen3-style layer)");
  }
}

/* ERNIE-4.5-21B-A3B as published (21B total, 3B active): per layer GQA
** attention 2 x 2,560 x 2,560 + 2 x 2,560 x 512 = 15,728,640 and two norms
** 5,120; layer 0 a dense MLP 3 x 2,560 x 12,288 = 94,371,840; layers 1 to
** 27 a router 64 x 2,560, 64 routed experts and 2 shared ones of 1,536
** (11,796,480 each): 778,731,520; embed_tokens 103,424 x 2,560 =
** 264,765,440, tied, and the final norm: 21,825,436,160. Active: 6 routed
** of the 64 (2,552,463,360 over the MoE layers): 3,352,148,480. */
static const char ernie[] =
    "{\"architectures\":[\"Ernie4_5_MoeForCausalLM\"],\"model_type\":\"ernie4_5_moe\","
    "\"hidden_size\":2560,\"intermediate_size\":12288,\"max_position_embeddings\":131072,"
    "\"num_attention_heads\":20,\"num_key_value_heads\":4,\"num_hidden_layers\":28,"
    "\"rms_norm_eps\":1e-05,\"vocab_size\":103424,\"rope_theta\":500000,"
    "\"tie_word_embeddings\":true,\"use_bias\":false,\"moe_num_experts\":64,"
    "\"moe_num_shared_experts\":2,\"moe_layer_start_index\":1,"
    "\"moe_intermediate_size\":1536,\"moe_k\":6,\"moe_layer_interval\":1}";

/* The ERNIE text with `extra` keys added after its opening brace. */
static int64_t ernie_total(const char *extra, model_config *mc) {
  char text[sizeof ernie + 128];
  memest_error err;
  int ovf = 0;
  snprintf(text, sizeof text, "{%s%s", extra, ernie + 1);
  if (memi_cfg_parse(text, strlen(text), mc, &err) != MEMEST_OK) return -1;
  return memi_msum_total_parameters(mc, &ovf);
}

static void test_ernie(void) {
  model_config mc;
  int ovf = 0, i, moe = 0;
  CHECK_I64(ernie_total("", &mc), 21825436160LL);
  CHECK_I64(memi_msum_active_parameters(&mc, &ovf), 3352148480LL);
  CHECK_I64(ovf, 0);
  CHECK_I64(mc.top_k, 6);
  CHECK_I64(mc.n_shared, 2);
  CHECK_I64(mc.layer_dense[0], 1);
  for (i = 1; i < 28; i++) moe += !mc.layer_dense[i];
  CHECK_I64(moe, 27);
  /* The trainer builds lm_head apart: the memory holds one more matrix. */
  CHECK_I64(parse_total(ernie, strlen(ernie)), 21825436160LL + 264765440LL);
  CHECK_HAS(mc.warnings[1], "tie_word_embeddings is true, but the trainer builds lm_head as a "
                            "matrix of its own: the run holds 264,765,440 parameters");
  /* The MoE range ends at moe_layer_end_index; an interval of 2 keeps odd layers. */
  CHECK_I64(ernie_total("\"moe_layer_end_index\":26,", &mc), 21825436160LL - 778731520LL + 94371840LL);
  CHECK_I64(mc.layer_dense[27], 1);
  CHECK_I64(mc.layer_dense[26], 0);
  {
    char every2[sizeof ernie];
    memest_error err;
    snprintf(every2, sizeof every2, "%.*s2}", (int)(sizeof ernie - 3), ernie);
    CHECK_I64(memi_cfg_parse(every2, strlen(every2), &mc, &err), MEMEST_OK);
  }
  for (i = 0, moe = 0; i < 28; i++) moe += !mc.layer_dense[i];
  CHECK_I64(moe, 14);
  CHECK_I64(mc.layer_dense[1], 0);
  CHECK_I64(mc.layer_dense[2], 1);
  /* A top-k above the experts is refused by the key it came from. */
  {
    char many[sizeof ernie + 8];
    memest_error err;
    const char *at = strstr(ernie, "\"moe_k\":6");
    snprintf(many, sizeof many, "%.*s\"moe_k\":99%s", (int)(at - ernie), ernie, at + 9);
    CHECK_I64(memi_cfg_parse(many, strlen(many), &mc, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, "moe_k");
    CHECK_HAS(err.message, "config key 'moe_k' is 99 but there are only 64 experts");
  }
  /* num_experts_per_tok and moe_k spell one value: given both, they must agree. */
  CHECK(ernie_total("\"num_experts_per_tok\":6,", &mc) > 0);
  CHECK_I64(mc.top_k, 6);
  {
    char both[sizeof ernie + 64];
    memest_error err;
    snprintf(both, sizeof both, "{\"num_experts_per_tok\":4,%s", ernie + 1);
    CHECK_I64(memi_cfg_parse(both, strlen(both), &mc, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, "moe_k");
    CHECK_HAS(err.message, "config keys 'num_experts_per_tok' and 'moe_k' both give one value "
                           "of the model, and they differ");
  }
}

/* Hunyuan-A13B as published (80B total, 13B active), its top-k, shared
** experts and expert width given per layer: 32 layers of GQA attention
** 2 x 4,096 x 4,096 + 2 x 4,096 x 1,024 = 41,943,040, q/k norms 256, two
** norms 8,192, a router 64 x 4,096 and 65 SwiGLU experts of 3,072 (64
** routed, one shared: 37,748,736 each); embed_tokens 128,167 x 4,096 =
** 524,972,032, tied, and the final norm: 80,393,183,232. */
static const char hunyuan_head[] =
    "{\"architectures\":[\"HunYuanMoEV1ForCausalLM\"],\"model_type\":\"hunyuan_v1_moe\","
    "\"hidden_size\":4096,\"intermediate_size\":3072,\"num_hidden_layers\":32,"
    "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"attention_head_dim\":128,"
    "\"head_dim\":128,\"num_experts\":64,\"use_qk_norm\":true,\"use_cla\":false,"
    "\"cla_share_factor\":2,\"use_mixed_mlp_moe\":true,\"moe_layer_num_skipped\":0,"
    "\"attention_bias\":false,\"mlp_bias\":false,\"vocab_size\":128167,"
    "\"tie_word_embeddings\":true,\"max_position_embeddings\":32768";

/* hunyuan_head with each per-layer key a list of 32 copies of its value;
** `odd` (if not -1) replaces moe_topk's entry 5. */
static void hunyuan(char *buf, size_t size, int odd) {
  static const char *const keys[] = {"moe_intermediate_size", "num_shared_expert", "moe_topk"};
  static const int values[] = {3072, 1, 8};
  size_t used;
  int k, i;
  snprintf(buf, size, "%s", hunyuan_head);
  for (k = 0; k < 3; k++) {
    used = strlen(buf);
    snprintf(buf + used, size - used, ",\"%s\":[", keys[k]);
    for (i = 0; i < 32; i++) {
      used = strlen(buf);
      int v = k == 2 && i == 5 && odd >= 0 ? odd : values[k];
      snprintf(buf + used, size - used, "%s%d", i ? "," : "", v);
    }
    used = strlen(buf);
    snprintf(buf + used, size - used, "]");
  }
  used = strlen(buf);
  snprintf(buf + used, size - used, "}");
}

static void test_hunyuan(void) {
  char text[2048];
  model_config mc;
  memest_error err;
  int ovf = 0;
  hunyuan(text, sizeof text, -1);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  CHECK_I64(memi_msum_total_parameters(&mc, &ovf), 80393183232LL);
  CHECK_I64(mc.top_k, 8);
  CHECK_I64(mc.shared_inter, 3072);
  CHECK_I64(mc.moe_inter, 3072);
  /* attention_head_dim is read, so no warning names it. */
  CHECK_I64(mc.n_warnings, 2);
  CHECK(strstr(mc.warnings[0], "attention_head_dim") == NULL);
  CHECK(strstr(mc.warnings[1], "attention_head_dim") == NULL);
  hunyuan(text, sizeof text, 2);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "moe_topk");
  CHECK_HAS(err.message, "config key 'moe_topk' is a list, not one whole number");
}

/* A hybrid the generic layer would count as all attention is refused by
** the key that shows it: Jamba's Mamba layers, Qwen3-Next's linear
** attention, a layer_types entry that is not attention. */
static void test_hybrids(void) {
  static const char *const cases[][3] = {
      {",\"attn_layer_period\":8,\"mamba_d_state\":16}", "attn_layer_period", "state-space (Mamba)"},
      {",\"linear_num_key_heads\":16}", "linear_num_key_heads", "linear-attention"},
      {",\"layer_types\":[\"full_attention\",\"mamba\"]}", "layer_types", "lists 'mamba' layers"},
      {",\"attn_type_list\":[0,1]}", "attn_type_list", "a layer of type 0 (1 is softmax attention)"},
  };
  char text[512];
  model_config mc;
  memest_error err;
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    snprintf(text, sizeof text, "%.*s%s", (int)strlen(tiny) - 1, tiny, cases[k][0]);
    CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_E_UNSUPPORTED);
    CHECK_STR(err.field, cases[k][1]);
    CHECK_HAS(err.message, cases[k][2]);
    CHECK_HAS(err.message, "which the generic layer (attention and an MLP) does not model");
  }
  /* Sliding and full attention are attention; so is MiniMax-M2's type 1. */
  snprintf(text, sizeof text, "%.*s,\"attn_type_list\":[1,1]}", (int)strlen(tiny) - 1, tiny);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  snprintf(text, sizeof text, "%.*s,\"layer_types\":[\"sliding_attention\",\"full_attention\"]}",
           (int)strlen(tiny) - 1, tiny);
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
}

/* DBRX as published (132B total, 36B active), its keys after MPT and
** nested in attn_config and ffn_config: 40 layers of fused Wqkv 6,144 x
** (6,144 + 2 x 8 x 128) = 50,331,648, out_proj 37,748,736, two norms
** 12,288, a router 16 x 6,144 and 16 GLU experts of 10,752 (198,180,864
** each); embed_tokens and lm_head 100,352 x 6,144 = 616,562,688 each, and
** the final norm: 131,596,523,520. Active: 4 experts of the 16:
** 36,469,708,800. */
static const char dbrx_head[] =
    "{\"architectures\":[\"DbrxForCausalLM\"],\"model_type\":\"dbrx\","
    "\"attn_config\":{\"clip_qkv\":8,\"kv_n_heads\":%d,\"rope_theta\":500000},"
    "\"d_model\":6144,\"ffn_config\":{%s\"moe_jitter_eps\":0,\"moe_num_experts\":16,"
    "\"moe_top_k\":%d},\"max_seq_len\":32768,\"n_heads\":48,\"n_layers\":40,"
    "\"tie_word_embeddings\":false,\"vocab_size\":100352}";

/* The DBRX config with kv_n_heads `kv`, `ffn` before the experts' keys and top-k `k`. */
static memest_code dbrx_parse(int kv, const char *ffn, int k, model_config *mc, memest_error *err) {
  char text[sizeof dbrx_head + 96];
  snprintf(text, sizeof text, dbrx_head, kv, ffn, k);
  return memi_cfg_parse(text, strlen(text), mc, err);
}

static void test_dbrx(void) {
  model_config mc;
  memest_error err;
  int ovf = 0;
  CHECK_I64(dbrx_parse(8, "\"ffn_hidden_size\":10752,", 4, &mc, &err), MEMEST_OK);
  CHECK_I64(memi_msum_total_parameters(&mc, &ovf), 131596523520LL);
  CHECK_I64(memi_msum_active_parameters(&mc, &ovf), 36469708800LL);
  CHECK_I64(ovf, 0);
  CHECK_I64(mc.hidden, 6144);
  CHECK_I64(mc.kv_heads, 8);
  CHECK_I64(mc.head_dim, 128);
  CHECK_I64(mc.experts, 16);
  CHECK_I64(mc.top_k, 4);
  CHECK_I64(mc.max_positions, 32768);
  CHECK_I64(mc.layer_dense[39], 0);
  CHECK_STR(mc.arch->title, "generic (Qwen3-style layer)");
  /* The nested objects count as read: the one warning is the generic layer's. */
  CHECK_HAS(mc.warnings[0], "model_type 'dbrx' is not one the trainer runs");
  CHECK_I64(mc.n_warnings, 1);
  /* What DBRX cannot do without is refused by its name and place. */
  CHECK_I64(dbrx_parse(8, "", 4, &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "ffn_hidden_size");
  CHECK_HAS(err.message, "config key 'ffn_hidden_size' in ffn_config is missing");
  CHECK_I64(dbrx_parse(7, "\"ffn_hidden_size\":10752,", 4, &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "kv_n_heads");
  CHECK_HAS(err.message, "'kv_n_heads' in attn_config (7) must divide n_heads (48)");
  CHECK_I64(dbrx_parse(8, "\"ffn_hidden_size\":10752,", 17, &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "moe_top_k");
}

/* Snowflake Arctic: 35 layers of attention (q, o 7,168 x 7,168; k, v 1,024 x
** 7,168: 117,440,512) and two norms (14,336), each MoE layer with a router
** (128 x 7,168 = 917,504), 128 experts of 3 x 4,864 x 7,168 (104,595,456
** each) and, with use_residual, a residual MLP of width 7,168 (3 x 7,168^2 =
** 154,140,672) after its own norm (7,168): 13,660,738,560 a layer; a dense
** layer (moe_layer_frequency 2: layer i is MoE where (i + 1) is even) has
** the norms, attention and one 4,864-wide MLP: 222,050,304. Embed and
** lm_head 2 x 32,000 x 7,168 and the final norm: 458,759,168. All MoE:
** 478,584,608,768 (480B published), active 2 experts and the rest:
** 17,318,647,808 (17B); without the residual MLP 473,189,434,368. */
static const char arctic_head[] =
    "{\"architectures\":[\"ArcticForCausalLM\"],\"model_type\":\"arctic\","
    "\"hidden_size\":7168,\"intermediate_size\":4864,\"max_position_embeddings\":4096,"
    "\"moe_layer_frequency\":%d,\"num_attention_heads\":56,\"num_experts_per_tok\":2,"
    "\"num_hidden_layers\":35,\"num_key_value_heads\":8,\"num_local_experts\":128,"
    "\"parallel_attn_mlp_res\":true,\"tie_word_embeddings\":false,\"use_residual\":%s,"
    "\"vocab_size\":32000}";

static memest_code arctic_parse(int freq, const char *residual, model_config *mc, memest_error *err) {
  char text[sizeof arctic_head + 16];
  snprintf(text, sizeof text, arctic_head, freq, residual);
  return memi_cfg_parse(text, strlen(text), mc, err);
}

static void test_arctic(void) {
  model_config mc;
  memest_error err;
  int ovf = 0;
  CHECK_I64(arctic_parse(1, "true", &mc, &err), MEMEST_OK);
  CHECK_I64(memi_msum_total_parameters(&mc, &ovf), 478584608768LL);
  CHECK_I64(memi_msum_active_parameters(&mc, &ovf), 17318647808LL);
  CHECK_I64(mc.shared_inter, 7168);
  CHECK_I64(mc.shared_norm, 1);
  CHECK_I64(mc.layer_dense[0], 0);
  /* Every key that carries parameters is read: the one warning is the generic layer's. */
  CHECK_I64(mc.n_warnings, 1);
  CHECK_HAS(mc.warnings[0], "model_type 'arctic' is not one the trainer runs");
  CHECK_I64(arctic_parse(1, "false", &mc, &err), MEMEST_OK);
  CHECK_I64(memi_msum_total_parameters(&mc, &ovf), 473189434368LL);
  CHECK_I64(mc.shared_inter, 0);
  CHECK_I64(arctic_parse(2, "true", &mc, &err), MEMEST_OK);
  CHECK_I64(mc.layer_dense[0], 1);
  CHECK_I64(mc.layer_dense[1], 0);
  CHECK_I64(mc.layer_dense[34], 1);
  CHECK_I64(memi_msum_total_parameters(&mc, &ovf), 236688220160LL);
  CHECK_I64(ovf, 0);
  CHECK_I64(arctic_parse(1, "2", &mc, &err), MEMEST_E_UNSUPPORTED);
  CHECK_STR(err.field, "use_residual");
  CHECK_HAS(err.message, "config key 'use_residual' must be true or false");
}

int main(void) {
  test_totals();
  test_dense();
  test_by_class();
  test_ernie();
  test_hunyuan();
  test_hybrids();
  test_dbrx();
  test_arctic();
  return check_done("test_arch_generic");
}
