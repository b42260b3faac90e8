/*
** test_arch_gptoss.c — the gpt-oss family (arch_gptoss.c): parameter totals
** by the trainer's inventory, the per-layer saved bytes of a tiny config
** (biased attention, sinks, the router's own graph, clamped-SwiGLU experts
** with biases) in BF16, FP8 and EP = 1, the parameter flags (sinks without
** grad, AdamW biases), the views-only rotary, layer_types, and the refusal
** of context parallelism.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"

/* H 64, 4 heads of 16 (2 KV heads), biased attention, 8 experts of width
** 32 (top-2), a sliding and a full layer. */
static const char tiny[] =
    "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"num_attention_heads\":4,"
    "\"num_key_value_heads\":2,\"head_dim\":16,\"attention_bias\":true,"
    "\"num_local_experts\":8,\"num_experts_per_tok\":2,\"intermediate_size\":32,"
    "\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"sliding_window\":8,"
    "\"num_hidden_layers\":2,\"vocab_size\":128}";

/* memory-model.md §3.3: gpt-oss-20b 20,914,757,184 and gpt-oss-120b 116,829,156,672.
** Tiny, per layer: q 4,096 + 64, k and v 2,048 + 32 each, o 4,096 + 64,
** sinks 4, norms 128, router 512 + 8, gate_up 8*64*64 = 32,768 + bias 512,
** down 8*64*32 = 16,384 + bias 512 = 63,308; 2 layers + embed and lm_head
** 2 x 8,192 + norm 64 = 143,064. */
static void test_totals(void) {
  static const char *const names[] = {"gpt-oss-20b", "gpt-oss-120b"};
  static const int64_t want[] = {20914757184LL, 116829156672LL};
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
  CHECK_I64(parse_total(tiny, strlen(tiny)), 143064);
}

/* The inventory's flags (memory-model.md §3.3): sinks get no grad, so no accumulator
** and no optimizer state; expert biases are expert-sharded AdamW; the fused
** GEMM weights are Muon, deferred and FP8-cached. */
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
    if (strcmp(p->name, "self_attn.sinks") == 0) {
      CHECK_I64(p->grad, 0);
      seen++;
    } else {
      CHECK_I64(p->grad, 1);
    }
    if (strcmp(p->name, "mlp.experts.gate_up_proj") == 0) {
      CHECK(p->expert && p->muon && p->deferred && p->fp8 && p->d[1] == 64);
      seen++;
    }
    if (strcmp(p->name, "mlp.experts.gate_up_proj_bias") == 0) {
      CHECK(p->expert && !p->muon && !p->deferred && !p->fp8 && p->ndim == 2);
      seen++;
    }
    if (strcmp(p->name, "mlp.router.bias") == 0 || strcmp(p->name, "mlp.router.weight") == 0) {
      CHECK(!p->muon && !p->expert);
      seen++;
    }
  }
  CHECK_I64(seen, 5);
}

/* BF16, ep 2 (n_in 303, M_act 640, R 1,024, m 128). Stage 1: rstd 1,024,
** q 16,384, k 8,192, v 8,192, o 16,384, lse 128*4*4 = 2,048, bf16 sinks 8,
** and the router graph's x2 16,384, topk_idx 2,048, top-k softmax 1,024 =
** 71,688. Experts: biased gate_up 640*64*2 = 81,920 and activated 40,960.
** With the generic EP > 1 tensors (residual 16,384, topk_weight 1,024,
** dispatch_token_idxs 2,048, moe_local_idxs 2,048, expand_idx 2,424,
** scatter 131,072, reverse idx + offs 2,440, combine 131,072, cast 512,
** output 16,384): 499,976. Capture: 131,072 + 40,960 + 81,920 + 131,072. */
static void test_layers(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 0);
  if (t == NULL) return;
  CHECK_STR(prog(t, 0)->kind, "MoE (sliding-window attention)");
  CHECK_STR(prog(t, 1)->kind, "MoE");
  CHECK_I64(prog(t, 0)->retained, 499976);
  CHECK_I64(prog(t, 1)->retained, 499976);
  CHECK_I64(prog(t, 0)->capture, 385024);
  /* Deferred wgrads: gate_up then down (bf16, E_loc 4). */
  CHECK_I64(prog(t, 0)->n_wgrad, 2);
  CHECK_I64(prog(t, 0)->wgrad[1], 2 * 4 * 64 * 32);
  /* The posemb returns views: no per-chunk cos/sin copy. */
  CHECK_I64(t->sr.cossin, 0);
  CHECK_I64(t->mc.arch->rotary_dim(&t->mc), 16);
  /* The sinks' 4 elements per layer are sharded but get no grad. */
  CHECK_I64(t->sr.inv.groups[1].g.full - t->sr.inv.groups[1].g.full_grad, 4);
  tiny_free(t);
}

/* EP = 1: n_in 256, M_act 768, R A(256 + 8*127) = 2,048. 71,688 + residual
** 16,384 + topk_weight 1,024 + dispatch tokens 32,768 + scatter 262,144 +
** reverse idx + offs 2,080 + gate_up and activated 3*768*32*2 = 147,456 +
** expert output 131,072 + cast 512 + output 16,384 = 681,512. */
static void test_layers_ep1(void) {
  tiny_run *t = tiny_build(tiny, 1, 1, 0);
  if (t == NULL) return;
  CHECK_I64(prog(t, 0)->retained, 681512);
  tiny_free(t);
}

/* FP8 (memory-model.md §4.8): q/k/v/o save weight_t and input_t per chunk: q 4,100 +
** 8,196, k and v 2,052 + 8,196 each, o 4,100 + 8,196 = 45,088; experts keep
** the biased gate_up 81,920, group_indices 2,560 and per-channel copies of
** x (640*64 + 5*64*4 = 42,240) and activated (21,120) instead of the
** scatter buffer and bf16 activated: 499,976 + 45,088 - 131,072 - 40,960 +
** 2,560 + 42,240 + 21,120 = 438,952. Capture: 63,360 + 2 x 42,240. */
static void test_layers_fp8(void) {
  tiny_run *t = tiny_build(tiny, 2, 1, 1);
  if (t == NULL) return;
  CHECK_I64(prog(t, 0)->retained, 438952);
  CHECK_I64(prog(t, 0)->capture, 147840);
  tiny_free(t);
}

/* The trainer raises NotImplementedError for cp > 1. */
static void test_refusals(void) {
  memest_params p;
  memest_error errs[4];
  model_config mc;
  char bad[sizeof tiny];
  char *at;
  check_params(&p, "gpt-oss-20b", 1, 8, 2, 16, 1, 256, 2048, "h100");
  CHECK(memest_validate(NULL, 0, &p, errs, 4) >= 1);
  CHECK_I64(errs[0].code, MEMEST_E_UNSUPPORTED);
  CHECK_STR(errs[0].message, "the trainer runs gpt-oss without context parallelism (it raises "
                             "NotImplementedError for cp > 1); use --cp-size 1");
  /* layer_types must name every layer with a known kind. */
  snprintf(bad, sizeof bad, "%s", tiny);
  at = strstr(bad, "full_attention");
  memcpy(at, "fuzz", 4);
  CHECK_I64(memi_cfg_parse(bad, strlen(bad), &mc, errs), MEMEST_E_CONFIG);
  CHECK_STR(errs[0].field, "layer_types");
}

int main(void) {
  test_totals();
  test_flags();
  test_layers();
  test_layers_ep1();
  test_layers_fp8();
  test_refusals();
  return check_done("test_arch_gptoss");
}
