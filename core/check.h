/*
** check.h — what check.c (the comparison) and check_report.c (its JSON
** and text) share: a measured-against-estimated comparison.
*/
#ifndef MEMEST_CHECK_H
#define MEMEST_CHECK_H

#include "internal.h"

#define MEMEST_CHECK_MAX_SNAPSHOTS 4096

typedef struct check_rank {
  char source[256];
  int64_t global_rank, pp_rank;
  uint64_t measured, estimated;
  double error;                  /* (estimated - measured) / measured */
  const memest_snapshot *snap;   /* the caller's; outlives the check */
} check_rank;

struct memest_check {
  check_rank *ranks;
  int n;
  int max_from;                  /* rank index of the measured max; -1: the log */
  uint64_t meas_max, est_max;
  double error_max;
  int has_log;
  memest_runlog_summary log;
  double fragmentation_param;    /* the estimate's --fragmentation */
  memest_result *result;         /* the estimate over every rank */
  char *source_json, *source_text;  /* memest_check_set_source, or NULL: flags only */
};

#endif /* MEMEST_CHECK_H */
