/*
** timeline.h — one event of a rank's timeline: what the replay records
** (rank.c) and the result keeps for the reports (result.h).
*/
#ifndef MEMEST_TIMELINE_H
#define MEMEST_TIMELINE_H

#include "base/internal.h"

enum { OP_F = 0, OP_B = 1, OP_FB = 2, OP_W = 3 };

typedef struct tl_event {
  int step;                  /* 1..8, 9 = step end, 10 = optimizer */
  int kind;                  /* OP_* or a step-end kind */
  int iter;
  int pf, pb;                /* modules (phases) */
  int64_t cf, cb;            /* chunk ids */
  const char *what;          /* inner label */
  int64_t total, peak;
  int live[MEMEST_MAX_MODULES];  /* live chunks of each module */
  comp_vec at_peak;
} tl_event;

#endif /* MEMEST_TIMELINE_H */
