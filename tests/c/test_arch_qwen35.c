/*
** test_arch_qwen35.c — the Qwen3.5-MoE family (arch_qwen35.c): parameter
** totals by the trainer's inventory (flat and text_config configs), the
** per-layer saved bytes of a tiny config (Gated DeltaNet and gated full
** attention, shared expert with its sigmoid gate, fused experts) in BF16,
** FP8 and EP = 1, the Muon flags, the partial rotary width, the default
** layer_types, and the refusal of context parallelism.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"

/* H 64, 2 heads of 32 (1 KV head), rotary factor 0.25; DeltaNet 2 key heads
** and 4 value heads of 16, kernel 4; 8 experts of width 32 (top-2), shared
** width 32; a linear and a full layer. */
static const char tiny[] =
    "{\"model_type\":\"qwen3_5_moe_text\",\"hidden_size\":64,\"num_attention_heads\":2,"
    "\"num_key_value_heads\":1,\"head_dim\":32,"
    "\"layer_types\":[\"linear_attention\",\"full_attention\"],\"linear_num_key_heads\":2,"
    "\"linear_num_value_heads\":4,\"linear_key_head_dim\":16,\"linear_value_head_dim\":16,"
    "\"linear_conv_kernel_dim\":4,\"num_experts\":8,\"num_experts_per_tok\":2,"
    "\"moe_intermediate_size\":32,\"shared_expert_intermediate_size\":32,"
    "\"num_hidden_layers\":2,\"vocab_size\":128,"
    "\"rope_parameters\":{\"rope_theta\":10000,\"partial_rotary_factor\":0.25}}";

/* memory-model.md §3.3: Qwen3.5-35B-A3B (text tower, no MTP) 34,660,610,688, from the
** flat config, the preset, and a qwen3_5_moe config nesting it in
** text_config (which warns). Tiny: conv_dim 2*2*16 + 4*16 = 128; DeltaNet
** conv1d 512 + dt_bias, A_log 8 + norm 16 + in_proj_qkv 8,192 + z 4,096 +
** b, a 512 + out 4,096 = 17,432; full attention q 128*64 = 8,192 + k, v
** 2,048 each + o 4,096 + q/k norms 64 = 16,448; every layer norms 128 +
** router 512 + shared 6,144 + shared gate 64 + experts 49,152 = 56,000;
** + embed and lm_head 16,384 + norm 64 = 162,328. */
static void test_totals(void) {
  const char *preset = memest_model_preset_config("qwen3.5-35b-a3b");
  size_t len;
  char *text = check_read_file(CHECK_MODELS "qwen3.5-35b-a3b.json", &len), *wrapped;
  model_config mc;
  memest_error err;
  int ovf = 0;
  CHECK(text != NULL && preset != NULL);
  if (text == NULL || preset == NULL) return;
  CHECK_I64(parse_total(text, len), 34660610688LL);
  CHECK_I64(parse_total(preset, strlen(preset)), 34660610688LL);
  wrapped = malloc(len + 128);
  if (wrapped != NULL) {
    snprintf(wrapped, len + 128, "{\"model_type\":\"qwen3_5_moe\",\"text_config\":%s}", text);
    CHECK_I64(memi_cfg_parse(wrapped, strlen(wrapped), &mc, &err), MEMEST_OK);
    CHECK_STR(mc.arch->model_type, "qwen3_5_moe_text");
    CHECK_I64(memi_inv_model_parameters(&mc, &ovf), 34660610688LL);
    CHECK_I64(mc.n_warnings, 2);
    CHECK_HAS(mc.warnings[0], "read from text_config (model_type 'qwen3_5_moe')");
    CHECK_HAS(mc.warnings[1], "mtp_num_hidden_layers = 1: the trainer builds no "
                              "multi-token-prediction module");
  }
  free(wrapped);
  free(text);
  CHECK_I64(parse_total(tiny, strlen(tiny)), 162328);
}

/* is_muon_param: the 3-D conv1d weight, in_proj_b/a and the (1, H)
** shared_expert_gate are Muon; the router (".gate.weight") and dt_bias are
** AdamW; the fused experts defer their wgrad. */
static void test_flags(void) {
  model_config mc;
  memest_error err;
  param_list pl;
  int i, seen = 0;
  CHECK_I64(memi_cfg_parse(tiny, strlen(tiny), &mc, &err), MEMEST_OK);
  pl.n = pl.dropped = 0;
  mc.arch->layer_params(&mc, 0, 4, &pl);
  for (i = 0; i < pl.n; i++) {
    const param_desc *p = &pl.p[i];
    if (strcmp(p->name, "linear_attn.conv1d.weight") == 0) {
      CHECK(p->muon && p->ndim == 3 && p->d[0] == 128 && p->d[2] == 4);
      seen++;
    }
    if (strcmp(p->name, "mlp.shared_expert_gate.weight") == 0 ||
        strcmp(p->name, "linear_attn.in_proj_b.weight") == 0) {
      CHECK(p->muon && !p->fp8);
      seen++;
    }
    if (strcmp(p->name, "mlp.gate.weight") == 0 || strcmp(p->name, "linear_attn.dt_bias") == 0) {
      CHECK(!p->muon);
      seen++;
    }
    if (strcmp(p->name, "mlp.experts.gate_up_proj.weight") == 0) {
      CHECK(p->expert && p->muon && p->deferred && p->fp8 && p->d[1] == 64);
      seen++;
    }
  }
  CHECK_I64(seen, 6);
}

