/*
** test_time.c — the time model (docs/time-model.md): what its answer must
** satisfy whatever its tables say (tokens/s from the step, the critical
** rank's parts summing to the step, a step linear in its micro-batches,
** a bubble that shrinks with more of them, event times in order), how its
** inputs change it (links, efficiencies, FP8, HSDP), its refusals, and
** one op's seconds and DualPipe's all-reduce between its copies worked by
** hand from the tables.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "time/time.h"

static int near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

static void set(memest_params *p, const char *k, const char *v) {
  memest_error e;
  if (memest_params_set(p, k, v, &e) != MEMEST_OK) {
    fprintf(stderr, "set %s=%s: %s\n", k, v, e.message);
    exit(2);
  }
}

/* The estimate's JSON as a tree, NULL (and a failed check) on error. */
static cJSON *estimate(const memest_params *p, memest_result **keep) {
  memest_result *r = NULL;
  memest_error e;
  char *text;
  cJSON *j;
  if (memest_estimate(NULL, 0, p, &r, &e) != MEMEST_OK) {
    fprintf(stderr, "estimate: %s\n", e.message);
    CHECK(0);
    return NULL;
  }
  text = memest_result_json(r);
  j = cJSON_Parse(text);
  free(text);
  if (keep != NULL) *keep = r;
  else memest_result_free(r);
  CHECK(j != NULL);
  return j;
}

static double num(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static double step_of(const memest_params *p) {
  cJSON *j = estimate(p, NULL);
  double s = j ? num(cJSON_GetObjectItemCaseSensitive(j, "time"), "step_seconds") : NAN;
  cJSON_Delete(j);
  return s;
}

static void test_answer(void) {
  memest_params p;
  memest_result *r = NULL;
  cJSON *j, *t, *parts, *ranks;
  double step, sum;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  j = estimate(&p, &r);
  if (j == NULL) return;
  t = cJSON_GetObjectItemCaseSensitive(j, "time");
  CHECK(cJSON_IsObject(t));
  step = num(t, "step_seconds");
  CHECK(step > 0.0);
  CHECK(near(memest_result_step_seconds(r), step, 1e-6));
  /* The trainer's tokens-per-second: global batch x sequence / step time. */
  CHECK(near(num(t, "tokens_per_second"), 1024.0 * 4096.0 / step, 1e-6));
  CHECK(near(memest_result_tokens_per_second(r), 1024.0 * 4096.0 / step, 1e-6));
  CHECK(near(num(t, "tokens_per_second_per_gpu"), num(t, "tokens_per_second") / 64.0, 1e-4));
  CHECK(num(t, "mfu") > 0.0 && num(t, "mfu") < 1.0);
  /* MFU from its own definition: model FLOPs over step x GPUs x BF16 peak. */
  CHECK(near(num(t, "mfu"), num(t, "model_flops_per_step") / (step * 64.0 * 989.4e12), 1e-3));
  parts = cJSON_GetObjectItemCaseSensitive(t, "parts");
  sum = num(parts, "compute_seconds") + num(parts, "exposed_comm_seconds") +
        num(parts, "idle_seconds") + num(parts, "step_end_seconds") + num(parts, "optimizer_seconds");
  CHECK(near(sum, step, 1e-4));
  CHECK(fabs(num(t, "bubble_fraction") - num(parts, "idle_seconds") / step) < 1e-4);
  ranks = cJSON_GetObjectItemCaseSensitive(t, "ranks");
  CHECK_I64(cJSON_GetArraySize(ranks), 4);
  CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(t, "uncertainty")));
  CHECK(near(num(cJSON_GetObjectItemCaseSensitive(t, "efficiency"), "gemm"), memi_eff_row(EFF_GEMM)->value, 1e-9));
  cJSON_Delete(j);
  memest_result_free(r);
}

static void test_no_gpu_kind(void) {
  memest_params p;
  memest_result *r = NULL;
  cJSON *j;
  const cJSON *note;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  p.gpu[0] = '\0';
  p.given &= ~(1u << MEMEST_P_GPU);
  set(&p, "gpu_memory_gb", "80");
  j = estimate(&p, &r);
  if (j == NULL) return;
  CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "time")));
  note = cJSON_GetObjectItemCaseSensitive(j, "time_note");
  CHECK(cJSON_IsString(note));
  if (cJSON_IsString(note)) CHECK_HAS(note->valuestring, "--gpu h100");
  CHECK(memest_result_step_seconds(r) == -1.0);
  CHECK(memest_result_tokens_per_second(r) == -1.0);
  cJSON_Delete(j);
  memest_result_free(r);
}

