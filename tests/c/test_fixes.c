/*
** test_fixes.c — every fix a problem offers lands on a valid layout in one
** step (fix_search.c): the cases where the check's own nearest value used
** to fail the next check, and a sweep over bad layouts of every preset in
** which each offered fix is applied and the inputs validated again.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Applies "name=value[,name=value]" with memest_params_set. */
static int apply(memest_params *p, const char *fix) {
  char buf[96], *s = buf;
  memest_error e;
  snprintf(buf, sizeof buf, "%s", fix);
  while (*s) {
    char *comma = strchr(s, ','), *eq;
    if (comma) *comma = '\0';
    eq = strchr(s, '=');
    if (eq == NULL) return 0;
    *eq = '\0';
    if (memest_params_set(p, s, eq + 1, &e) != MEMEST_OK) return 0;
    if (!comma) break;
    s = comma + 1;
  }
  return 1;
}

static int problems(const char *config, const memest_params *p, memest_error *errs, int max) {
  return memest_validate(config, config ? strlen(config) : 0, p, errs, max);
}

/* The first problem's fix, checked to leave no problem at all. */
static void one_step(const char *config, const memest_params *p, const char *want_fix) {
  memest_error errs[8];
  memest_params q = *p;
  int n = problems(config, p, errs, 8);
  CHECK(n > 0);
  if (n == 0) return;
  CHECK_STR(errs[0].fix, want_fix);
  CHECK(apply(&q, errs[0].fix));
  CHECK_I64(problems(config, &q, errs, 8), 0);
}

/* Qwen1.5-MoE (60 experts) at ep 8: ep 4 fits the 32 GPUs and the batch as
** they are (ep 10 would need 40 GPUs and then gbs 1,020); pp 32 on 48
** layers: pp 4 on the same 32 GPUs (pp 24 would need 192); DeepSeek-V3 at
** ep 64: ep 8 (ep 32 would need 128 GPUs). */
static void test_chains(void) {
  size_t len;
  char *qwen15 = check_read_file("tests/data/published/qwen1.5-moe-a2.7b.json", &len);
  memest_params p;
  CHECK(qwen15 != NULL);
  check_params(&p, "qwen1.5", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  if (qwen15 != NULL) one_step(qwen15, &p, "ep_size=4");
  free(qwen15);
  check_params(&p, "qwen3-30b-a3b", 32, 8, 1, 32, 1, 1024, 4096, "h100");
  one_step(NULL, &p, "pp_size=4");
  check_params(&p, "deepseek-v3", 4, 64, 1, 32, 1, 1024, 4096, "h100");
  one_step(NULL, &p, "ep_size=8");
  /* cp 4 on 32 GPUs with seq 4,100: the nearer multiple of 8 below, and the
  ** GPUs that pp*ep*cp = 128 needs, in one fix. */
  check_params(&p, "qwen3-30b-a3b", 4, 8, 4, 32, 1, 1024, 4100, "h100");
  one_step(NULL, &p, "sequence_length=4096,total_gpus=128");
}

/* Every problem of every bad layout in the sweep: its fix, if any, applied
** alone gives inputs with no problem. */
static void test_sweep(void) {
  static const int64_t pps[] = {1, 3, 4, 7, 32, 40};
  static const int64_t eps[] = {1, 3, 6, 8, 12, 64};
  static const int64_t cps[] = {1, 2, 3};
  static const int64_t gpus[] = {8, 30, 96};
  static const int64_t gbss[] = {16, 1000, 1024};
  static const int64_t seqs[] = {4096, 4098};
  int m, a, b, c, d, e, f, tried = 0, fixed = 0, bad = 0;
  for (m = 0; m < memest_model_preset_count(); m++) {
    const char *name = memest_model_preset_name(m);
    for (a = 0; a < 6; a++)
      for (b = 0; b < 6; b++)
        for (c = 0; c < 3; c++)
          for (d = 0; d < 3; d++)
            for (e = 0; e < 3; e++)
              for (f = 0; f < 2; f++) {
                memest_params p;
                memest_error errs[8];
                int n, i;
                check_params(&p, name, pps[a], eps[b], cps[c], gpus[d], 1, gbss[e], seqs[f],
                             "h100");
                n = problems(NULL, &p, errs, 8);
                for (i = 0; i < n && i < 8; i++) {
                  memest_params q = p;
                  memest_error again[8];
                  tried++;
                  if (!errs[i].fix[0]) continue;
                  if (!apply(&q, errs[i].fix) || problems(NULL, &q, again, 8) != 0) {
                    if (bad++ < 5) {
                      fprintf(stderr, "%s pp %lld ep %lld cp %lld gpus %lld gbs %lld seq %lld: "
                              "fix %s leaves: %s\n", name, (long long)pps[a], (long long)eps[b],
                              (long long)cps[c], (long long)gpus[d], (long long)gbss[e],
                              (long long)seqs[f], errs[i].fix, again[0].message);
                    }
                  } else {
                    fixed++;
                  }
                }
              }
  }
  printf("test_fixes: %d problems, %d fixes applied, each valid in one step\n", tried, fixed);
  CHECK_I64(bad, 0);
  CHECK(fixed > 1000);
}

int main(void) {
  test_chains();
  test_sweep();
  return check_done("test_fixes");
}
