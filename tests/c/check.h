/*
** check.h — the C tests' assertion helpers: each failed check prints the
** file, line and both values, and the test's exit status counts failures.
*/
#ifndef MEMEST_CHECK_H
#define MEMEST_CHECK_H

#include <stdint.h>

#include "memest.h"

extern int check_failures;

void check_true(int ok, const char *expr, const char *file, int line);
void check_i64(int64_t got, int64_t want, const char *expr, const char *file, int line);
void check_str(const char *got, const char *want, const char *expr, const char *file, int line);
void check_contains(const char *hay, const char *needle, const char *expr, const char *file, int line);
int check_done(const char *name);

#define CHECK(e) check_true((e) != 0, #e, __FILE__, __LINE__)
#define CHECK_I64(got, want) check_i64((int64_t)(got), (int64_t)(want), #got, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __FILE__, __LINE__)
#define CHECK_HAS(hay, needle) check_contains((hay), (needle), #hay, __FILE__, __LINE__)

/* The real model configs the tests read: the project's presets, the
** published config.json files named in tests/data/README.md. */
#define CHECK_MODELS "presets/"

/* Reads a file; NULL if missing. Caller frees. */
char *check_read_file(const char *path, size_t *len);
/* Sets the nine required inputs of a run on a preset or file model. */
void check_params(memest_params *p, const char *model, int64_t pp, int64_t ep, int64_t cp,
                  int64_t gpus, int64_t mbs, int64_t gbs, int64_t seq, const char *gpu);

#endif
