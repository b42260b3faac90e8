/*
** test_arch_deepseek.c — the DeepSeek family (arch_deepseek.c): parameter
** totals by the trainer's inventory, the per-layer saved bytes of a tiny
** config (MLA, dense first layer, shared experts, fp32 router) in BF16,
** FP8, EP = 1 and under the MLA latent ring (CP), the ring transients, and
** the deepseek_v3 warnings.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/attention.h"
#include "arch_fixture.h"

/* H 64, 2 heads, no q LoRA, latent 32, nope 16, rope 8, v 16, 8 experts of
** width 32 (top-2), 1 shared expert, dense width 96 for layer 0, 4 layers. */
static const char tiny[] =
    "{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"num_attention_heads\":2,"
    "\"q_lora_rank\":null,\"kv_lora_rank\":32,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,"
    "\"v_head_dim\":16,\"n_routed_experts\":8,\"num_experts_per_tok\":2,"
    "\"moe_intermediate_size\":32,\"n_shared_experts\":1,\"intermediate_size\":96,"
    "\"first_k_dense_replace\":1,\"num_hidden_layers\":4,\"vocab_size\":128}";

/* memory-model.md §3.3: DeepSeek-V2-Lite 15,706,484,224. DeepSeek-V3 without MTP:
** 61 layers of MLA 187,107,328 (q_a 11,010,048, q_a_ln 1,536, q_b
** 37,748,736, kv_a 4,128,768, kv_a_ln 512, kv_b 16,777,216, o 117,440,512)
** + norms 14,336; 3 dense MLPs of 396,361,728; 58 MoE layers of experts
** 11,274,289,152 + router 1,835,008 + shared 44,040,192; embed and lm_head
** 926,679,040 each; norm 7,168 = 671,026,404,352 (671.0B within 0.2%). */
static void test_totals(void) {
  static const char *const names[] = {"deepseek-v2-lite", "deepseek-v3"};
  static const int64_t want[] = {15706484224LL, 671026404352LL};
  size_t i, len;
  char path[128], *text;
  for (i = 0; i < 2; i++) {
    snprintf(path, sizeof path, CHECK_MODELS "%s.json", names[i]);
    text = check_read_file(path, &len);
    CHECK(text != NULL);
    if (text != NULL) CHECK_I64(parse_total(text, len), want[i]);
    free(text);
    text = (char *)memest_model_preset_config(names[i]);
    CHECK(text != NULL);
    if (text != NULL) CHECK_I64(parse_total(text, strlen(text)), want[i]);
  }
  CHECK(fabs((double)want[1] / 671.0e9 - 1.0) < 0.002);
  /* Tiny: per layer MLA 9,760 (q 3,072, kv_a 2,560, kv_a_ln 32, kv_b 2,048,
  ** o 2,048) + norms 128; dense MLP 18,432; MoE router 512 + shared 6,144 +
  ** experts 49,152; 4 x 9,888 + 18,432 + 3 x 55,808 + 2 x 8,192 + 64. */
  CHECK_I64(parse_total(tiny, strlen(tiny)), 241856);
}

/* q_lora_rank 16 replaces q_proj (3,072) with q_a (1,024), its norm (16)
** and q_b (768): 1,264 fewer per layer. An absent key means HF's 1536. */
static void test_q_lora(void) {
  char text[sizeof tiny + 16];
  model_config mc;
  memest_error err;
  char *at;
  snprintf(text, sizeof text, "%s", tiny);
  at = strstr(text, "null");
  memcpy(at, "16  ", 4);
  CHECK_I64(parse_total(text, strlen(text)), 241856 - 4 * 1264);
  snprintf(text, sizeof text, "%s", tiny);
  at = strstr(text, "\"q_lora_rank\":null,");
  memset(at, ' ', strlen("\"q_lora_rank\":null,"));
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  CHECK_I64(mc.q_lora_rank, 1536);
}

