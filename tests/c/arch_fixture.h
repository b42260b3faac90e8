/*
** arch_fixture.h — what the family tests share: a tiny config run through
** layout and one rank's layer programs, and parameter totals.
*/
#ifndef MEMEST_ARCH_FIXTURE_H
#define MEMEST_ARCH_FIXTURE_H

#include "check.h"
#include "sim/rank.h"
#include "sim/result.h"

typedef struct tiny_run {
  model_config mc;
  layout lo;
  memest_params p;
  sim_rank sr;
} tiny_run;

/* pp 1 on ep*cp GPUs, micro batch 1, two chunks, m = 128 tokens per chunk;
** builds rank 0's layer programs. NULL (and a failed check) on error. */
tiny_run *tiny_build(const char *text, int64_t ep, int64_t cp, int fp8);
void tiny_free(tiny_run *t);
/* The program of global layer `layer` on the run's rank. */
const layer_prog *prog(const tiny_run *t, int layer);
/* Parameters of the whole model described by a config text. */
int64_t parse_total(const char *text, size_t len);

#endif
