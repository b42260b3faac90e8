/*
** check.h — what check.c (the comparison) and check_report.c (its JSON
** and text) share: a measured-against-estimated comparison.
*/
#ifndef MEMEST_MEASURED_CHECK_H
#define MEMEST_MEASURED_CHECK_H

#include "base/internal.h"
#include "measured/logged_time.h"

#define MEMEST_CHECK_MAX_SNAPSHOTS 4096
/* The log and the snapshots' largest peak differing by more than this
** fraction is said in the reports. */
#define MEMEST_CHECK_DISAGREE 0.10

typedef struct check_rank {
  char source[256];
  int64_t global_rank, pp_rank;
  uint64_t measured, estimated;
  double error;                  /* (estimated - measured) / measured; none when measured is 0 */
  const memest_snapshot *snap;   /* the caller's; outlives the check */
} check_rank;

/* runlog.c's, for the reports: what the compared figure is, and the log's
** JSON members (with its steps, or their count). */
MEMEST_HIDDEN const char *memi_runlog_compared(const memest_runlog_summary *s);
MEMEST_HIDDEN void memi_runlog_json_members(strbuf *sb, const memest_runlog *log, int with_steps);
/* The log's step times as one figure (logged_time.h). */
MEMEST_HIDDEN const logged_time *memi_runlog_time(const memest_runlog *log);

/* The logged and the logged-against-estimated tokens a step differing by
** more than this fraction is said: the estimate's batch or sequence is not
** the run's. */
#define MEMEST_CHECK_TOKENS_DISAGREE 0.02

/* The log's step time beside the estimate's. */
typedef struct check_time {
  int logged_known, estimated_known;  /* each side has a figure */
  logged_time logged;
  double est_seconds, est_tokens_per_second;
  double seconds_error;          /* (estimated - logged) / logged, when both are known */
  double tokens_error;           /* the same for tokens/s, when the log has tokens/s */
  double inputs_tokens;          /* the estimate's global batch x sequence */
  double tokens_difference;      /* (logged tokens a step - inputs_tokens) / inputs_tokens */
  int tokens_disagree;           /* |tokens_difference| > MEMEST_CHECK_TOKENS_DISAGREE */
  char note[400];                /* when a side is missing: which, and what to give */
} check_time;

struct memest_check {
  check_rank *ranks;
  int n;
  int max_from;                  /* rank index of the measured max; -1: the log */
  uint64_t meas_max, est_max;
  double error_max;              /* none when meas_max is 0 */
  int snap_from;                 /* rank index of the snapshots' largest peak; -1: none */
  int has_log;
  memest_runlog_summary log;
  const memest_runlog *runlog;   /* the caller's; outlives the check */
  double log_vs_snapshots;       /* (log - largest snapshot peak) / that peak */
  int disagree;                  /* |log_vs_snapshots| > MEMEST_CHECK_DISAGREE */
  check_time time;               /* the log's step time beside the estimate's */
  double fragmentation_param;    /* the estimate's --fragmentation */
  memest_result *result;         /* the estimate over every rank */
  memest_params params;          /* the inputs as given (the report's "inputs") */
  char *source_json, *source_text;  /* memest_check_set_source, or NULL: flags only */
};

#endif /* MEMEST_MEASURED_CHECK_H */
