/*
** bench_clock.h — what the benchmarks share: a clock in milliseconds and
** sorting a run of timings (for the median and p90). The clock counts the
** CPU time of the calling thread (user and system), so that other work on
** a shared machine does not inflate the figures; BENCH_WALL=1 in the
** environment switches it to the monotonic wall clock.
*/
#ifndef MEMEST_BENCH_CLOCK_H
#define MEMEST_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void) {
  const char *w = getenv("BENCH_WALL");
  int wall = w != NULL && w[0] == '1';
  struct timespec ts;
  clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
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
