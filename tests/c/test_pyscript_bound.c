/*
** test_pyscript_bound.c — the launch-script reader is linear in its input.
** Each hostile shape (the `as` targets of a skipped block, a with header's,
** an import's at module level, a for's, chained assignments, nested
** brackets, comprehensions, attribute chains, ';'-split statements, ...)
** is built as large as the reader accepts (MEMEST_MAX_SCRIPT_TOKENS
** tokens, under MEMEST_MAX_SCRIPT_BYTES), read whole, and read again at a
** sixteenth of the size: the large one may take at most RATIO times the
** small one's CPU time (linear: 16; quadratic: 256), plus SLACK seconds for
** the clock's grain. No figure is a gate on the machine's speed; the times
** are printed.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bounds.h"
#include "check.h"
#include "trainer/trainer.h"

#define RATIO 48.0
#define SLACK 0.05

typedef struct shape {
  const char *name, *head, *unit, *sep, *tail;
} shape;

static const char *const HEAD =
  "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch\ncfg = PretrainLMCfg()\n";

/* head + n units joined by sep + tail; malloc'd. */
static char *build(const shape *s, int n, size_t *len) {
  size_t hu = strlen(s->unit), hs = strlen(s->sep);
  static const char *const launch = "\nlaunch(cfg)\n";   /* the run every launch script starts */
  size_t cap = strlen(HEAD) + strlen(s->head) + (size_t)n * (hu + hs) + strlen(s->tail) + strlen(launch) + 1, o = 0;
  char *b = malloc(cap);
  int k;
  o += (size_t)sprintf(b + o, "%s%s", HEAD, s->head);
  for (k = 0; k < n; k++) {
    if (k > 0) {
      memcpy(b + o, s->sep, hs);
      o += hs;
    }
    memcpy(b + o, s->unit, hu);
    o += hu;
  }
  o += (size_t)sprintf(b + o, "%s%s", s->tail, launch);
  *len = o;
  return b;
}

static int tokens_of(const char *text, size_t len) {
  pytok *t = NULL;
  int n = 0;
  memest_error e;
  if (memi_pylex(text, len, "b.py", 0, &t, &n, &e) != MEMEST_OK) n = -1;
  free(t);
  return n;
}

/* Reads text; its CPU seconds. Checks the reading succeeded: the reader
** walked all of it. */
static double read_time(const shape *s, const char *text, size_t len) {
  memest_trainer_run *run = NULL;
  memest_error e;
  clock_t t0 = clock();
  memest_code rc = memest_script_read(text, len, "b.py", NULL, NULL, &run, &e);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (rc != MEMEST_OK) fprintf(stderr, "%s: %s\n", s->name, e.message);
  CHECK(rc == MEMEST_OK);
  memest_trainer_run_free(run);
  return secs;
}

static void check_shape(const shape *s) {
  size_t len;
  char *one = build(s, 64, &len);
  int per = (tokens_of(one, len) - tokens_of(HEAD, strlen(HEAD))) / 64 + 1, n, nsmall;
  double big, small;
  char *text;
  free(one);
  /* As many units as the limits accept, with room for the head and tail. */
  n = (MEMEST_MAX_SCRIPT_TOKENS - 64) / per;
  if ((size_t)n * (strlen(s->unit) + strlen(s->sep)) > (size_t)MEMEST_MAX_SCRIPT_BYTES - 4096)
    n = (int)(((size_t)MEMEST_MAX_SCRIPT_BYTES - 4096) / (strlen(s->unit) + strlen(s->sep)));
  nsmall = n / 16;
  text = build(s, n, &len);
  CHECK(tokens_of(text, len) > 0);   /* accepted by the tokenizer: within the limits */
  big = read_time(s, text, len);
  free(text);
  text = build(s, nsmall, &len);
  small = read_time(s, text, len);
  free(text);
  printf("%-22s %8d units %9.3f s   (1/16: %.4f s)\n", s->name, n, big, small);
  CHECK(big <= RATIO * small + SLACK);
}

int main(void) {
  static const shape shapes[] = {
    {"as-in-skipped-block", "if cfg:\n    import os as ", "b", ", os as ", "\n"},
    {"with-as-header", "with ", "a as b", ", ", ":\n    pass\n"},
    {"import-as", "import ", "os as b", ", ", "\n"},
    {"for-targets", "for ", "b", ", ", " in cfg:\n    pass\n"},
    {"for-in-block", "if cfg:\n", "    for b in c: pass", "\n", "\n"},
    {"chained-in-block", "if cfg:\n    ", "a = a = a = a = a = a = a = a = 1", "\n    ", "\n"},
    {"chained-64", "", "a = a = a = a = a = a = a = a = a = a = a = a = a = a = a = a = 1", "\n", ""},
    {"nested-brackets", "", "x = ((((((((((((((((((((((((1))))))))))))))))))))))))", "\n", ""},
    {"comprehension-fors", "x = [0 ", "for b in c", " ", "]\n"},
    {"attribute-chain", "x = os", ".path", "", "\n"},
    {"semicolons-in-block", "if cfg:\n    ", "a = 1", "; ", "\n"},
    {"as-targets-in-function", "def f():\n    with ", "a as b", ", ", ":\n        pass\n"},
    {"walrus-in-call", "print(", "(b := 1)", ", ", ")\n"},
    {"fields", "", "cfg.training.sequence_length = 4096", "\n", ""},
    {"adjacent-strings", "x = (", "'a'", " ", ")\n"},
    {"fstring-fields", "x = f'", "{a}", "", "'\n"},
    {"decorators", "", "@d", "\n", "\ndef f():\n    pass\n"},
    {"del-names", "del ", "b", ", ", "\n"},
    {"main-guard-lines", "if __name__ == '__main__':\n", "    x = 1", "\n", "\n"},
  };
  size_t k;
  for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++) check_shape(&shapes[k]);
  return check_done("test_pyscript_bound");
}
