/*
** arch_fixture.c — the family tests' shared fixture (arch_fixture.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_fixture.h"

/* pp 1 on ep*cp GPUs, micro batch 1, two chunks, m = 128 tokens per chunk;
** builds rank 0's layer programs (module 0 holds layers 0-1). */
tiny_run *tiny_build(const char *text, int64_t ep, int64_t cp, int fp8) {
  tiny_run *t = calloc(1, sizeof *t);
  memest_error err;
  if (t == NULL) return NULL;
  CHECK_I64(memi_cfg_parse(text, strlen(text), &t->mc, &err), MEMEST_OK);
  check_params(&t->p, "tiny", 1, ep, cp, ep * cp, 1, 2 * ep, 128 * cp, "h100");
  if (fp8) CHECK_I64(memest_params_set(&t->p, "fp8_training", "deep-gemm", &err), MEMEST_OK);
  if (memi_layout_build(&t->mc, &t->p, &t->lo, &err) != MEMEST_OK ||
      memi_sim_rank_init(&t->sr, &t->mc, &t->lo, &t->p, 0, NULL, &err) != MEMEST_OK) {
    fprintf(stderr, "tiny_build: %s\n", err.message);
    check_failures++;
    free(t);
    return NULL;
  }
  return t;
}

void tiny_free(tiny_run *t) {
  if (t == NULL) return;
  memi_sim_rank_free(&t->sr);
  free(t);
}

const layer_prog *prog(const tiny_run *t, int layer) {
  int m, li;
  for (m = 0; m < 2; m++) {
    for (li = 0; li < t->sr.inv.mod[m].n_layers; li++) {
      if (t->sr.layers[m][li].layer == layer) return t->sr.layers[m][li].prog;
    }
  }
  CHECK(0);
  return NULL;
}

int64_t parse_total(const char *text, size_t len) {
  model_config mc;
  memest_error err;
  int ovf = 0;
  int64_t n;
  CHECK_I64(memi_cfg_parse(text, len, &mc, &err), MEMEST_OK);
  n = memi_inv_model_parameters(&mc, &ovf);
  CHECK_I64(ovf, 0);
  return n;
}
