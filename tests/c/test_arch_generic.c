/*
** test_arch_generic.c — configs the trainer does not run (arch_generic.c):
** Mixtral-8x7B's parameter total and the warning that the architecture is
** approximated, and a dense Llama-style config estimated as dense (its
** per-layer saved bytes in BF16 and FP8, and the refusal of ep > 1).
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

int main(void) {
  test_totals();
  test_dense();
  return check_done("test_arch_generic");
}