/* BF16, ep 2 (n_in 303, M_act 640, R 1,024, m 128). DeltaNet stage 1: rstd
** 1,024, conv input 128*128*2 = 32,768, conv output 131*128*2 = 33,536, z
** 16,384, A 128*4*64*2 = 65,536, g 2,048, beta 1,024, o 16,384, gated-norm
** rstd 2,048, l2 norms 2,048; shared h_mid 16,384, g_s/u_s 16,384, act_s
** 8,192, shared output 16,384, sigmoid 256; router probs 4,096, topk_idx
** 2,048, raw top-k + sum 1,536: 238,080. Experts: gate and up copies
** 81,920, act 40,960. With the generic EP > 1 tensors (428,288 with the
** experts): 666,368. Full attention stage 1: rstd 1,024, q_proj output
** 128*128*2 = 32,768, k 8,192, v 8,192, o 16,384, lse 1,024, q/k-norm rstd
** 1,536, shared 57,600, router 7,680 = 134,400; layer 562,688. */
static void test_layers(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 0);
  if (t == NULL) return;
  CHECK_STR(prog(t, 0)->kind, "MoE (Gated DeltaNet)");
  CHECK_STR(prog(t, 1)->kind, "MoE (gated full attention)");
  CHECK_I64(prog(t, 0)->retained, 666368);
  CHECK_I64(prog(t, 1)->retained, 562688);
  CHECK_I64(prog(t, 0)->capture, 385024);
  /* int(32 * 0.25) = 8; the per-chunk gather copies it. */
  CHECK_I64(t->mc.arch->rotary_dim(&t->mc), 8);
  CHECK_I64(t->sr.cossin, 2 * 128 * 8 * 2);
  tiny_free(t);
}

/* EP = 1 (n_in 256, M_act 768, R 2,048): 238,080 + 16,384 + 1,024 +
** dispatch tokens 32,768 + scatter 262,144 + idx 2,080 + experts 147,456 +
** expert output 131,072 + 512 + 16,384 = 847,904. */
static void test_layers_ep1(void) {
  tiny_run *t = tiny_build(tiny, 1, 1, 0);
  if (t == NULL) return;
  CHECK_I64(prog(t, 0)->retained, 847904);
  tiny_free(t);
}

/* FP8: in_proj_qkv (64 -> 128) 8,196 + 8,196, in_proj_z 4,100 + 8,196,
** out_proj 4,100 + 8,196 = 40,984; shared 26,648 with act_s not saved:
** stage 1 297,520. Experts: gate/up copies 81,920 + group_indices 2,560 +
** per-channel x 42,240 + act 21,120 = 147,840; no scatter buffer: 619,696.
** Full attention: q (64 -> 128) 8,196 + 8,196, k and v 2,052 + 8,196, o
** 4,100 + 8,196 = 49,184: 524,216. */
static void test_layers_fp8(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 1);
  if (t == NULL) return;
  CHECK_I64(prog(t, 0)->retained, 619696);
  CHECK_I64(prog(t, 1)->retained, 524216);
  CHECK_I64(prog(t, 0)->capture, 147840);
  tiny_free(t);
}

/* Without layer_types every full_attention_interval-th layer (default 4)
** is full attention; cp > 1 is refused. */
static void test_defaults_and_refusals(void) {
  static const char no_types[] =
      "{\"model_type\":\"qwen3_5_moe_text\",\"hidden_size\":64,\"num_attention_heads\":2,"
      "\"num_key_value_heads\":1,\"head_dim\":32,\"linear_num_key_heads\":2,"
      "\"linear_num_value_heads\":4,\"linear_key_head_dim\":16,\"linear_value_head_dim\":16,"
      "\"linear_conv_kernel_dim\":4,\"num_experts\":8,\"num_experts_per_tok\":2,"
      "\"moe_intermediate_size\":32,\"shared_expert_intermediate_size\":32,"
      "\"num_hidden_layers\":8,\"vocab_size\":128}";
  model_config mc;
  memest_params p;
  memest_error errs[4];
  CHECK_I64(memi_cfg_parse(no_types, strlen(no_types), &mc, errs), MEMEST_OK);
  CHECK_I64(mc.layer_attn[0], ATTN_LINEAR);
  CHECK_I64(mc.layer_attn[2], ATTN_LINEAR);
  CHECK_I64(mc.layer_attn[3], ATTN_FULL);
  CHECK_I64(mc.layer_attn[7], ATTN_FULL);
  CHECK(mc.partial_rotary == 1.0);
  check_params(&p, "qwen3.5-35b-a3b", 2, 8, 2, 32, 1, 1024, 2048, "h100");
  CHECK(memest_validate(NULL, 0, &p, errs, 4) >= 1);
  CHECK_I64(errs[0].code, MEMEST_E_UNSUPPORTED);
  CHECK_STR(errs[0].message, "the trainer runs Qwen3.5-MoE without context parallelism (it "
                             "raises NotImplementedError for cp > 1); use --cp-size 1");
}

int main(void) {
  test_totals();
  test_flags();
  test_layers();
  test_layers_ep1();
  test_layers_fp8();
  test_defaults_and_refusals();
  return check_done("test_arch_qwen35");
}
