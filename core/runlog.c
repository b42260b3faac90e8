/*
** runlog.c — the trainer's log read for its memory figures: each line with
** "peak-gpu-memory X GB" (torch.cuda.max_memory_allocated() / 2^30 after a
** MAX all-reduce over ranks, printed with two decimals, so GiB) and the
** step of that line ("step 00000123/00004096", 1-based). The figure
** compared with an estimate is the steady state: the largest after the
** first step read, whose peak can differ while the optimizer creates its
** states (docs/measured-runs.md).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define RUNLOG_KEY "peak-gpu-memory"
#define RUNLOG_MAX_GIB 1048576.0   /* MEMEST_MAX_GPU_GIB: 1 PiB */

struct memest_runlog {
  memest_runlog_summary sum;
  int64_t *step;
  double *gib;
  int64_t n, cap;
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The step number of a line: the digits after "step " (0 when none). */
static int64_t line_step(const char *s, size_t n) {
  size_t i;
  for (i = 0; i + 6 <= n; i++) {
    if (memcmp(s + i, "step ", 5) == 0 && is_digit(s[i + 5]) &&
        (i == 0 || !((s[i - 1] >= 'a' && s[i - 1] <= 'z') || s[i - 1] == '_' || s[i - 1] == '/'))) {
      int64_t v = 0;
      size_t j = i + 5;
      while (j < n && is_digit(s[j]) && v < (INT64_MAX - 9) / 10) v = v * 10 + (s[j++] - '0');
      return v;
    }
  }
  return 0;
}

/* The figure after the key in a line; 1 when one was read. */
static int line_figure(const char *s, size_t n, double *gib) {
  size_t i, j, k;
  char num[48];
  char *end;
  for (i = 0; i + sizeof RUNLOG_KEY - 1 <= n; i++) {
    if (memcmp(s + i, RUNLOG_KEY, sizeof RUNLOG_KEY - 1) != 0) continue;
    j = i + sizeof RUNLOG_KEY - 1;
    while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '=' || s[j] == ':' || s[j] == '"'))
      j++;
    for (k = 0; j + k < n && k < sizeof num - 1 &&
                (is_digit(s[j + k]) || s[j + k] == '.' || s[j + k] == 'e' || s[j + k] == 'E' ||
                 s[j + k] == '+' || s[j + k] == '-');
         k++)
      num[k] = s[j + k];
    num[k] = '\0';
    if (k == 0 || !is_digit(num[0])) continue;
    *gib = strtod(num, &end);
    if (*end != '\0' || !isfinite(*gib)) continue;
    return 1;
  }
  return 0;
}

memest_code memest_runlog_read(const char *text, size_t len, memest_runlog **out,
                               memest_error *err) {
  return memest_runlog_read_from(text, len, 1, out, err);
}

