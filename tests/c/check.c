/*
** check.c — assertion helpers and fixtures shared by the C tests.
*/
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int check_failures = 0;

void check_true(int ok, const char *expr, const char *file, int line) {
  if (ok) return;
  check_failures++;
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
}

void check_i64(int64_t got, int64_t want, const char *expr, const char *file, int line) {
  if (got == want) return;
  check_failures++;
  fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", file, line, expr, (long long)got,
          (long long)want);
}

void check_str(const char *got, const char *want, const char *expr, const char *file, int line) {
  if (got != NULL && want != NULL && strcmp(got, want) == 0) return;
  check_failures++;
  fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", file, line, expr,
          got ? got : "(null)", want ? want : "(null)");
}

void check_contains(const char *hay, const char *needle, const char *expr, const char *file,
                    int line) {
  if (hay != NULL && strstr(hay, needle) != NULL) return;
  check_failures++;
  fprintf(stderr, "%s:%d: %s does not contain \"%s\": %s\n", file, line, expr, needle,
          hay ? hay : "(null)");
}

int check_done(const char *name) {
  if (check_failures == 0) {
    printf("%s: all checks passed\n", name);
    return 0;
  }
  printf("%s: %d checks failed\n", name, check_failures);
  return 1;
}

char *check_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    fclose(f);
    return NULL;
  }
  buf[n] = '\0';
  fclose(f);
  if (len != NULL) *len = (size_t)n;
  return buf;
}

static void set(memest_params *p, const char *k, const char *v) {
  memest_error err;
  if (memest_params_set(p, k, v, &err) != MEMEST_OK) {
    fprintf(stderr, "check_params: %s\n", err.message);
    check_failures++;
  }
}

void check_params(memest_params *p, const char *model, int64_t pp, int64_t ep, int64_t cp,
                  int64_t gpus, int64_t mbs, int64_t gbs, int64_t seq, const char *gpu) {
  char b[32];
  memest_params_init(p);
  set(p, "model", model);
#define SETI(k, v) (snprintf(b, sizeof b, "%lld", (long long)(v)), set(p, k, b))
  SETI("pp_size", pp);
  SETI("ep_size", ep);
  SETI("cp_size", cp);
  SETI("total_gpus", gpus);
  SETI("micro_batch_size", mbs);
  SETI("global_batch_size", gbs);
  SETI("sequence_length", seq);
#undef SETI
  set(p, "gpu", gpu);
}
