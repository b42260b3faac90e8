/*
** logged_time.c — the step time a log shows, as one figure: the median
** over the steady steps. Each run's first step (compilation, the
** allocator's first growth, the optimizer's states) is left out, and so is
** a step more than MEMEST_LOGGED_SLOW_FACTOR times the median of the other
** steady steps (a checkpoint save), which the reports name instead. The
** steps come from runlog.c; docs/measured-runs.md, "Step time". Also
** the figure as JSON, for the log's and the check's reports.
*/
#include <stdlib.h>
#include <string.h>

#include "measured/logged_time.h"

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double memi_median_sorting(double *v, int64_t n) {
  qsort(v, (size_t)n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* The median of sorted[0..n) without its element at index i (n > 1). */
static double median_without(const double *sorted, int64_t n, int64_t i) {
  int64_t m = n - 1, a = (m - 1) / 2, b = m / 2;
  double x = sorted[a < i ? a : a + 1], y = sorted[b < i ? b : b + 1];
  return (x + y) / 2.0;
}

/* The index of value x in sorted[0..n) (it is there). */
static int64_t index_of(const double *sorted, int64_t n, double x) {
  int64_t lo = 0, hi = n - 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* 1 for a step that starts a run: the log's first, or one not after the
** step before it (a restart). */
static int starts_run(const logged_step *steps, int64_t i) {
  return i == 0 || steps[i].step <= steps[i - 1].step;
}

/* Marks the slow steps among those with steady[i] set (clearing it) and
** names the first of them; scratch holds n doubles. */
static void flag_slow(const logged_step *steps, int64_t n, unsigned char *steady,
                      double *scratch, logged_time *out) {
  int64_t i, k = 0;
  for (i = 0; i < n; i++)
    if (steady[i]) scratch[k++] = steps[i].seconds;
  if (k < 2) return;
  qsort(scratch, (size_t)k, sizeof *scratch, compare_doubles);
  for (i = 0; i < n; i++) {
    double others;
    if (!steady[i]) continue;
    others = median_without(scratch, k, index_of(scratch, k, steps[i].seconds));
    if (!(steps[i].seconds > MEMEST_LOGGED_SLOW_FACTOR * others)) continue;
    steady[i] = 2;   /* slow: named, not in the median */
    if (out->nslow_shown < MEMEST_LOGGED_SLOW_SHOWN) out->slow_steps[out->nslow_shown++] = steps[i];
    out->slow++;
  }
  for (i = 0; i < n; i++)
    if (steady[i] == 2) steady[i] = 0;
}

/* The medians of the steps with steady[i] set. */
static void medians(const logged_step *steps, int64_t n, const unsigned char *steady,
                    double *scratch, logged_time *out) {
  int64_t i, k = 0;
  for (i = 0; i < n; i++)
    if (steady[i]) scratch[k++] = steps[i].seconds;
  out->steps = k;
  out->step_seconds = memi_median_sorting(scratch, k);
  for (i = k = 0; i < n; i++)
    if (steady[i] && steps[i].tokens_per_second >= 0) scratch[k++] = steps[i].tokens_per_second;
  out->tokens_per_second = k > 0 ? memi_median_sorting(scratch, k) : -1;
  for (i = k = 0; i < n; i++)
    if (steady[i] && steps[i].tokens_per_second >= 0)
      scratch[k++] = steps[i].tokens_per_second * steps[i].seconds;
  out->tokens_per_step = k > 0 ? memi_median_sorting(scratch, k) : -1;
}

memest_code memi_logged_time_of(const logged_step *steps, int64_t n, logged_time *out) {
  unsigned char *steady;
  double *scratch;
  int64_t i, kept = 0;
  memset(out, 0, sizeof *out);
  out->tokens_per_second = out->tokens_per_step = -1;
  if (n <= 0) return MEMEST_OK;
  steady = malloc((size_t)n);
  scratch = malloc((size_t)n * sizeof *scratch);
  if (steady == NULL || scratch == NULL) {
    free(steady);
    free(scratch);
    return MEMEST_E_NOMEM;
  }
  out->known = 1;
  out->readings = n;
  out->first_seconds = steps[0].seconds;
  for (i = 0; i < n; i++) {
    steady[i] = !starts_run(steps, i);
    out->runs += !steady[i];
    kept += steady[i];
  }
  /* Every step starts a run (one step, or a log of restarts): all of them. */
  out->first_skipped = kept > 0;
  if (kept == 0) memset(steady, 1, (size_t)n);
  flag_slow(steps, n, steady, scratch, out);
  medians(steps, n, steady, scratch, out);
  free(steady);
  free(scratch);
  return MEMEST_OK;
}

/* A figure, or null when it is none (negative). */
static void figure_json(strbuf *sb, const char *format, double v) {
  if (v >= 0) memi_sb_printf(sb, format, v);
  else memi_sb_put(sb, "null");
}

void memi_logged_time_json(strbuf *sb, const logged_time *t) {
  int i;
  if (!t->known) {
    memi_sb_put(sb, "null");
    return;
  }
  memi_sb_printf(sb, "{\"step_seconds\":%.6f,\"tokens_per_second\":", t->step_seconds);
  figure_json(sb, "%.1f", t->tokens_per_second);
  memi_sb_printf(sb,
                 ",\"steps\":%lld,\"first_skipped\":%s,\"first_step_seconds\":%.6f,"
                 "\"readings\":%lld,\"runs\":%lld,\"tokens_per_step\":",
                 (long long)t->steps, t->first_skipped ? "true" : "false", t->first_seconds,
                 (long long)t->readings, (long long)t->runs);
  figure_json(sb, "%.1f", t->tokens_per_step);
  memi_sb_printf(sb, ",\"slow_count\":%lld,\"slow_steps\":[", (long long)t->slow);
  for (i = 0; i < t->nslow_shown; i++)
    memi_sb_printf(sb, "%s{\"step\":%lld,\"line\":%lld,\"step_seconds\":%.6f}", i ? "," : "",
                   (long long)t->slow_steps[i].step, (long long)t->slow_steps[i].line,
                   t->slow_steps[i].seconds);
  memi_sb_put(sb, "]}");
}