/* BF16, ep 2: n_in = ceil(1.18 * 256) = 303, E_loc 4, M_act = r128(303 +
** 256) = 640, R = A(303 + 508) = 1024, combine A(256) = 1024; m = 128.
** Stage 1, MoE layer: rstd 2*128*4 = 1,024; q 128*48*2 = 12,288; kv_a
** 128*40*2 = 10,240; kv_a_ln rstd 512; o 128*32*2 = 8,192; lse 128*2*4 =
** 1,024; kv_b output 128*64*2 = 16,384; k_pe 128*8*2 = 2,048; h_mid 16,384;
** g_s, u_s 2*128*32*2 = 16,384; act_s 8,192; probs 128*8*4 = 4,096;
** topk_idx 128*2*8 = 2,048: 98,816. Generic EP > 1: residual 16,384,
** topk_weight 1,024, dispatch_token_idxs 128*2*8 = 2,048, moe_local_idxs
** 2,048, expand_idx 303*8 = 2,424, scatter 1024*128 = 131,072, reverse
** idx + offs 2,424 + 16, g, u 2*640*32*2 = 81,920, act 40,960, combine
** 131,072, bf16 cast 512, layer output 16,384: 527,104 in all. Dense
** layer 0: stage 1 without shared/router 51,712 + residual, x2, MLP out,
** layer out 4 x 16,384 + g, u, act 3*128*96*2 = 73,728: 190,976. The
** deferred capture: scatter 131,072 + act 40,960 + grad_g/u 81,920 + dy
** A(640)*128 = 131,072 = 385,024. */
static void test_layers_bf16(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 0);
  if (t == NULL) return;
  CHECK_I64(t->lo.d.n_in, 303);
  CHECK_I64(t->lo.d.m_act, 640);
  CHECK_STR(prog(t, 0)->kind, "dense MLP");
  CHECK_I64(prog(t, 0)->retained, 190976);
  CHECK_I64(prog(t, 0)->capture, 0);
  CHECK_STR(prog(t, 1)->kind, "MoE");
  CHECK_I64(prog(t, 1)->retained, 527104);
  CHECK_I64(prog(t, 1)->capture, 385024);
  /* Rotary tables: 2 * seq * qk_rope * 2 bytes; per chunk the same again. */
  CHECK_I64(t->mc.arch->rotary_dim(&t->mc), 8);
  CHECK_I64(t->sr.cossin, 2 * 128 * 8 * 2);
  tiny_free(t);
}

/* EP = 1 (memory-model.md §4.3): n_in = 256, M_act = r128(256 + 64*8) = 768, R =
** A(256 + 8*127) = 2,048. MoE: 98,816 + residual 16,384 + topk_weight
** 1,024 + dispatch tokens 256*128 = 32,768 + scatter 2048*128 = 262,144 +
** reverse idx + offs 2,048 + 32 + g, u, act 3*768*32*2 = 147,456 + expert
** output A(256)*128 = 131,072 + cast 512 + output 16,384 = 708,640. */
static void test_layers_ep1(void) {
  tiny_run *t = tiny_build(tiny, 1, 1, 0);
  if (t == NULL) return;
  CHECK_I64(prog(t, 1)->retained, 708640);
  CHECK_I64(prog(t, 0)->retained, 190976);
  tiny_free(t);
}

/* FP8 (memory-model.md §4.8). Compiled FP8Linears save per chunk weight_t (K*N +
** 128x128 block scales) and input_t (K*128 + scales): q 3,076 + 8,196, kv_a
** 2,564 + 8,196, kv_b 2,052 + 4,100, o 2,052 + 4,100 = 34,336; shared gate
** and up 2,052 + 8,196 each, down 2,052 + 4,100 = 26,648; act_s is no longer
** saved: stage 1 = 98,816 - 8,192 + 34,336 + 26,648 = 151,608. Experts:
** g, u 81,920 + group_indices 640*4 = 2,560 + per-channel x copies 2 x
** (640*64 + 5*64*4) = 84,480 + act copy 640*32 + 5*32*4 = 21,120; the bf16
** scatter buffer is not saved. MoE = 151,608 + 16,384 + 1,024 + 2,048 +
** 2,048 + 2,424 + 2,440 + 190,080 + 131,072 + 512 + 16,384 = 516,024. The
** capture: input copies 105,600 + per-channel grads of dy (640, 64) and of
** grad_g/u (640, 64), 42,240 each = 190,080. Dense: stage 1 51,712 +
** 34,336; x2ᵀ twice 2 x (64*128 + 4), actᵀ 96*128 + 4, g, u 49,152,
** residual, x2, MLP out, layer out: 229,420. */
static void test_layers_fp8(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 1);
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  if (t == NULL) return;
  CHECK_I64(prog(t, 1)->retained, 516024);
  CHECK_I64(prog(t, 1)->capture, 190080);
  CHECK_I64(prog(t, 0)->retained, 229420);
  tiny_free(t);
  /* The dense MLP's eager FP8Linears and the experts keep weight caches;
  ** the FP8 warning names what is modelled and claims no lower bound. */
  check_params(&p, "deepseek-v2-lite", 1, 8, 1, 8, 1, 256, 2048, "h100");
  CHECK_I64(memest_params_set(&p, "fp8_training", "deep-gemm", &err), MEMEST_OK);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  if (r != NULL) {
    int i, found = 0;
    /* Dense MLP 3 x 10944 x 2048 and 26 x 8 experts x 3 x 1408 x 2048, at
    ** 2 B per parameter plus 8 B per 128x128 block of W and of Wᵀ. */
    int64_t dense = 3 * (2LL * 10944 * 2048 + 8LL * 86 * 16);
    int64_t experts = 26LL * 8 * 3 * (2LL * 1408 * 2048 + 8LL * 11 * 16);
    CHECK_I64(r->ranks[0].at_peak.b[C_FP8_CACHE], dense + experts);
    for (i = 0; i < r->n_warnings; i++) {
      if (strstr(r->warnings[i], "FP8 training: modelled are") != NULL) found = 1;
      CHECK(strstr(r->warnings[i], "lower bound") == NULL);
    }
    CHECK(found);
  }
  memest_result_free(r);
}

