/*
** test_arch_qwen3.c — the Qwen3-MoE family (arch_qwen3.c) under the options
** that change memory: the per-layer saved bytes of a tiny config in BF16
** and FP8 (the q/k/v/o fp8 weights and inputs, the expert fp8 copies), and
** the standard ring-attention transients of context parallelism (§5.6).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/attention.h"
#include "arch_fixture.h"

/* H 64, 4 heads of 16 (2 KV heads), 8 experts of width 32 (top-2). */
static const char tiny[] =
    "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"head_dim\":16,\"num_experts\":8,"
    "\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"norm_topk_prob\":true,"
    "\"num_hidden_layers\":2,\"vocab_size\":128}";

/* BF16, ep 2 (n_in 303, M_act 640, R 1,024, m 128). Stage 1: rstd 1,024,
** q 16,384, k 8,192, v 8,192, o 16,384, lse 2,048, q/k-norm rstd 128*6*4 =
** 3,072, probs 4,096, topk_idx 2,048, raw top-k + sum 1,536 = 62,976; the
** generic EP > 1 tensors with g, u, act: 428,288; 491,264 in all. FP8:
** q/k/v/o add 45,088; experts g, u 81,920 + group_indices 2,560 + x copies
** 84,480 + act copy 21,120 replace the scatter buffer 131,072 and act
** 40,960: 491,264 + 45,088 + 67,200 - 131,072 = 472,480. Parameters: q
** 4,096, k, v 2,048 each, o 4,096, q/k norms 32, norms 128, router 512,
** experts 49,152 per layer; 2 layers + 16,384 + 64 = 140,672. */
static void test_layers(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 0);
  CHECK_I64(parse_total(tiny, strlen(tiny)), 140672);
  if (t != NULL) {
    CHECK_I64(prog(t, 0)->retained, 491264);
    CHECK_I64(prog(t, 0)->capture, 385024);
  }
  tiny_free(t);
  t = tiny_build(tiny, 2, 1, 1);
  if (t != NULL) {
    CHECK_I64(prog(t, 0)->retained, 472480);
    CHECK_I64(prog(t, 0)->capture, 190080);
  }
  tiny_free(t);
}

/* The standard ring (memory-model.md §5.6), m 128, q width 64, kv width 32, 4 heads.
** Forward, cp 2: one k/v pair 2*128*32*2 = 16,384, partial out 16,384,
** partial lse 2,048, fp32 out old/new 65,536, lse old/new 4,096 = 104,448;
** cp 4 holds the received and the next pair: + 16,384. Backward, cp 2:
** dout/q/out halves 3*64*64*2 = 24,576, lse half 1,024, fp32 dq 32,768,
** two fp32 dk/dv sets 65,536 = 123,904; then the larger of a step (pairs
** 16,384 + FA4's fp32 dq 32,768) and the end (held pair 16,384 + bf16
** casts 128*128*2 = 32,768): 173,056; cp 4: 189,440. */
static void test_ring(void) {
  run_dims d;
  int ovf = 0;
  memset(&d, 0, sizeof d);
  d.m = 128;
  d.cp = 2;
  CHECK_I64(memi_ring_fwd_bytes(&d, 64, 32, 4, &ovf), 104448);
  CHECK_I64(memi_ring_bwd_bytes(&d, 64, 32, 4, &ovf), 173056);
  d.cp = 4;
  CHECK_I64(memi_ring_fwd_bytes(&d, 64, 32, 4, &ovf), 120832);
  CHECK_I64(memi_ring_bwd_bytes(&d, 64, 32, 4, &ovf), 189440);
  d.cp = 1;
  CHECK_I64(memi_ring_fwd_bytes(&d, 64, 32, 4, &ovf) + memi_ring_bwd_bytes(&d, 64, 32, 4, &ovf), 0);
  CHECK_I64(ovf, 0);
}

int main(void) {
  test_layers();
  test_ring();
  return check_done("test_arch_qwen3");
}
