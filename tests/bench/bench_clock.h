/*
** bench_clock.h — what the benchmarks share: a monotonic clock and the
** process's CPU clock in milliseconds, and sorting a run of timings (for the median and p90).
*/
#ifndef MEMEST_BENCH_CLOCK_H
#define MEMEST_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU time of this process (the machine is shared: wall time varies). */
static inline double bench_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int bench_cmp_ms(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts n timings in place, shortest first. */
static inline void bench_sort_ms(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, bench_cmp_ms);
}

#endif
