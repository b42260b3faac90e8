/*
** test_est_cache.c — what one est_cache carries from estimate to estimate:
** the parameter counts of the model it last counted. Estimates of other
** models through the same cache, in any order, report each model's own
** counts, as a fresh cache does.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/presets.h"
#include "sim/result.h"

/* Each preset estimated with a cache of its own: the reference counts. */
static void fresh_counts(int i, int64_t out[3]) {
  model_config mc;
  memest_params p;
  memest_error err;
  memest_result *r = malloc(sizeof *r);
  const char *text = memi_preset_models[i].text;
  CHECK(r != NULL);
  if (r == NULL) return;
  CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
  check_params(&p, memi_preset_models[i].name, 2, 2, 1, 8, 1, 64, 2048, "b200");
  CHECK_I64(memi_est_run(&mc, &p, r, NULL, &err), MEMEST_OK);
  out[0] = r->model_params;
  out[1] = r->active_params;
  out[2] = r->active_params_no_embedding;
  memi_est_release(r);
  free(r);
}

/* Every preset twice through one cache, each followed by another model,
** and a model edited in one field between two estimates. */
static void test_counts_follow_the_model(void) {
  enum { MAX_PRESETS = 32 };
  int64_t want[MAX_PRESETS][3];
  est_cache *cache = memi_est_cache_new();
  memest_result *r = malloc(sizeof *r);
  int n = memi_preset_model_count < MAX_PRESETS ? memi_preset_model_count : MAX_PRESETS;
  int i, round;
  CHECK(cache != NULL && r != NULL);
  CHECK(n >= 2);
  for (i = 0; i < n; i++) fresh_counts(i, want[i]);
  for (round = 0; cache != NULL && r != NULL && round < 2 * n; round++) {
    int k = round % n;
    model_config mc;
    memest_params p;
    memest_error err;
    const char *text = memi_preset_models[k].text;
    CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
    check_params(&p, memi_preset_models[k].name, 2, 2, 1, 8, 1, 64, 2048, "b200");
    CHECK_I64(memi_est_run(&mc, &p, r, cache, &err), MEMEST_OK);
    CHECK_I64(r->model_params, want[k][0]);
    CHECK_I64(r->active_params, want[k][1]);
    CHECK_I64(r->active_params_no_embedding, want[k][2]);
    memi_est_release(r);
    /* The same model with a larger vocabulary, through the same cache:
    ** its counts, not the ones just kept. */
    mc.vocab += 64;
    CHECK_I64(memi_est_run(&mc, &p, r, cache, &err), MEMEST_OK);
    CHECK(r->model_params > want[k][0]);
    CHECK(r->active_params > want[k][1]);
    CHECK(r->active_params_no_embedding >= want[k][2]);
    memi_est_release(r);
  }
  free(r);
  memi_est_cache_free(cache);
}

int main(void) {
  test_counts_follow_the_model();
  return check_done("test_est_cache");
}