/* CP 2 (memory-model.md §4.5, cp > 1 row): m = 128 local tokens. Stage 1 of the dense
** layer: rstd 1,024, q 12,288 (kept by the q_nope view), kv_a 10,240,
** kv_a_ln rstd 512, out 8,192, lse 1,024, RoPE'd q_pe 128*16*2 = 4,096,
** normed_kv 128*32*2 = 8,192, k_pe 2,048 = 47,616; + 4 x 16,384 + 73,728 =
** 186,880. */
static void test_layers_cp(void) {
  tiny_run *t = tiny_build(tiny, 1, 2, 0);
  if (t == NULL) return;
  CHECK_I64(t->lo.d.m, 128);
  CHECK_I64(prog(t, 0)->retained, 186880);
  tiny_free(t);
}

/* The MLA ring (memory-model.md §5.6), m = 128, 2 heads, qk 24, latent 32 + rope 8:
** forward q cat 12,288 + one latent pair (cp = 2) 10,240 + decompressed kv
** 16,384 + value 8,192 + key 12,288 + partial out 8,192 + partial lse 1,024
** + fp32 out x2 32,768 + lse x2 2,048 = 103,424; cp = 4 holds two pairs.
** Backward, cp = 2: fp32 kv_b copy and dW 16,384, q cat 12,288, q_back
** 6,144, dout/out halves 8,192, lse half 512, fp32 dq 24,576, two fp32
** latent-grad sets 40,960 = 109,056; a step holds the latent pair 10,240,
** the decompression 36,864, the FA4 grads 32,768 and d_kv 49,152 (bf16 +
** fp32) + fp32 latent copies 32,768 + dW block 8,192: 169,984 (the end,
** 167,936, is lower). */
static void test_mla_ring(void) {
  run_dims d;
  mla_shape a;
  int ovf = 0;
  memset(&d, 0, sizeof d);
  d.m = 128;
  d.cp = 2;
  a.heads = 2;
  a.nope = 16;
  a.rope = 8;
  a.v_dim = 16;
  a.kv_lora = 32;
  CHECK_I64(memi_mla_ring_fwd_bytes(&d, &a, &ovf), 103424);
  CHECK_I64(memi_mla_ring_bwd_bytes(&d, &a, &ovf), 109056 + 169984);
  d.cp = 4;
  CHECK_I64(memi_mla_ring_fwd_bytes(&d, &a, &ovf), 103424 + 10240);
  d.cp = 1;
  CHECK_I64(memi_mla_ring_fwd_bytes(&d, &a, &ovf), 0);
  CHECK_I64(ovf, 0);
}

/* deepseek_v3: estimated with the V2 layer, with both warnings; CP is
** supported (the MLA latent ring) and warns that it is not validated. */
static void test_v3_and_cp(void) {
  model_config mc;
  memest_error err;
  memest_params p;
  memest_result *r = NULL;
  const char *text = memest_model_preset_config("deepseek-v3");
  CHECK(text != NULL);
  if (text == NULL) return;
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  CHECK_STR(mc.arch->model_type, "deepseek_v3");
  CHECK_I64(mc.n_warnings, 2);
  CHECK_HAS(mc.warnings[0], "estimated with the DeepSeek-V2 layer");
  CHECK_HAS(mc.warnings[1], "num_nextn_predict_layers = 1: the trainer builds no "
                            "multi-token-prediction layers");
  CHECK_I64(mc.mtp_layers, 1);
  CHECK_I64(mc.first_k_dense, 3);
  check_params(&p, "deepseek-v2-lite", 1, 4, 2, 8, 1, 64, 4096, "h200");
  CHECK_I64(memest_validate(NULL, 0, &p, &err, 1), 0);
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  if (r != NULL) CHECK_HAS(r->warnings[0], "CP figures are not yet validated");
  memest_result_free(r);
}

int main(void) {
  test_totals();
  test_q_lora();
  test_layers_bf16();
  test_layers_ep1();
  test_layers_fp8();
  test_layers_cp();
  test_mla_ring();
  test_v3_and_cp();
  return check_done("test_arch_deepseek");
}