/* With one pipeline rank, twice the micro-batches is twice the pipeline:
** only the step end and the optimizer stay. */
static void test_linear(void) {
  memest_params p;
  double a, b;
  check_params(&p, "deepseek-v2-lite", 1, 8, 1, 8, 1, 256, 2048, "h100");
  a = step_of(&p);
  check_params(&p, "deepseek-v2-lite", 1, 8, 1, 8, 1, 512, 2048, "h100");
  b = step_of(&p);
  CHECK(b / a > 1.9 && b / a < 2.0);
}

/* More micro-batches per step fill the pipeline: the bubble shrinks. */
static void test_bubble(void) {
  memest_params p;
  cJSON *j;
  double small, large;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 64, 4096, "h100");
  j = estimate(&p, NULL);
  small = num(cJSON_GetObjectItemCaseSensitive(j, "time"), "bubble_fraction");
  cJSON_Delete(j);
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  j = estimate(&p, NULL);
  large = num(cJSON_GetObjectItemCaseSensitive(j, "time"), "bubble_fraction");
  cJSON_Delete(j);
  CHECK(small > 0.05);
  CHECK(large < small / 4.0);
}

/* Every kept event has a time; they only go forward and end at the step. */
static void test_event_times(void) {
  memest_params p;
  cJSON *j, *ranks, *ev, *e;
  double last = -1.0, step;
  int n = 0, ordered = 1;
  check_params(&p, "qwen3-30b-a3b", 2, 8, 1, 16, 1, 64, 4096, "h100");
  set(&p, "timeline", "true");
  set(&p, "timeline_limit", "0");
  j = estimate(&p, NULL);
  if (j == NULL) return;
  step = num(cJSON_GetObjectItemCaseSensitive(j, "time"), "step_seconds");
  ranks = cJSON_GetObjectItemCaseSensitive(j, "ranks");
  ev = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ranks, 0), "events");
  cJSON_ArrayForEach(e, ev) {
    double t = num(e, "t_seconds");
    if (!(t >= last)) ordered = 0;
    last = t;
    n++;
  }
  CHECK(n > 10);
  CHECK(ordered);
  CHECK(near(last, step, 1e-6));
  cJSON_Delete(j);
}

/* The inputs move the answer the way they should. */
static void test_inputs(void) {
  memest_params p;
  double base, slow_link, no_host, fp8, hsdp;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  base = step_of(&p);
  set(&p, "nvlink_gb_per_s", "5");
  slow_link = step_of(&p);
  CHECK(slow_link > base * 1.2);
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  set(&p, "efficiency", "layer_us=0");
  no_host = step_of(&p);
  CHECK(no_host < base);
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  set(&p, "fp8_training", "deep-gemm");
  fp8 = step_of(&p);
  CHECK(fp8 < base);
  /* Two nodes a replica: FSDP's gathers cross them, HSDP's stay inside one. */
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 64, 1, 1024, 4096, "h100");
  set(&p, "sharding", "hsdp");
  hsdp = step_of(&p);
  CHECK(hsdp < base);
}

/* Rank 0's step end (seconds) of DualPipe or DualPipeV on pp 4 x ep
** gpus/4 at a network of `gbit` Gb/s a GPU at half efficiency. */
static double rank0_step_end(memest_schedule sched, int64_t gpus, const char *gbit) {
  memest_params p;
  cJSON *j, *t;
  double v = NAN;
  check_params(&p, "qwen3-30b-a3b", 4, gpus / 4, 1, gpus, 1, 1024, 4096, "h100");
  set(&p, "schedule", memest_schedule_name(sched));
  set(&p, "network_gbit_per_s", gbit);
  set(&p, "efficiency", "network=0.5");
  j = estimate(&p, NULL);
  if (j == NULL) return NAN;
  t = cJSON_GetObjectItemCaseSensitive(j, "time");
  v = num(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t, "ranks"), 0), "step_end_seconds");
  cJSON_Delete(j);
  return v;
}

