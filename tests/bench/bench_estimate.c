/*
** bench_estimate.c — the speed and size figures the project targets:
** one full estimate of the default example (Qwen3-30B-A3B, pp 4, ep 8,
** 32 GPUs, seq 4096, all ranks, with its suggestions, each re-estimated),
** as the CLI gives it and with the whole timeline kept (as the page asks
** for it), and a step of 65,536 micro-batches (pp 4, all ranks), with the
** process's peak RSS. Then estimates that no single knob makes OK, whose
** suggestions end with the planner's search for the nearest OK layout
** (nearest.c): its cost, which the default estimate never pays.
** Prints each figure beside its target; it does not judge them.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_clock.h"
#include "memest.h"

static void set(memest_params *p, const char *k, const char *v) {
  memest_error err;
  if (memest_params_set(p, k, v, &err) != MEMEST_OK) {
    fprintf(stderr, "bench: %s\n", err.message);
    exit(1);
  }
}

static void example(memest_params *p, const char *gbs, int timeline) {
  memest_params_init(p);
  set(p, "model", "qwen3-30b-a3b");
  set(p, "pp_size", "4");
  set(p, "ep_size", "8");
  set(p, "cp_size", "1");
  set(p, "total_gpus", "32");
  set(p, "micro_batch_size", "1");
  set(p, "global_batch_size", gbs);
  set(p, "sequence_length", "4096");
  set(p, "gpu", "h100");
  if (timeline) {
    set(p, "timeline", "true");
    set(p, "timeline_limit", "0");
  }
}

/* Median milliseconds of n estimates of p. */
static double time_estimates(const memest_params *p, int n, double *p90) {
  double *t = malloc((size_t)n * sizeof *t), med;
  int i;
  for (i = 0; i < n; i++) {
    memest_result *r = NULL;
    memest_error err;
    double t0 = bench_now_ms();
    if (memest_estimate(NULL, 0, p, &r, &err) != MEMEST_OK) {
      fprintf(stderr, "bench: %s\n", err.message);
      exit(1);
    }
    t[i] = bench_now_ms() - t0;
    memest_result_free(r);
  }
  bench_sort_ms(t, n);
  med = t[n / 2];
  if (p90 != NULL) *p90 = t[(n * 9) / 10];
  free(t);
  return med;
}

/* An estimate of a preset with the nine inputs given as text. */
static void run_of(memest_params *p, const char *model, const char *pp, const char *ep,
                   const char *gpus, const char *mbs, const char *gbs, const char *seq) {
  memest_params_init(p);
  set(p, "model", model);
  set(p, "pp_size", pp);
  set(p, "ep_size", ep);
  set(p, "cp_size", "1");
  set(p, "total_gpus", gpus);
  set(p, "micro_batch_size", mbs);
  set(p, "global_batch_size", gbs);
  set(p, "sequence_length", seq);
  set(p, "gpu", "h100");
}

/* The search's cost: the estimate with suggestions and the search, beside
** the GPU counts it tried (from the result's JSON). */
static void time_search(const char *what, const memest_params *p, int runs) {
  memest_result *r = NULL;
  memest_error err;
  char *json, *at;
  long gpus = 0, plans = 0;
  double med = time_estimates(p, runs, NULL);
  if (memest_estimate(NULL, 0, p, &r, &err) != MEMEST_OK) exit(1);
  json = memest_result_json(r);
  at = json != NULL ? strstr(json, "\"nearest_layout\":{") : NULL;
  if (at != NULL) {
    char *g = strstr(at, "\"gpus_searched\":"), *n = strstr(at, "\"plans\":");
    if (g != NULL) gpus = strtol(g + 16, NULL, 10);
    if (n != NULL) plans = strtol(n + 8, NULL, 10);
  }
  printf("%s: median %.1f ms over %d runs with the nearest-layout search (%ld plans, up to %ld "
         "GPUs; no target: only an estimate no knob makes OK pays it)\n",
         what, med, runs, plans, gpus);
  memest_free(json);
  memest_result_free(r);
}

int main(int argc, char **argv) {
  memest_params p;
  double med, p90;
  struct rusage ru;
  int runs = argc > 1 ? atoi(argv[1]) : 200;
  if (runs < 5) runs = 5;
  example(&p, "1024", 0);
  med = time_estimates(&p, runs, &p90);
  printf("default estimate with suggestions, 4 ranks: median %.3f ms, p90 %.3f ms over %d runs "
         "(target <= 0.4 ms)\n", med, p90, runs);
  example(&p, "1024", 1);
  med = time_estimates(&p, runs, &p90);
  printf("default estimate with suggestions, 4 ranks, whole timeline kept: median %.3f ms, "
         "p90 %.3f ms over %d runs (target <= 1 ms)\n", med, p90, runs);
  example(&p, "524288", 0);
  med = time_estimates(&p, 5, NULL);
  getrusage(RUSAGE_SELF, &ru);
  printf("num_chunks 65,536, pp 4, 4 ranks: median %.1f ms (target <= 100 ms), peak RSS %.1f MiB "
         "(target <= 64 MiB)\n", med, (double)ru.ru_maxrss / 1024.0);
  run_of(&p, "qwen3-30b-a3b", "4", "8", "32", "2", "1024", "16384");
  time_search("Qwen3-30B-A3B, seq 16,384, mbs 2, 32 H100s", &p, 9);
  run_of(&p, "deepseek-v3", "8", "32", "256", "1", "1024", "4096");
  time_search("DeepSeek-V3, 256 H100s", &p, 5);
  run_of(&p, "deepseek-v3", "8", "32", "256", "1", "4096", "65536");
  time_search("DeepSeek-V3, seq 65,536, gbs 4,096, 256 H100s (nothing OK)", &p, 3);
  return 0;
}
