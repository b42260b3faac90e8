/*
** logged_time.h — the step times the trainer's log prints (runlog.c reads
** them) and the figure compared with an estimate's step time
** (logged_time.c): the median over the steady steps. Design note:
** docs/measured-runs.md, "Step time".
*/
#ifndef MEMEST_LOGGED_TIME_H
#define MEMEST_LOGGED_TIME_H

#include <stdint.h>

#include "base/internal.h"

/* A step slower than this many times the median of the other steady steps
** (a checkpoint save, an evaluation) is flagged and left out of the median. */
#define MEMEST_LOGGED_SLOW_FACTOR 3.0
/* The slow steps each report names, the first in the log. */
#define MEMEST_LOGGED_SLOW_SHOWN 8

/* One step line's timing: "step-time S sec" and "tokens-per-second N". */
typedef struct logged_step {
  int64_t step;              /* as the line prints it, from 1 */
  int64_t line;              /* the log's line */
  double seconds;            /* the step's wall time, the slowest rank's */
  double tokens_per_second;  /* global; -1 when the line has none */
} logged_step;

/* The steps' figure and how it was taken. */
typedef struct logged_time {
  int known;                 /* 0: no step line has a step-time */
  int64_t readings;          /* step lines with a step-time */
  int64_t steps;             /* the steps the median is over */
  int64_t runs;              /* runs in the log (a step not after the one before starts one) */
  int first_skipped;         /* 1: each run's first step is left out */
  double first_seconds;      /* the log's first step's time (left out when first_skipped) */
  double step_seconds;       /* the median */
  double tokens_per_second;  /* the median of the same steps' tokens/s; -1 when none has one */
  double tokens_per_step;    /* the median of tokens/s x step-time: the global batch x
                             ** sequence the log implies; -1 when no step has both */
  int64_t slow;              /* steady steps over MEMEST_LOGGED_SLOW_FACTOR x the others' median */
  int nslow_shown;
  logged_step slow_steps[MEMEST_LOGGED_SLOW_SHOWN];
} logged_time;

/* The figure of steps[0..n) in the log's order into *out: each run's
** first step left out (unless every step is one), then the slow steps
** flagged and left out, then the medians. MEMEST_E_NOMEM when the scratch
** copy cannot be made. */
MEMEST_HIDDEN memest_code memi_logged_time_of(const logged_step *steps, int64_t n, logged_time *out);
/* {step_seconds, tokens_per_second, steps, first_skipped, ...}, or null
** when no step line has a step-time (docs/measured-runs.md). */
MEMEST_HIDDEN void memi_logged_time_json(strbuf *sb, const logged_time *t);
/* The median of v[0..n) (n > 0), which it sorts. */
MEMEST_HIDDEN double memi_median_sorting(double *v, int64_t n);

#endif /* MEMEST_LOGGED_TIME_H */