/* DualPipe's two copies all-reduce their gradients at the step end, worked
** by hand. Qwen3-30B-A3B on pp 4 x ep 8 (32 GPUs, dp 1): DualPipe's rank 0
** holds stage 0 of one copy (the embedding, layers 0-11) and stage 3 of the
** other (layers 36-47, the norm, lm_head), and pairs with rank 3, 24 ranks
** away, across nodes. Its fp32 gradient shards:
**   a layer's attention, norms and router: 2 x 2048 x 4096 + 2 x 2048 x 512
**   + 128 x 2048 + 2 x 128 + 2 x 2048 = 19,140,864, over 8 ranks, x 24 layers
**   = 57,422,592;
**   its 16 local experts a layer: 16 x 3 x 2048 x 768 = 75,497,472 (dp 1:
**   unsharded), x 24 = 1,811,939,328;
**   embedding and lm_head: 2 x 151,936 x 2048, with the norm's 2048, over 8
**   = 77,791,488;
** 1,947,153,408 elements, 7,788,613,632 bytes. A ring of two moves them once:
** at 400 Gb/s x 0.5 that is 0.155772 s, at 800 Gb/s half of it. The
** reduce-scatters stay inside a node (NVLink), so the difference of the two
** is the all-reduce's half; DualPipeV (one chain) has none. On 8 GPUs
** (one node) the pair shares the node: no network at all. */
static void test_dualpipe_copies(void) {
  double bytes = 1947153408.0 * 4.0;
  double slow = rank0_step_end(MEMEST_SCHED_DUALPIPE, 32, "400");
  double fast = rank0_step_end(MEMEST_SCHED_DUALPIPE, 32, "800");
  /* The JSON writes seconds to 6 places. */
  CHECK(near(slow - fast, bytes / (800e9 / 8.0 * 0.5), 2e-5));
  CHECK(near(rank0_step_end(MEMEST_SCHED_DUALPIPEV, 32, "400"), rank0_step_end(MEMEST_SCHED_DUALPIPEV, 32, "800"), 1e-9));
  CHECK(near(rank0_step_end(MEMEST_SCHED_DUALPIPE, 8, "400"), rank0_step_end(MEMEST_SCHED_DUALPIPE, 8, "800"), 1e-9));
}

static void test_refusals(void) {
  static const struct {
    const char *value;
    memest_code code;
    const char *says;
  } bad[] = {
    {"gemm=2", MEMEST_E_VALUE, "must be a number from 0.01 to 1"},
    {"gemm=abc", MEMEST_E_VALUE, "must be a number"},
    {"gemm=nan", MEMEST_E_VALUE, "must be a number"},
    {"gemm", MEMEST_E_VALUE, "is not kind=value"},
    {"tensor=0.5", MEMEST_E_UNKNOWN, "the kinds are: gemm, lm_head"},
    {"gemm=0.5,", MEMEST_E_VALUE, "ends with a comma"},
    {"gemm=", MEMEST_E_VALUE, "needs a number"},
    {"gemm=0.5,gemm=0.6", MEMEST_E_VALUE, "names gemm twice"},
  };
  memest_params p;
  memest_result *r = NULL;
  memest_error e;
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
    set(&p, "efficiency", bad[i].value);
    CHECK_I64(memest_estimate(NULL, 0, &p, &r, &e), bad[i].code);
    CHECK_STR(e.field, "efficiency");
    CHECK_HAS(e.message, bad[i].says);
    CHECK_I64(memest_validate(NULL, 0, &p, &e, 1), 1);
  }
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_params_set(&p, "nvlink_gb_per_s", "-1", &e), MEMEST_E_VALUE);
  CHECK_I64(memest_params_set(&p, "--network-gbit-per-s", "1e9", &e), MEMEST_E_LIMIT);
}

/* Worked by hand from the tables: host time per layer counts once in a
** forward and twice in a backward, so on one pipeline rank (both stages,
** 48 layers) with 8 micro-batches it adds 48 x 3 x 8 = 1,152 of them. */
static void test_hand_worked(void) {
  memest_params p;
  double a, b;
  check_params(&p, "qwen3-30b-a3b", 1, 8, 1, 8, 1, 64, 4096, "h100");
  set(&p, "efficiency", "layer_us=0");
  a = step_of(&p);
  set(&p, "efficiency", "layer_us=1000");
  b = step_of(&p);
  CHECK(near(b - a, 1152.0 * 1e-3, 1e-6));
}

