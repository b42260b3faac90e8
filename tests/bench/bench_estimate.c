/*
** bench_estimate.c — the speed and size figures the project targets:
** one full estimate of the default example (Qwen3-30B-A3B, pp 4, ep 8,
** 32 GPUs, seq 4096, all ranks, with its suggestions, each re-estimated),
** as the CLI gives it and with the whole timeline kept (as the page asks
** for it), and a step of 65,536 micro-batches (pp 4, all ranks), with the
** process's peak RSS.
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
  return 0;
}