memest_code memest_runlog_read_from(const char *text, size_t len, int64_t first_line,
                                    memest_runlog **out, memest_error *err) {
  memest_runlog *log;
  size_t pos = 0;
  int64_t lines = first_line > 0 ? first_line - 1 : 0, i;
  *out = NULL;
  memi_err_clear(err);
  if (len > (uint64_t)MEMEST_MAX_RUNLOG_BYTES)
    return memi_err_set(err, MEMEST_E_LIMIT, "log",
                   "the log is %zu bytes, over MEMEST_MAX_RUNLOG_BYTES (%lld); give only the "
                   "lines with peak-gpu-memory (grep peak-gpu-memory)",
                   len, (long long)MEMEST_MAX_RUNLOG_BYTES);
  log = calloc(1, sizeof *log);
  if (log == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory");
  while (pos < len) {
    const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - line) : len - pos;
    double gib;
    pos += n + (nl != NULL);
    lines++;
    if (!line_figure(line, n, &gib)) continue;
    if (gib < 0 || gib > RUNLOG_MAX_GIB) {
      memest_runlog_free(log);
      return memi_err_set(err, MEMEST_E_VALUE, "log",
                     "line %lld of the log gives peak-gpu-memory %g GB, outside 0..%g; is it "
                     "the trainer's log?",
                     (long long)lines, gib, RUNLOG_MAX_GIB);
    }
    if (log->n == MEMEST_MAX_RUNLOG_STEPS) {
      memest_runlog_free(log);
      return memi_err_set(err, MEMEST_E_LIMIT, "log",
                     "the log has more than MEMEST_MAX_RUNLOG_STEPS (%lld) peak-gpu-memory "
                     "lines; give the steps you want compared",
                     (long long)MEMEST_MAX_RUNLOG_STEPS);
    }
    if (log->n == log->cap) {
      int64_t nc = log->cap ? log->cap * 2 : 64;
      int64_t *ns = realloc(log->step, (size_t)nc * sizeof *ns);
      double *ng;
      if (ns) log->step = ns;
      ng = ns ? realloc(log->gib, (size_t)nc * sizeof *ng) : NULL;
      if (ng == NULL) {
        memest_runlog_free(log);
        return memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory reading the log");
      }
      log->gib = ng;
      log->cap = nc;
    }
    log->step[log->n] = line_step(line, n);
    if (log->step[log->n] == 0) log->step[log->n] = log->n ? log->step[log->n - 1] + 1 : 1;
    log->gib[log->n++] = gib;
  }
  if (log->n == 0) {
    memest_runlog_free(log);
    return memi_err_set(err, MEMEST_E_VALUE, "log",
                   "no line of the log has \"peak-gpu-memory X GB\"; give the output of "
                   "rank 0, which prints one such line per step");
  }
  log->sum.steps = log->n;
  log->sum.first_step = log->step[0];
  log->sum.last_step = log->step[log->n - 1];
  log->sum.max_gib = -1;
  log->sum.steady_gib = -1;
  for (i = 0; i < log->n; i++) {
    if (log->gib[i] > log->sum.max_gib) {
      log->sum.max_gib = log->gib[i];
      log->sum.max_step = log->step[i];
    }
    if ((i > 0 || log->n == 1) && log->gib[i] > log->sum.steady_gib) log->sum.steady_gib = log->gib[i];
  }
  log->sum.steady_from = log->n == 1 ? log->step[0] : log->step[1];
  log->sum.compared_bytes = (uint64_t)llround(log->sum.steady_gib * GIB);
  *out = log;
  return MEMEST_OK;
}

void memest_runlog_free(memest_runlog *log) {
  if (log == NULL) return;
  free(log->step);
  free(log->gib);
  free(log);
}

const memest_runlog_summary *memest_runlog_summary_of(const memest_runlog *log) {
  return &log->sum;
}

int64_t memest_runlog_step(const memest_runlog *log, int64_t i, double *gib) {
  if (i < 0 || i >= log->n) {
    *gib = 0;
    return -1;
  }
  *gib = log->gib[i];
  return log->step[i];
}

char *memest_runlog_json(const memest_runlog *log) {
  strbuf sb;
  int64_t i;
  const memest_runlog_summary *s = &log->sum;
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{\"steps\":[");
  for (i = 0; i < log->n; i++)
    memi_sb_printf(&sb, "%s{\"step\":%lld,\"gib\":%.15g}", i ? "," : "", (long long)log->step[i],
              log->gib[i]);
  memi_sb_printf(&sb,
            "],\"first_step\":%lld,\"last_step\":%lld,\"max_gib\":%.15g,\"max_step\":%lld,"
            "\"steady_gib\":%.15g,\"steady_from\":%lld,\"compared\":\"%s\","
            "\"compared_bytes\":%llu}",
            (long long)s->first_step, (long long)s->last_step, s->max_gib, (long long)s->max_step,
            s->steady_gib, (long long)s->steady_from,
            log->n == 1 ? "the only step" : "the largest after the first step",
            (unsigned long long)s->compared_bytes);
  return memi_sb_finish(&sb);
}