/* A long step from three short replays is the step replayed whole: every
** figure and every event's time, for layouts of several shapes. */
static void test_long_steps(void) {
  static const struct {
    const char *model;
    int64_t pp, ep, cp, gpus, gbs, seq;
    const char *gpu, *sharding;
  } cases[] = {
    {"qwen3-30b-a3b", 4, 8, 1, 32, 4800, 4096, "h100", "fsdp"},
    {"qwen3-30b-a3b", 2, 8, 1, 32, 12800, 2048, "h200", "hsdp"},
    {"deepseek-v2-lite", 8, 4, 1, 32, 3000, 2048, "b200", "fsdp"},
    {"qwen3-30b-a3b", 3, 4, 2, 48, 7000, 8192, "h100", "fsdp"},
    {"gpt-oss-20b", 1, 4, 1, 8, 6000, 4096, "b200", "fsdp"},
  };
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    memest_params p;
    memest_result *r = NULL;
    memest_error e;
    step_time *whole = NULL, *fast = NULL;
    char b[32];
    int i, same = 1;
    int64_t k, events = 0;
    check_params(&p, cases[c].model, cases[c].pp, cases[c].ep, cases[c].cp, cases[c].gpus, 1,
                 cases[c].gbs, cases[c].seq, cases[c].gpu);
    set(&p, "sharding", cases[c].sharding);
    set(&p, "timeline", "true");
    snprintf(b, sizeof b, "%d", 0);
    set(&p, "timeline_limit", b);
    if (memest_estimate(NULL, 0, &p, &r, &e) != MEMEST_OK) {
      fprintf(stderr, "long step case %zu: %s\n", c, e.message);
      CHECK(0);
      continue;
    }
    CHECK(r->lo.chunks > 500);
    CHECK_I64(memi_time_run_with(r, 0, INT64_MAX, NULL, &whole, &e), MEMEST_OK);
    CHECK_I64(memi_time_run_with(r, 0, 0, NULL, &fast, &e), MEMEST_OK);
    if (whole == NULL || fast == NULL) {
      free(whole);
      free(fast);
      memest_result_free(r);
      continue;
    }
    if (fast->from_short != 1) fprintf(stderr, "long step case %zu: replayed whole\n", c);
    CHECK(fast->from_short == 1 && whole->from_short == 0);
    CHECK(near(fast->step_seconds, whole->step_seconds, 1e-9));
    CHECK_I64(fast->critical_rank, whole->critical_rank);
    for (i = 0; i < whole->n_ranks; i++) {
      CHECK(near(fast->ranks[i].compute, whole->ranks[i].compute, 1e-9));
      CHECK(fabs(fast->ranks[i].idle - whole->ranks[i].idle) <= 1e-9 * whole->step_seconds);
      CHECK(fabs(fast->ranks[i].exposed_comm - whole->ranks[i].exposed_comm) <= 1e-9 * whole->step_seconds);
    }
    for (i = 0; i < r->n_ranks; i++) {
      for (k = 0; k < r->ranks[i].n_tl; k++, events++) {
        if (fabs(fast->event_t[i][k] - whole->event_t[i][k]) > 1e-9 * whole->step_seconds) same = 0;
      }
    }
    CHECK(events > 1000);
    if (!same) fprintf(stderr, "long step case %zu: event times differ\n", c);
    CHECK(same);
    free(whole);
    free(fast);
    memest_result_free(r);
  }
}

/* docs/time-model.md's efficiency table says what the code uses. */
static void test_docs_table(void) {
  size_t len;
  char *doc = check_read_file("docs/time-model.md", &len), want[96];
  int i;
  CHECK(doc != NULL);
  if (doc == NULL) return;
  for (i = 0; i < EFF_COUNT; i++) {
    snprintf(want, sizeof want, "| `%s` | %g |", memi_eff_row(i)->key, memi_eff_row(i)->value);
    if (strstr(doc, want) == NULL) fprintf(stderr, "docs/time-model.md lacks \"%s\"\n", want);
    CHECK(strstr(doc, want) != NULL);
  }
  for (i = 0; i < memi_gpu_hw_count(); i++) {
    const gpu_hw *g = memi_gpu_hw_at(i);
    snprintf(want, sizeof want, "| %s | %s |", g->name,
             g->bf16_tflops == 989.4 ? "989.4" : g->bf16_tflops == 2250.0 ? "2,250" : "312");
    if (strstr(doc, want) == NULL) fprintf(stderr, "docs/time-model.md lacks \"%s\"\n", want);
    CHECK(strstr(doc, want) != NULL);
  }
  free(doc);
}

int main(void) {
  test_answer();
  test_no_gpu_kind();
  test_linear();
  test_bubble();
  test_event_times();
  test_inputs();
  test_refusals();
  test_hand_worked();
  test_dualpipe_copies();
  test_docs_table();
  test_long_steps();
  return check_done("test_time");
}
