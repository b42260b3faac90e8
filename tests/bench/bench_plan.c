/*
** bench_plan.c — the planner's speed figure: the full layout sweep of
** Qwen3-235B-A22B on 1,024 B200 GPUs (global batch 4,096, sequence 4,096;
** every pp, ep, cp and the dp they leave, micro batch 1, 2 and 4), from
** request to ranked rows, config parse included. Target <= 300 ms. Then
** the slowest plans MEMEST_MAX_PLAN_WORK accepts, at both ends of its
** measure, on a 1,024-layer Qwen3-MoE config: pp 512 (26 rows) and pp 1
** (216 rows). Target: about 2 s each (docs/limits.md).
** Prints each figure beside its target; it does not judge them.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>
#include <string.h>

#include "bench_clock.h"
#include "memest.h"

/* presets/qwen3-30b-a3b.json with 1,024 layers (cJSON-allocated). */
static char *deep_config(void) {
  static char text[8192];
  FILE *f = fopen("presets/qwen3-30b-a3b.json", "rb");
  size_t n;
  cJSON *root;
  char *out;
  if (f == NULL) return NULL;
  n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  root = cJSON_Parse(text);
  if (root == NULL) return NULL;
  cJSON_SetNumberValue(cJSON_GetObjectItem(root, "num_hidden_layers"), 1024);
  out = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  return out;
}

/* One run of the slowest accepted plan with pp `pp` and `n` sequence
** lengths (64, 128, ...); prints its CPU time. */
static int worst_plan(const char *cfg, const char *pp, const char *gbs, int n) {
  memest_plan_request *req = malloc(sizeof *req);
  memest_plan *plan = NULL;
  memest_error err;
  char seqs[512] = "";
  const char *set_keys[][2] = {{"model", "deep.json"}, {"gpu", "h100"},   {"pp_size", pp},
                               {"ep_size", "1"},       {"cp_size", "1"},  {"total_gpus", pp},
                               {"micro_batch_size", "1"}, {"global_batch_size", gbs}};
  double t0;
  int i;
  if (req == NULL) return 1;
  for (i = 0; i < n; i++) {
    size_t used = strlen(seqs);
    snprintf(seqs + used, sizeof seqs - used, "%s%d", i ? "," : "", 64 * (i + 1));
  }
  memest_plan_request_init(req, MEMEST_PLAN_LAYOUTS);
  for (i = 0; i < (int)(sizeof set_keys / sizeof set_keys[0]); i++) {
    if (memest_plan_request_set(req, set_keys[i][0], set_keys[i][1], &err) != MEMEST_OK) break;
  }
  if (i < (int)(sizeof set_keys / sizeof set_keys[0]) ||
      memest_plan_request_set(req, "sequence_length", seqs, &err) != MEMEST_OK) {
    fprintf(stderr, "bench_plan: %s\n", err.message);
    free(req);
    return 1;
  }
  t0 = bench_now_ms();
  if (memest_plan_run(cfg, strlen(cfg), req, &plan, &err) != MEMEST_OK) {
    fprintf(stderr, "bench_plan: %s\n", err.message);
    free(req);
    return 1;
  }
  printf("slowest accepted plan, 1,024 layers, pp %s, %d rows: %.0f ms of CPU (target about "
         "2,000 ms)\n",
         pp, memest_plan_row_count(plan), bench_now_ms() - t0);
  memest_plan_free(plan);
  free(req);
  return 0;
}

static void set(memest_plan_request *req, const char *k, const char *v) {
  memest_error err;
  if (memest_plan_request_set(req, k, v, &err) != MEMEST_OK) {
    fprintf(stderr, "bench_plan: %s\n", err.message);
    exit(1);
  }
}

int main(int argc, char **argv) {
  memest_plan_request *req = malloc(sizeof *req);
  double t[64];
  int runs = argc > 1 ? atoi(argv[1]) : 5, i, rows = 0;
  if (req == NULL) return 1;
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  memest_plan_request_init(req, MEMEST_PLAN_LAYOUTS);
  set(req, "model", "qwen3-235b-a22b");
  set(req, "gpu", "b200");
  set(req, "total_gpus", "1024");
  set(req, "global_batch_size", "4096");
  set(req, "sequence_length", "4096");
  set(req, "micro_batch_size", "1,2,4");
  for (i = 0; i < runs; i++) {
    memest_plan *plan = NULL;
    memest_error err;
    double t0 = bench_now_ms();
    if (memest_plan_run(NULL, 0, req, &plan, &err) != MEMEST_OK) {
      fprintf(stderr, "bench_plan: %s\n", err.message);
      return 1;
    }
    t[i] = bench_now_ms() - t0;
    rows = memest_plan_row_count(plan);
    memest_plan_free(plan);
  }
  bench_sort_ms(t, runs);
  printf("plan sweep, Qwen3-235B-A22B on 1,024 GPUs (gbs 4096, seq 4096, every pp/ep/cp/dp, "
         "mbs 1,2,4): %d layouts estimated, median %.1f ms over %d runs (target <= 300 ms)\n",
         rows, t[runs / 2], runs);
  free(req);
  {
    char *cfg = deep_config();
    int bad = cfg == NULL || worst_plan(cfg, "512", "1024", 26) || worst_plan(cfg, "1", "2,4,8,16", 54);
    cJSON_free(cfg);
    if (bad) return 1;
  }
  return 0;
}
