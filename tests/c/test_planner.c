/*
** test_planner.c — memest plan and compare: the three planning questions
** on fixed inputs with their answers pinned (and why they are right),
** every row against a single estimate of its inputs, the invalid counts,
** the JSON shape, the bubble model's edges, the request's list parsing,
** the plan in pieces against one whole run; no answer when nothing fits,
** EP groups across nodes against the mesh they come from, the counts that
** add up, a vary-nodes answer beside pp over whole nodes, and the
** objective: the fastest OK row or the most headroom, with the fallback
** to headroom when the GPU has no time.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "plan/plan.h"

static void set(memest_plan_request *req, const char *k, const char *v) {
  memest_error err;
  if (memest_plan_request_set(req, k, v, &err) != MEMEST_OK) {
    fprintf(stderr, "request %s=%s: %s\n", k, v, err.message);
    CHECK(0);
  }
}

static memest_plan *run(const memest_plan_request *req) {
  memest_plan *plan = NULL;
  memest_error err;
  memest_code rc = memest_plan_run(NULL, 0, req, &plan, &err);
  if (rc != MEMEST_OK) fprintf(stderr, "plan failed: %s\n", err.message);
  CHECK_I64(rc, MEMEST_OK);
  return plan;
}

/* Every estimated row's figures equal memest_estimate of its inputs, its
** tokens/s too (-1 there for none). */
static void check_rows_match_estimates(const memest_plan *plan) {
  int i, n = memest_plan_row_count(plan);
  for (i = 0; i < n; i++) {
    const plan_row *row = &plan->rows[i];
    memest_params p;
    memest_result *r = NULL;
    memest_error err;
    if (row->reason >= 0) continue;
    CHECK_I64(memest_plan_row_params(plan, i, &p, &err), MEMEST_OK);
    CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
    if (r == NULL) continue;
    CHECK_I64(row->peak, (int64_t)memest_result_peak_bytes(r));
    CHECK_I64(row->tensor_peak, (int64_t)memest_result_tensor_peak_bytes(r));
    CHECK_I64(row->headroom, memest_result_headroom_bytes(r));
    CHECK_I64(row->status, memest_result_status(r));
    CHECK(row->time_known ? row->tokens_per_second == memest_result_tokens_per_second(r)
                          : memest_result_tokens_per_second(r) < 0.0);
    CHECK(!row->time_known || row->step_seconds == memest_result_step_seconds(r));
    memest_result_free(r);
  }
}

static memest_plan_request *new_request(memest_plan_mode mode) {
  memest_plan_request *req = malloc(sizeof *req);
  if (req == NULL) abort();
  memest_plan_request_init(req, mode);
  return req;
}

/* "Qwen3-235B-A22B, ep 8, cp 1, dp 1, mbs 1, gbs 1024, seq 2048, pp = the
** number of B200 nodes: how many nodes?" Seven. With dp 1 each node is one
** pipeline rank of 8 GPUs; the worst rank holds 2 * ceil(94 / 2pp) layers:
** 16 at pp 6, 14 at pp 7. Per layer it keeps 16 of 128 experts
** (301,989,888 elements) and 1/8 of the rest (71,835,904 / 8), so 14 layers
** hold 4,353,571,264 sharded elements: 16.22 GiB of fp32 master weights and
** 32.44 GiB of AdamW states; with the accumulators, the unsharded bf16
** copies and bf16 grads the static memory falls from 100.17 GiB (pp 6)
** to 87.65 GiB (pp 7) while the activations stay near 55 GiB. pp 6 peaks
** at 177.06 GiB: 1.29 GiB free is under 5% of 178.35 GiB, TIGHT; pp 7
** peaks at 164.53 GiB, OK. */
static void test_vary_nodes(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  memest_plan *plan;
  set(req, "--model", "qwen3-235b-a22b");
  set(req, "--gpu", "b200");
  set(req, "--gpus-per-node", "8");
  set(req, "--ep-size", "8");
  set(req, "--cp-size", "1");
  set(req, "--dp", "1");
  set(req, "--micro-batch-size", "1");
  set(req, "--global-batch-size", "1024");
  set(req, "--sequence-length", "2048");
  set(req, "--vary", "pp");
  CHECK_I64(req->mode, MEMEST_PLAN_VARY);
  plan = run(req);
  if (plan != NULL) {
    const plan_row *a;
    CHECK_I64(memest_plan_row_count(plan), 47);  /* pp 1..94/2 */
    CHECK_I64(memest_plan_answer(plan), 6);
    a = &plan->rows[memest_plan_answer(plan)];
    CHECK_I64(a->in[D_PP], 7);
    CHECK_I64(a->in[D_NODES], 7);
    CHECK_I64(a->in[D_TOTAL], 56);
    CHECK_I64(a->status, MEMEST_FITS_OK);
    CHECK_I64(a->peak, 176666569082LL);
    CHECK_I64(plan->rows[5].status, MEMEST_FITS_TIGHT);
    CHECK_I64(plan->rows[5].peak, 190117948262LL);
    CHECK_I64(plan->rows[4].status, MEMEST_FITS_OOM);
    CHECK(a->bubble > 0.02 && a->bubble < 0.03);
    CHECK_I64(plan->rows[0].bubble == 0.0, 1);   /* pp 1: no pipeline, no bubble */
    check_rows_match_estimates(plan);
    memest_plan_free(plan);
  }
  free(req);
}

static memest_plan_request *h100_16(const char *gbs, const char *seq) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu", "h100");
  set(req, "total_gpus", "16");
  set(req, "global_batch_size", gbs);
  set(req, "sequence_length", seq);
  return req;
}

/* "Best layout for 16 H100s?" for Qwen3-30B-A3B, gbs 256, seq 2048. The
** sweep tries pp 1..16 x ep {1,2,4,8,16} x cp {1,2,4,8,16} x mbs {1,2,4}
** = 1,200 combinations. pp*ep*cp must divide 16, so each is 2^a, 2^b, 2^c
** with a+b+c <= 4: C(7,3) = 35 layouts x 3 micro batches = 105 valid, all
** with num_chunks = 16*pp*cp/mbs >= 2*pp; the other 1,095 are dropped.
** The best is pp 4, ep 4 (peak 64.61 GiB, 2.49% bubble): it holds 0.84
** GiB less static memory than pp 2, ep 8 (64.89 GiB, 1.67% bubble) and
** 0.58 GiB more activations (more chunks in flight); pp 8, ep 2 comes
** third, and pp 1, ep 16 has no bubble but 6.36 GiB more static memory
** than pp 2 (a whole model's unsharded layer copies, fp32 accumulators
** and bf16 grads on one rank). This is the most-headroom objective;
** test_objective asks for the fastest. */
static void test_best_layout(void) {
  memest_plan_request *req = h100_16("256", "2048");
  memest_plan *plan;
  set(req, "objective", "headroom");
  plan = run(req);
  if (plan != NULL) {
    const plan_row *a = &plan->rows[0];
    CHECK_I64(plan->tried, 1200);
    CHECK_I64(memest_plan_row_count(plan), 105);
    CHECK_I64(memest_plan_answer(plan), 0);
    CHECK_I64(a->in[D_PP], 4);
    CHECK_I64(a->in[D_EP], 4);
    CHECK_I64(a->in[D_CP], 1);
    CHECK_I64(a->in[D_DP], 1);
    CHECK_I64(a->in[D_MBS], 1);
    CHECK_I64(a->peak, 69372959590LL);
    CHECK_I64(a->headroom, 15655019674LL);
    CHECK_I64(plan->rows[1].in[D_PP], 2);
    CHECK_I64(plan->rows[1].in[D_EP], 8);
    CHECK_I64(plan->rows[2].in[D_PP], 8);
    CHECK_I64(plan->rows[3].in[D_PP], 1);
    CHECK(plan->rows[3].bubble == 0.0 && a->bubble > 0.0);
    CHECK_I64(plan->n_reasons, 1);
    CHECK_STR(plan->reasons[0].key, "pp*ep*cp does not divide total GPUs");
    CHECK_I64(plan->reasons[0].count, 1095);
    check_rows_match_estimates(plan);
    memest_plan_free(plan);
  }
  free(req);
}

static int64_t reason(const memest_plan *plan, const char *key) {
  int i;
  for (i = 0; i < plan->n_reasons; i++) {
    if (strcmp(plan->reasons[i].key, key) == 0) return plan->reasons[i].count;
  }
  return 0;
}

/* gbs 32 on 16 GPUs: of the 105 divisible layouts, mbs*dp*ep must divide
** 32, which fails first for mbs 4 with pp = cp = 1 (dp*ep = 16: 5 ways);
** then num_chunks = 2*pp*cp/mbs (dp*ep = 16/(pp*cp)) is below 2*pp when
** cp < mbs: cp 1 (15 layouts) with mbs 2, cp 1 with mbs 4 (the other 10)
** and cp 2 (10 layouts) with mbs 4, 35 in all. 1200 - 1095 - 5 - 35 = 65. */
static void test_invalid_counts(void) {
  memest_plan_request *req = h100_16("32", "4096");
  memest_plan *plan = run(req);
  if (plan != NULL) {
    CHECK_I64(reason(plan, "pp*ep*cp does not divide total GPUs"), 1095);
    CHECK_I64(reason(plan, "num_chunks < 2*pp"), 35);
    CHECK_I64(reason(plan, "gbs not a multiple of mbs*dp*ep"), 5);
    CHECK_I64(memest_plan_row_count(plan), 65);
    memest_plan_free(plan);
  }
  free(req);
}

/* The default example's inputs (Qwen3-30B-A3B, pp 4, ep 8, cp 1, mbs 1,
** gbs 1024, H100), with the GPU count (or dp) and sequence left to set. */
static void set_example(memest_plan_request *req) {
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu", "h100");
  set(req, "pp_size", "4");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", "1024");
}

/* A compare of the default example (set_example). */
static memest_plan_request *example_compare(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_COMPARE);
  set_example(req);
  return req;
}

/* "What if the sequence doubles?" Qwen3-30B-A3B, pp 4, ep 8, 32 H100s:
** 61.03 GiB -> 91.19 GiB. Everything per token doubles: the bf16 logits of
** one chunk grow by 4096 * 151,936 * 2 = 1,244,659,712 bytes, a P2P
** tensor by 4096 * 2048 * 2 = 16,777,216, the rotary tables by
** 2 * 4096 * 128 * 2 = 2,097,152; the saved activations grow by 26.22
** GiB; the sharded state does not move; fragmentation is 10% of the
** tensor delta. */
static void test_compare(void) {
  memest_plan_request *req = example_compare();
  memest_plan *plan;
  set(req, "total_gpus", "32");
  set(req, "sequence_length", "4096,8192");
  plan = run(req);
  if (plan != NULL) {
    const plan_row *x = &plan->rows[0], *y = &plan->rows[1];
    CHECK_I64(memest_plan_row_count(plan), 2);
    CHECK_I64(x->peak, 65534288922LL);
    CHECK_I64(y->peak - x->peak, 32383323596LL);
    CHECK_I64(y->comps.b[C_LOGITS] - x->comps.b[C_LOGITS], 1244659712LL);
    CHECK_I64(y->comps.b[C_P2P] - x->comps.b[C_P2P], 16777216LL);
    CHECK_I64(y->comps.b[C_ROTARY] - x->comps.b[C_ROTARY], 2097152LL);
    CHECK_I64(y->comps.b[C_ACT] - x->comps.b[C_ACT], 28150685184LL);
    CHECK_I64(y->comps.b[C_MASTER] - x->comps.b[C_MASTER], 0);
    CHECK_I64(y->comps.b[C_OPT_STATE] - x->comps.b[C_OPT_STATE], 0);
    CHECK_I64(y->frag - x->frag, 2943938508LL);
    CHECK_I64(y->status, MEMEST_FITS_OOM);
    CHECK_I64(memest_plan_answer(plan), 0);
    check_rows_match_estimates(plan);
    memest_plan_free(plan);
  }
  free(req);
}

/* The plan's JSON, parsed (NULL on failure); frees nothing of plan. */
static cJSON *plan_json(const memest_plan *plan) {
  char *text = plan != NULL ? memest_plan_json(plan) : NULL;
  cJSON *root = text != NULL ? cJSON_Parse(text) : NULL;
  memest_free(text);
  CHECK(root != NULL);
  return root;
}

static double jnum(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

/* The answer rule as fields: rule, the input it reads (NULL: none), and
** the free share that makes a row OK. */
static void check_answer_fields(const cJSON *root, const char *rule, const char *input) {
  const cJSON *by = cJSON_GetObjectItem(root, "answer_by");
  const cJSON *in = cJSON_GetObjectItem(by, "input");
  CHECK(cJSON_IsString(cJSON_GetObjectItem(by, "rule")));
  if (!cJSON_IsString(cJSON_GetObjectItem(by, "rule"))) return;
  CHECK_STR(cJSON_GetObjectItem(by, "rule")->valuestring, rule);
  if (input == NULL) CHECK(cJSON_IsNull(in));
  else CHECK(cJSON_IsString(in) && strcmp(in->valuestring, input) == 0);
  CHECK_I64(cJSON_GetObjectItem(by, "ok_min_free_percent")->valueint, 5);
  CHECK(cJSON_IsString(cJSON_GetObjectItem(by, "objective")));
  CHECK(cJSON_GetObjectItem(by, "fallback") != NULL);
}

/* The answer rule of a vary plan on req, as fields. */
static void check_vary_rule(const memest_plan_request *req, const char *rule, const char *input) {
  memest_plan *plan = run(req);
  char *text = plan != NULL ? memest_plan_json(plan) : NULL;
  cJSON *root = text != NULL ? cJSON_Parse(text) : NULL;
  CHECK(root != NULL);
  if (root != NULL) check_answer_fields(root, rule, input);
  cJSON_Delete(root);
  memest_free(text);
  memest_plan_free(plan);
}

/* The JSON: rows with the CLI's snake_case inputs and figures, the answer,
** the invalid counts; a compare row carries its components and deltas. */
static void test_json(void) {
  memest_plan_request *req = h100_16("32", "4096");
  memest_plan *plan = run(req);
  char *text = plan != NULL ? memest_plan_json(plan) : NULL;
  cJSON *root = text != NULL ? cJSON_Parse(text) : NULL;
  static const char *const keys[] = {"pp_size", "ep_size", "cp_size", "dp", "total_gpus",
                                     "micro_batch_size", "global_batch_size", "sequence_length",
                                     "status", "peak_bytes", "tensor_peak_bytes",
                                     "headroom_bytes", "bubble_fraction", "step_seconds",
                                     "tokens_per_second", "tokens_per_second_per_gpu", "mfu"};
  CHECK(root != NULL);
  if (root != NULL) {
    const cJSON *rows = cJSON_GetObjectItem(root, "rows");
    const cJSON *answer = cJSON_GetObjectItem(root, "answer");
    const cJSON *invalid = cJSON_GetObjectItem(root, "invalid");
    const cJSON *row;
    size_t k;
    CHECK_I64(cJSON_GetArraySize(rows), 65);
    cJSON_ArrayForEach(row, rows) {
      for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        CHECK(cJSON_GetObjectItem(row, keys[k]) != NULL);
      }
    }
    CHECK_I64(cJSON_GetObjectItem(answer, "peak_bytes")->valuedouble, (double)plan->rows[0].peak);
    CHECK_I64(cJSON_GetObjectItem(invalid, "num_chunks < 2*pp")->valueint, 35);
    CHECK_STR(cJSON_GetObjectItem(root, "mode")->valuestring, "layouts");
    check_answer_fields(root, "fastest_ok", NULL);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer_by"), "objective")->valuestring,
              "throughput");
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer_by"), "fallback")));
    CHECK_STR(cJSON_GetObjectItem(root, "answer_rule")->valuestring,
              "the most tokens/s, then the most headroom");
    cJSON_ArrayForEach(row, rows) {
      CHECK(jnum(row, "tokens_per_second") > 0.0 && jnum(row, "mfu") > 0.0 &&
            jnum(row, "mfu") < 1.0 && jnum(row, "step_seconds") > 0.0);
      CHECK(fabs(jnum(row, "tokens_per_second_per_gpu") * 16.0 - jnum(row, "tokens_per_second")) <
            1e-4 * jnum(row, "tokens_per_second"));
    }
    CHECK_I64(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "limits"), "max_plan_rows")->valuedouble,
              MEMEST_MAX_PLAN_ROWS);
    CHECK_I64(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "limits"), "max_plan_work")->valuedouble,
              MEMEST_MAX_PLAN_WORK);
    CHECK_I64(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "limits"), "plan_values")->valueint,
              MEMEST_PLAN_VALUES);
    CHECK_I64(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "limits"), "plan_text")->valueint,
              MEMEST_PLAN_TEXT);
    {
      /* planner.c's row_work for the 48-layer model, row by row. */
      long long work = 0;
      cJSON_ArrayForEach(row, rows) {
        long long pp = (long long)cJSON_GetObjectItem(row, "pp_size")->valuedouble;
        work += 48 + 48 * 48 / (768 * pp) + pp * pp / 14;
      }
      CHECK_I64(cJSON_GetObjectItem(root, "work")->valuedouble, work);
    }
  }
  cJSON_Delete(root);
  memest_free(text);
  text = plan != NULL ? memest_plan_text(plan) : NULL;
  CHECK_HAS(text, "valid layouts of 1200 tried");
  CHECK_HAS(text, "num_chunks < 2*pp");
  CHECK_HAS(text, "Bubble: DualPipeV");
  memest_free(text);
  memest_plan_free(plan);
  free(req);
}

static memest_code try_set(memest_plan_request *req, const char *k, const char *v,
                           memest_error *err) {
  return memest_plan_request_set(req, k, v, err);
}

/* Comma lists: each item checked as a single value is, none empty, no
** repeats, at most MEMEST_PLAN_VALUES; options a plan cannot honour. */
static void test_list_errors(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  memest_error err;
  char many[512] = "";
  int i;
  CHECK_I64(try_set(req, "--micro-batch-size", "1,,2", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "empty item");
  CHECK_I64(try_set(req, "micro_batch_size", "1,2,", &err), MEMEST_E_VALUE);
  CHECK_I64(try_set(req, "pp_size", ",4", &err), MEMEST_E_VALUE);
  CHECK_I64(try_set(req, "pp_size", "4,4", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "lists 4 twice");
  CHECK_I64(try_set(req, "pp_size", "4,x", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "--pp-size must be a whole number, got 'x'");
  CHECK_I64(try_set(req, "ep_size", "0", &err), MEMEST_E_VALUE);
  CHECK_I64(try_set(req, "pp_size", "1,513", &err), MEMEST_E_LIMIT);
  CHECK_I64(try_set(req, "dp", "2,-1", &err), MEMEST_E_VALUE);
  for (i = 1; i <= MEMEST_PLAN_VALUES + 1; i++) {
    snprintf(many + strlen(many), sizeof many - strlen(many), "%s%d", i > 1 ? "," : "", i);
  }
  CHECK_I64(try_set(req, "dp", many, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_PLAN_VALUES");
  CHECK_I64(try_set(req, "--optimizer", "adamw,sgd", &err), MEMEST_E_UNKNOWN);
  CHECK_I64(try_set(req, "--pp-rank", "1", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "a plan simulates every pipeline rank");
  CHECK_I64(try_set(req, "--vary", "layers", &err), MEMEST_E_UNKNOWN);
  CHECK_STR(err.fix, "");
  CHECK_I64(try_set(req, "--vary", "Nodes", &err), MEMEST_E_UNKNOWN);
  CHECK_STR(err.fix, "vary=nodes");
  CHECK_I64(try_set(req, "--min-routing-margin", "0x2", &err), MEMEST_E_VALUE);   /* not 2 */
  CHECK_I64(try_set(req, "--min-routing-margin", "nan", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "give e.g. --min-routing-margin 1");
  CHECK_I64(try_set(req, "--bogus", "1", &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "unknown parameter");
  CHECK_I64(try_set(req, "--micro-batch-size", " 1, 2 ,4", &err), MEMEST_OK);
  CHECK_I64(req->mbs.n, 3);
  CHECK_I64(req->mbs.v[2], 4);
  memest_plan_request_init(req, MEMEST_PLAN_COMPARE);
  CHECK_I64(try_set(req, "--vary", "pp", &err), MEMEST_E_VALUE);
  free(req);
}

/* What a run refuses: missing inputs (all named at once), lists of unequal
** length in a compare, a second list in a vary plan, an oversized sweep. */
/* A 1,024-layer model: pp 31 over 4 GPU counts, 4 batch sizes, 64 sequence
** lengths and both optimizers and shardings took 29 s of CPU, accepted
** (its pp x num_chunks was small); pp 512 rows of it cost 19,750 units
** each, so 26 fit MEMEST_MAX_PLAN_WORK = 2^19 and 27 do not. */
static char *deep_config(size_t *len) {
  size_t n = 0;
  char *base = check_read_file("presets/qwen3-30b-a3b.json", &n), *out;
  cJSON *root = base ? cJSON_ParseWithLength(base, n) : NULL;
  free(base);
  if (root == NULL) return NULL;
  cJSON_SetNumberValue(cJSON_GetObjectItem(root, "num_hidden_layers"), 1024);
  out = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  if (out != NULL) *len = strlen(out);
  return out;
}

static void seq_list(char *buf, size_t size, int count) {
  int i;
  buf[0] = '\0';
  for (i = 0; i < count; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%d", i ? "," : "", 64 * (i + 1));
  }
}

static void test_work_of_deep_models(void) {
  size_t len = 0;
  char *cfg = deep_config(&len), seqs[512];
  memest_plan_request *req;
  memest_plan *plan = NULL;
  memest_error err;
  CHECK(cfg != NULL);
  if (cfg == NULL) return;
  req = new_request(MEMEST_PLAN_LAYOUTS);
  seq_list(seqs, sizeof seqs, 64);
  set(req, "model", "deep.json");
  set(req, "gpu", "h100");
  set(req, "pp_size", "31");
  set(req, "ep_size", "1");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "total_gpus", "31,62,124,248");
  set(req, "global_batch_size", "248,496,992,1984");
  set(req, "sequence_length", seqs);
  set(req, "optimizer", "adamw,muon");
  set(req, "sharding", "fsdp,hsdp");
  CHECK_I64(memest_plan_begin(cfg, len, req, &plan, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "would take more than about 2 s");
  CHECK_HAS(err.message, "MEMEST_MAX_PLAN_WORK = 524288 work units");
  CHECK(plan == NULL);
  free(req);
  req = new_request(MEMEST_PLAN_LAYOUTS);
  set(req, "model", "deep.json");
  set(req, "gpu", "h100");
  set(req, "pp_size", "512");
  set(req, "ep_size", "1");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "total_gpus", "512");
  set(req, "global_batch_size", "1024");
  seq_list(seqs, sizeof seqs, 27);
  set(req, "sequence_length", seqs);
  CHECK_I64(memest_plan_begin(cfg, len, req, &plan, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "27 rows of a 1024-layer model");
  seq_list(seqs, sizeof seqs, 26);
  set(req, "sequence_length", seqs);
  CHECK_I64(memest_plan_begin(cfg, len, req, &plan, &err), MEMEST_OK);
  CHECK_I64(memest_plan_row_count(plan), 26);
  memest_plan_free(plan);   /* begun, not estimated: the bench measures the time */
  free(req);
  cJSON_free(cfg);
}

static void test_run_errors(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  memest_plan *plan = NULL;
  memest_error err;
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_MISSING);
  CHECK_HAS(err.message, "--model");
  CHECK_HAS(err.message, "--global-batch-size");
  CHECK_HAS(err.message, "--total-gpus");
  CHECK(plan == NULL);
  memest_plan_request_init(req, MEMEST_PLAN_COMPARE);
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu", "h100");
  set(req, "pp_size", "4,8,2");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "total_gpus", "32");
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", "1024");
  set(req, "sequence_length", "4096,8192");
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "give each list 3 values");
  set(req, "sequence_length", "4096");
  set(req, "pp_size", "4,64");
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_LAYOUT);
  CHECK_HAS(err.message, "configuration 2");
  free(req);
  req = h100_16("256", "2048");
  set(req, "vary", "pp");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1,2");
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "only --pp-size takes a list");
  free(req);
  req = h100_16("4096", "4096");
  set(req, "model", "qwen3-235b-a22b");
  set(req, "total_gpus", "1024,2048");
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "MEMEST_MAX_PLAN_ROWS");
  CHECK(memest_plan_row_params(NULL, 0, NULL, &err) == MEMEST_E_VALUE);
  free(req);
  /* The work counts the estimates' time, not their micro-batches: pp 2 x
  ** 2^20 micro-batches at 17 sequence lengths, refused by the old count of
  ** pp x num_chunks, takes milliseconds (the replay skips steady steps). */
  req = h100_16("1048576", "1024,2048,3072,4096,5120,6144,7168,8192,9216,10240,11264,12288,"
                           "13312,14336,15360,16384,17408");
  set(req, "total_gpus", "2");
  set(req, "pp_size", "2");
  set(req, "ep_size", "1");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  CHECK_I64(memest_plan_begin(NULL, 0, req, &plan, &err), MEMEST_OK);
  CHECK_I64(memest_plan_row_count(plan), 17);
  memest_plan_free(plan);
  free(req);
  test_work_of_deep_models();
}

/* Option lists in a compare: one variant per configuration. */
static void test_option_variants(void) {
  memest_plan_request *req = example_compare();
  memest_plan *plan;
  set(req, "dp", "1");
  set(req, "sequence_length", "4096");
  set(req, "optimizer", "adamw,muon");
  plan = run(req);
  if (plan != NULL) {
    CHECK_I64(memest_plan_row_count(plan), 2);
    CHECK_I64(plan->rows[0].in[D_TOTAL], 32);
    CHECK(plan->rows[1].comps.b[C_OPT_STATE] < plan->rows[0].comps.b[C_OPT_STATE]);
    check_rows_match_estimates(plan);
    memest_plan_free(plan);
  }
  free(req);
}

/* The plan of req begun, its rows estimated in cuts of `cut` rows (0: all
** in one call; from the last cut back to the first when `backwards`),
** then finished; as JSON, or NULL on failure (err says why). */
static char *plan_in_pieces(const memest_plan_request *req, int cut, int backwards,
                            memest_error *err) {
  memest_plan *plan = NULL;
  char *json = NULL;
  int n, from, pieces, k;
  if (memest_plan_begin(NULL, 0, req, &plan, err) != MEMEST_OK) return NULL;
  n = memest_plan_row_count(plan);
  CHECK_I64(memest_plan_answer(plan), -1);
  CHECK(memest_plan_json(plan) == NULL);
  if (cut <= 0 || cut > n) cut = n > 0 ? n : 1;
  pieces = (n + cut - 1) / cut;
  for (k = 0; k < pieces; k++) {
    from = (backwards ? pieces - 1 - k : k) * cut;
    CHECK_I64(memest_plan_estimate_rows(plan, from, from + cut < n ? from + cut : n, err),
              MEMEST_OK);
  }
  for (k = 0; k < n; k++) CHECK(plan->rows[k].fail != PLAN_PENDING);   /* the cuts did it all */
  if (memest_plan_finish(plan, err) == MEMEST_OK) json = memest_plan_json(plan);
  memest_plan_free(plan);
  return json;
}

/* One plan checked in pieces against one whole run: the same JSON text
** (every row, in order, and the answer) for cuts of 1, 7 and all rows,
** and a cut taken backwards. */
static void check_pieces(const memest_plan_request *req, const char *what) {
  static const int cuts[] = {1, 7, 0};
  memest_plan *whole = run(req);
  memest_error err;
  char *want = whole != NULL ? memest_plan_json(whole) : NULL;
  size_t c;
  CHECK(want != NULL);
  for (c = 0; c < sizeof cuts / sizeof cuts[0] + 1 && want != NULL; c++) {
    int backwards = c == sizeof cuts / sizeof cuts[0];
    char *got = plan_in_pieces(req, backwards ? 7 : cuts[c], backwards, &err);
    if (got == NULL || strcmp(got, want) != 0) {
      fprintf(stderr, "%s: pieces of %d%s differ from the whole plan\n", what,
              backwards ? 7 : cuts[c], backwards ? " backwards" : "");
    }
    CHECK(got != NULL && strcmp(got, want) == 0);
    memest_free(got);
  }
  memest_free(want);
  memest_plan_free(whole);
}

/* The plan in pieces gives what one run gives, for every mode; and what
** the calls refuse: a range outside the rows, a second finish. */
static void test_pieces(void) {
  memest_plan_request *req = h100_16("256", "2048");
  memest_plan *plan = NULL;
  memest_error err;
  check_pieces(req, "layouts");
  set(req, "micro_batch_size", "1");
  set(req, "optimizer", "adamw,muon");
  check_pieces(req, "layouts with option variants");
  memest_plan_request_init(req, MEMEST_PLAN_LAYOUTS);
  set_example(req);
  set(req, "sequence_length", "4096");
  set(req, "vary", "gpus");
  check_pieces(req, "vary gpus (INVALID rows kept)");
  check_vary_rule(req, "smallest_ok", "total_gpus");
  set(req, "total_gpus", "32");
  set(req, "sequence_length", "1024,2048,4096,8192,16384,32768");
  set(req, "vary", "seq");
  check_pieces(req, "vary seq");
  check_vary_rule(req, "largest_ok", "sequence_length");
  free(req);
  req = example_compare();
  set(req, "total_gpus", "32");
  set(req, "sequence_length", "4096,8192");
  check_pieces(req, "compare");

  CHECK_I64(memest_plan_begin(NULL, 0, req, &plan, &err), MEMEST_OK);
  CHECK_I64(memest_plan_row_count(plan), 2);
  CHECK_I64(memest_plan_estimate_rows(plan, 1, 3, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "rows [1, 3) are not a range of the plan's 2 rows");
  CHECK_I64(memest_plan_estimate_rows(plan, 2, 1, &err), MEMEST_E_VALUE);
  CHECK_I64(memest_plan_estimate_rows(plan, 2, 2, &err), MEMEST_OK);
  CHECK_I64(memest_plan_finish(plan, &err), MEMEST_OK);   /* estimates what is left */
  CHECK_I64(memest_plan_answer(plan), 0);
  CHECK_I64(memest_plan_finish(plan, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "the plan is finished");
  CHECK_I64(memest_plan_estimate_rows(plan, 0, 1, &err), MEMEST_E_VALUE);
  memest_plan_free(plan);
  plan = NULL;
  set(req, "pp_size", "4,8");
  set(req, "sequence_length", "4096,8192,16384");
  CHECK_I64(memest_plan_begin(NULL, 0, req, &plan, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "give each list 3 values");
  CHECK(plan == NULL);
  CHECK_I64(memest_plan_finish(NULL, &err), MEMEST_E_VALUE);
  free(req);
}

/* DeepSeek-V3 on 256 H100s (gbs 1024, seq 4096, mbs 1): all 135 layouts are
** OOM, the best 174.15 GiB at pp 16, ep 8, cp 2. No answer; the closest is
** that row. A compare of two OOM configurations has none either. */
static void test_no_answer(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  memest_plan *plan;
  set(req, "model", "deepseek-v3");
  set(req, "gpu", "h100");
  set(req, "total_gpus", "256");
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", "1024");
  set(req, "sequence_length", "4096");
  plan = run(req);
  if (plan != NULL) {
    cJSON *root = plan_json(plan);
    char *text = memest_plan_text(plan);
    CHECK_I64(memest_plan_row_count(plan), 135);
    CHECK_I64(memest_plan_answer(plan), -1);
    CHECK_I64(plan->closest, 0);
    CHECK_I64(plan->rows[0].status, MEMEST_FITS_OOM);
    CHECK_I64(plan->rows[0].in[D_PP], 16);
    CHECK_I64(plan->rows[0].in[D_CP], 2);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(root, "answer")));
    CHECK_I64(jnum(cJSON_GetObjectItem(root, "closest"), "peak_bytes"), (double)plan->rows[0].peak);
    CHECK_HAS(text, "Answer: none; no layout fits: every one is out of memory");
    CHECK_HAS(text, "Closest    #1, pp 16, ep 8, cp 2, dp 1 = 256 GPUs");
    CHECK(strstr(text != NULL ? text : "", "Answer (") == NULL);
    memest_free(text);
    cJSON_Delete(root);
    memest_plan_free(plan);
  }
  free(req);
  req = example_compare();
  set(req, "total_gpus", "32");
  set(req, "micro_batch_size", "2");
  set(req, "sequence_length", "16384,32768");
  plan = run(req);
  if (plan != NULL) {
    cJSON *root = plan_json(plan);
    CHECK_I64(memest_plan_answer(plan), -1);
    CHECK_I64(plan->closest, 0);   /* the shorter sequence is the less short of memory */
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(root, "answer")));
    CHECK(cJSON_IsObject(cJSON_GetObjectItem(root, "closest")));
    cJSON_Delete(root);
    memest_plan_free(plan);
  }
  free(req);
}

/* On the row-major ("pp", "dp", "cp", "ep") mesh, whether any EP group
** (pp, dp and cp coordinates fixed, ep running) holds ranks of two nodes. */
static int mesh_ep_spans(int64_t pp, int64_t dp, int64_t cp, int64_t ep, int64_t g) {
  int64_t a, b, c, e;
  for (a = 0; a < pp; a++)
    for (b = 0; b < dp; b++)
      for (c = 0; c < cp; c++)
        for (e = 1; e < ep; e++) {
          int64_t first = ((a * dp + b) * cp + c) * ep, rank = first + e;
          if (rank / g != first / g) return 1;
        }
  return 0;
}

/* The rule against the mesh itself, for every layout of whole nodes. */
static void test_ep_across_rule(void) {
  int64_t g, pp, dp, cp, ep, layouts = 0, across = 0;
  for (g = 1; g <= 16; g++)
    for (pp = 1; pp <= 4; pp++)
      for (dp = 1; dp <= 4; dp++)
        for (cp = 1; cp <= 4; cp *= 2)
          for (ep = 1; ep <= 32; ep++) {
            if ((pp * dp * cp * ep) % g != 0) continue;   /* the planner keeps whole nodes */
            layouts++;
            across += mesh_ep_spans(pp, dp, cp, ep, g);
            CHECK_I64(memi_plan_ep_across(ep, g), mesh_ep_spans(pp, dp, cp, ep, g));
          }
  CHECK(layouts > 1000 && across > 100 && across < layouts);
  CHECK_I64(memi_plan_ep_across(16, 8), 1);
  CHECK_I64(memi_plan_ep_across(8, 8), 0);
  CHECK_I64(memi_plan_ep_across(6, 8), 1);    /* ranks 6..11 straddle 8 */
  CHECK_I64(memi_plan_ep_across(16, 0), 0);   /* no nodes given */
}

static memest_plan_request *four_nodes(const char *policy) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu", "h100");
  set(req, "nodes", "4");
  set(req, "gpus_per_node", "8");
  set(req, "pp_size", "2");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", "256");
  set(req, "sequence_length", "2048");
  set(req, "objective", "headroom");
  if (policy != NULL) set(req, "ep_across_nodes", policy);
  return req;
}

/* Qwen3-30B-A3B on 4 nodes of 8 H100s, pp 2, by headroom: ep 16 (its
** groups span two nodes) has the most headroom, 31.21 GiB, against ep 8's 23.07 GiB. Avoided
** (the default), it ranks after ep 8 and ep 4, the other OK rows, and ep 8
** answers; allowed, it answers. Every row of the 2-node sweep keeps the
** order: status first, then the rows that keep EP inside a node. */
static void test_ep_across_nodes(void) {
  memest_plan_request *req = four_nodes(NULL);
  memest_plan *plan = run(req);
  memest_error err;
  int i;
  if (plan != NULL) {
    cJSON *root = plan_json(plan);
    const cJSON *rows = cJSON_GetObjectItem(root, "rows");
    char *text = memest_plan_text(plan);
    CHECK_I64(plan->rows[plan->answer].in[D_EP], 8);
    CHECK_I64(plan->rows[2].in[D_EP], 16);
    CHECK_I64(plan->rows[2].ep_across, 1);
    CHECK_I64(plan->rows[2].status, MEMEST_FITS_OK);
    CHECK(plan->rows[2].headroom > plan->rows[0].headroom);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 2), "ep_across_nodes")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "ep_across_nodes")));
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "inputs"), "ep_across_nodes")->valuestring,
              "avoid");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer_by"),
                                           "ep_inside_node_first")));
    CHECK_HAS(text, "     3    2  16*   1    1    32     4");
    CHECK_HAS(text, "* ep spans nodes");
    memest_free(text);
    cJSON_Delete(root);
    memest_plan_free(plan);
  }
  free(req);
  req = four_nodes("allow");
  plan = run(req);
  if (plan != NULL) {
    CHECK_I64(plan->rows[0].in[D_EP], 16);
    CHECK_I64(plan->rows[plan->answer].in[D_EP], 16);
    CHECK_I64(plan->rows[0].ep_across, 1);   /* still marked */
    memest_plan_free(plan);
  }
  free(req);
  /* The whole 2-node sweep: the 16-H100 question. */
  req = h100_16("256", "2048");
  set(req, "gpus_per_node", "8");
  plan = run(req);
  if (plan != NULL) {
    int across = 0;
    for (i = 0; i < plan->n_rows; i++) {
      across += plan->rows[i].ep_across;
      CHECK_I64(plan->rows[i].ep_across, plan->rows[i].in[D_EP] == 16);
      if (i > 0) CHECK(plan->rows[i - 1].tier <= plan->rows[i].tier);
    }
    CHECK_I64(across, 3);   /* ep 16 leaves pp = cp = dp = 1, at mbs 1, 2 and 4 */
    CHECK_I64(plan->rows[plan->answer].ep_across, 0);
    memest_plan_free(plan);
  }
  free(req);
  /* The policy needs the nodes, and takes two words. */
  req = h100_16("256", "2048");
  CHECK_I64(try_set(req, "ep_across_nodes", "maybe", &err), MEMEST_E_UNKNOWN);
  CHECK_HAS(err.message, "avoid, allow");
  set(req, "--ep-across-nodes", "allow");
  CHECK_I64(memest_plan_run(NULL, 0, req, &plan, &err), MEMEST_E_MISSING);
  CHECK_HAS(err.message, "--gpus-per-node");
  free(req);
}

/* What the JSON's counts add up to, in a layouts plan, one whose rows the
** routing margin drops, and a vary plan that keeps INVALID rows. */
static void check_counts(const memest_plan_request *req) {
  memest_plan *plan = run(req);
  cJSON *root = plan_json(plan);
  const cJSON *c = cJSON_GetObjectItem(root, "counts"), *v, *row;
  double invalid = 0, invalid_rows = 0, valid = 0;
  cJSON_ArrayForEach(v, cJSON_GetObjectItem(root, "invalid")) invalid += v->valuedouble;
  cJSON_ArrayForEach(row, cJSON_GetObjectItem(root, "rows")) {
    if (strcmp(cJSON_GetObjectItem(row, "status")->valuestring, "INVALID") == 0) invalid_rows++;
    else valid++;
  }
  CHECK_I64(jnum(c, "tried"), jnum(root, "tried"));
  CHECK_I64(jnum(c, "tried"), jnum(c, "valid") + jnum(c, "invalid"));
  CHECK_I64(jnum(c, "invalid"), invalid);
  CHECK_I64(jnum(c, "valid"), valid);
  CHECK_I64(jnum(c, "invalid_rows"), invalid_rows);
  CHECK_I64(jnum(c, "rows"), cJSON_GetArraySize(cJSON_GetObjectItem(root, "rows")));
  CHECK_I64(jnum(c, "ok") + jnum(c, "tight") + jnum(c, "oom"), valid);
  cJSON_Delete(root);
  memest_plan_free(plan);
}

static void test_counts(void) {
  memest_plan_request *req = h100_16("32", "4096");
  check_counts(req);
  set(req, "min_routing_margin", "2.5");
  check_counts(req);
  free(req);
  req = h100_16("256", "2048");
  set(req, "vary", "pp");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "pp_size", "1,2,3,4,5");
  check_counts(req);
  free(req);
}

/* Qwen3-235B-A22B on B200 nodes of 8 (ep 8, cp 1, mbs 1, gbs 1024, seq
** 2048): --vary pp with dp 1 answers pp 7 = 7 nodes. --vary nodes at pp 7
** agrees. At pp 4 it answers 16 nodes: 7 nodes are no whole number of pp 4
** pipelines, and at 8 nodes (dp 2) the fp32 gradient accumulators, which dp
** does not shard, hold 33.42 GiB against 19.50 at pp 7. At pp 1 no node
** count fits. Qwen3-30B-A3B at pp 4 needs 4 nodes; pp over whole nodes
** fits on 3. */
static memest_plan *vary_nodes(const char *model, const char *gpu, const char *pp,
                               const char *gbs, const char *seq) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  memest_plan *plan;
  set(req, "model", model);
  set(req, "gpu", gpu);
  set(req, "gpus_per_node", "8");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "pp_size", pp);
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", gbs);
  set(req, "sequence_length", seq);
  set(req, "vary", "nodes");
  plan = run(req);
  free(req);
  return plan;
}

static void test_nodes_against_pp(void) {
  memest_plan *plan = vary_nodes("qwen3-235b-a22b", "b200", "7", "1024", "2048");
  if (plan != NULL) {
    cJSON *root = plan_json(plan);
    const cJSON *c = cJSON_GetObjectItem(root, "pp_over_nodes");
    CHECK_I64(plan->rows[plan->answer].in[D_NODES], 7);
    CHECK_I64(plan->pp_nodes.ran, 1);
    CHECK_I64(plan->pp_nodes.agrees, 1);
    CHECK_I64(plan->pp_nodes.dp, 1);
    CHECK_I64(plan->pp_nodes.row.in[D_PP], 7);
    CHECK_I64(plan->pp_nodes.row.peak, plan->rows[plan->answer].peak);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(c, "agrees")));
    CHECK_I64(jnum(cJSON_GetObjectItem(c, "answer"), "nodes"), 7);
    cJSON_Delete(root);
    memest_plan_free(plan);
  }
  plan = vary_nodes("qwen3-235b-a22b", "b200", "4", "1024", "2048");
  if (plan != NULL) {
    char *text = memest_plan_text(plan);
    CHECK_I64(plan->rows[plan->answer].in[D_NODES], 16);
    CHECK_I64(plan->pp_nodes.agrees, 0);
    CHECK_I64(plan->pp_nodes.row.in[D_NODES], 7);
    CHECK_HAS(plan->pp_nodes.why, "at 7 nodes pp 4 is not a valid layout");
    CHECK_HAS(plan->pp_nodes.why, "at 8 nodes pp 4, dp 2 peaks at");
    CHECK_HAS(plan->pp_nodes.why, "fp32 gradient accumulators 33.42 GiB against 19.50 GiB");
    CHECK_HAS(text, "Pipeline   pp over whole nodes (--vary pp with dp 1): pp 7 = 7 nodes; this "
                    "plan holds pp 4");
    memest_free(text);
    memest_plan_free(plan);
  }
  plan = vary_nodes("qwen3-235b-a22b", "b200", "1", "1024", "2048");
  if (plan != NULL) {
    CHECK_I64(memest_plan_answer(plan), -1);
    CHECK(plan->closest >= 0);
    CHECK_I64(plan->pp_nodes.agrees, 0);
    CHECK_I64(plan->pp_nodes.found, 1);
    memest_plan_free(plan);
  }
  plan = vary_nodes("qwen3-30b-a3b", "h100", "4", "1024", "4096");
  if (plan != NULL) {
    CHECK_I64(plan->rows[plan->answer].in[D_NODES], 4);
    CHECK_I64(plan->pp_nodes.row.in[D_NODES], 3);
    CHECK_STR(plan->pp_nodes.why, "pp 4 x ep 8 x cp 1 = 32 GPUs take at least 4 nodes");
    memest_plan_free(plan);
  }
}

/* {======================================================================
** The objective
** ======================================================================= */
/* Rows of one rank class in a plan sorted by throughput: tokens/s never
** rises, and at equal tokens/s headroom never rises; out of memory,
** headroom never rises. */
static void check_throughput_order(const memest_plan *plan) {
  int i;
  for (i = 1; i < plan->n_rows; i++) {
    const plan_row *x = &plan->rows[i - 1], *y = &plan->rows[i];
    CHECK(x->tier <= y->tier);
    if (x->tier != y->tier) continue;
    if (x->status == MEMEST_FITS_OOM) {
      CHECK(x->headroom >= y->headroom);   /* out of memory: the closest first */
      continue;
    }
    CHECK(x->tokens_per_second >= y->tokens_per_second);
    if (x->tokens_per_second == y->tokens_per_second) CHECK(x->headroom >= y->headroom);
  }
}

/* "Best layout for 16 H100s?" (test_best_layout) by both objectives. By
** throughput the answer is the OK row of the most tokens/s; by headroom
** the OK row of the most headroom; here they are different rows (pp 2,
** ep 8 moves more tokens; pp 4, ep 4 keeps more memory free), which is
** what the objective is for. Both plans carry every row's time. */
static void test_objective(void) {
  memest_plan_request *req = h100_16("256", "2048");
  memest_plan *fast = run(req), *roomy;
  int i;
  set(req, "objective", "headroom");
  roomy = run(req);
  if (fast != NULL && roomy != NULL) {
    const plan_row *f = &fast->rows[fast->answer], *h = &roomy->rows[roomy->answer];
    CHECK_I64(fast->answer, 0);
    CHECK_I64(roomy->answer, 0);
    CHECK_I64(fast->by_throughput, 1);
    CHECK_I64(roomy->by_throughput, 0);
    CHECK_I64(fast->fallback + roomy->fallback, 0);
    CHECK_I64(f->status, MEMEST_FITS_OK);
    CHECK_I64(h->status, MEMEST_FITS_OK);
    for (i = 0; i < fast->n_rows; i++) {
      CHECK_I64(fast->rows[i].time_known, 1);
      CHECK_I64(roomy->rows[i].time_known, 1);
      if (fast->rows[i].status == MEMEST_FITS_OK) {
        CHECK(fast->rows[i].tokens_per_second <= f->tokens_per_second);
      }
      if (roomy->rows[i].status == MEMEST_FITS_OK) CHECK(roomy->rows[i].headroom <= h->headroom);
    }
    check_throughput_order(fast);
    CHECK(f->tokens_per_second > h->tokens_per_second);
    CHECK(f->headroom < h->headroom);
    CHECK_I64(f->in[D_PP] * 100 + f->in[D_EP], 208);
    CHECK_I64(h->in[D_PP] * 100 + h->in[D_EP], 404);
    check_rows_match_estimates(fast);
  }
  memest_plan_free(fast);
  memest_plan_free(roomy);
  free(req);
}

/* A compare of those two layouts keeps its column order and answers with
** the faster one, or with the roomier one by headroom. */
static void test_objective_compare(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_COMPARE);
  memest_plan *fast, *roomy;
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu", "h100");
  set(req, "pp_size", "4,2");
  set(req, "ep_size", "4,8");
  set(req, "cp_size", "1");
  set(req, "total_gpus", "16");
  set(req, "micro_batch_size", "1");
  set(req, "global_batch_size", "256");
  set(req, "sequence_length", "2048");
  fast = run(req);
  set(req, "objective", "headroom");
  roomy = run(req);
  if (fast != NULL && roomy != NULL) {
    CHECK_I64(fast->rows[0].in[D_PP], 4);
    CHECK_I64(fast->answer, fast->rows[1].tokens_per_second > fast->rows[0].tokens_per_second);
    CHECK_I64(roomy->answer, roomy->rows[1].headroom > roomy->rows[0].headroom);
    CHECK_I64(fast->answer, 1);
    CHECK_I64(roomy->answer, 0);
  }
  memest_plan_free(fast);
  memest_plan_free(roomy);
  free(req);
}

/* Qwen3-30B-A3B on 16 GPUs of 80 GB given by size alone: no time. */
static memest_plan_request *size_only(void) {
  memest_plan_request *req = new_request(MEMEST_PLAN_LAYOUTS);
  set(req, "model", "qwen3-30b-a3b");
  set(req, "gpu_memory_gb", "80");
  set(req, "total_gpus", "16");
  set(req, "global_batch_size", "256");
  set(req, "sequence_length", "2048");
  return req;
}

/* Throughput asked without a GPU kind: the most headroom answers and the
** plan says so in its JSON (answer_by.fallback) and text; asked for
** headroom it has nothing to say. A vary plan's answer needs no time. */
static void test_objective_fallback(void) {
  memest_plan_request *req = size_only();
  memest_plan *fast = run(req), *roomy;
  memest_error err;
  set(req, "objective", "headroom");
  roomy = run(req);
  if (fast != NULL && roomy != NULL) {
    cJSON *root = plan_json(fast), *rroot = plan_json(roomy);
    const cJSON *by = cJSON_GetObjectItem(root, "answer_by");
    const cJSON *fb = cJSON_GetObjectItem(by, "fallback");
    char *text = memest_plan_text(fast), *rtext = memest_plan_text(roomy);
    CHECK_I64(fast->fallback, 1);
    CHECK_I64(fast->by_throughput, 0);
    CHECK_I64(roomy->fallback, 0);
    CHECK_I64(fast->rows[0].time_known, 0);
    CHECK_I64(fast->answer, 0);
    CHECK_I64(memcmp(fast->rows[0].in, roomy->rows[roomy->answer].in, sizeof fast->rows[0].in), 0);
    check_answer_fields(root, "most_headroom", NULL);
    CHECK_STR(cJSON_GetObjectItem(by, "objective")->valuestring, "throughput");
    CHECK(cJSON_IsString(fb) && strstr(fb->valuestring, "--gpu") != NULL);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer"), "tokens_per_second")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer"), "mfu")));
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(rroot, "answer_by"), "fallback")));
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(rroot, "answer_by"), "objective")->valuestring,
              "headroom");
    CHECK_HAS(text, "Objective  throughput asked, but no tokens/s: the time model needs the GPU kind");
    CHECK_HAS(text, "Answer (the most headroom, tokens/s unknown)");
    CHECK(rtext != NULL && strstr(rtext, "Objective  throughput") == NULL);
    CHECK_HAS(rtext, "Answer (the most headroom)");
    memest_free(text);
    memest_free(rtext);
    cJSON_Delete(root);
    cJSON_Delete(rroot);
  }
  memest_plan_free(fast);
  memest_plan_free(roomy);
  free(req);
  /* A vary plan answers its smallest OK value, time or none. */
  req = size_only();
  set(req, "pp_size", "2");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1,2,4");
  set(req, "vary", "mbs");
  fast = run(req);
  if (fast != NULL) {
    cJSON *root = plan_json(fast);
    check_answer_fields(root, "largest_ok", "micro_batch_size");
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "answer_by"), "fallback")));
    CHECK_I64(fast->fallback, 0);
    cJSON_Delete(root);
  }
  memest_plan_free(fast);
  /* Two words, each named when another is given. */
  CHECK_I64(try_set(req, "objective", "fastest", &err), MEMEST_E_UNKNOWN);
  CHECK_STR(err.field, "objective");
  CHECK_HAS(err.message, "not one of: throughput, headroom");
  CHECK_I64(try_set(req, "--objective", "headroom", &err), MEMEST_OK);
  CHECK_I64(req->objective, MEMEST_OBJECTIVE_HEADROOM);
  free(req);
}
/* A row without a time among rows with one (the time model leaves a step
** past its replay limit unknown): throughput still answers, that row
** ranking after the timed rows of its class, and the plan counts it. The
** plan is estimated in pieces so that the fastest row's time can be taken
** away before it concludes. */
static void test_untimed_row(void) {
  memest_plan_request *req = h100_16("256", "2048");
  memest_plan *plan = NULL;
  memest_error err;
  int i, fastest = -1, n;
  CHECK_I64(memest_plan_begin(NULL, 0, req, &plan, &err), MEMEST_OK);
  n = memest_plan_row_count(plan);
  CHECK_I64(memest_plan_estimate_rows(plan, 0, n, &err), MEMEST_OK);
  for (i = 0; i < n; i++) {
    const plan_row *r = &plan->rows[i];
    if (r->status != MEMEST_FITS_OK) continue;
    if (fastest < 0 || r->tokens_per_second > plan->rows[fastest].tokens_per_second) fastest = i;
  }
  CHECK(fastest >= 0);
  if (fastest >= 0) {
    int64_t in[D_COUNT];
    cJSON *root;
    const cJSON *by;
    char *text;
    memcpy(in, plan->rows[fastest].in, sizeof in);
    plan->rows[fastest].time_known = 0;
    plan->rows[fastest].tokens_per_second = 0.0;
    snprintf(plan->time_note, sizeof plan->time_note, "no time for this row");
    CHECK_I64(memest_plan_finish(plan, &err), MEMEST_OK);
    CHECK_I64(plan->by_throughput, 1);
    CHECK_I64(plan->fallback, 0);
    CHECK_I64(plan->untimed, 1);
    CHECK(memcmp(plan->rows[plan->answer].in, in, sizeof in) != 0);
    CHECK_I64(plan->rows[plan->answer].time_known, 1);
    for (i = 0; i < plan->n_rows; i++) {
      const plan_row *r = &plan->rows[i];
      if (memcmp(r->in, in, sizeof in) != 0) continue;
      CHECK(i > 0 && plan->rows[i - 1].status == MEMEST_FITS_OK && plan->rows[i - 1].time_known);
      CHECK(i + 1 == plan->n_rows || plan->rows[i + 1].status != MEMEST_FITS_OK);
    }
    root = plan_json(plan);
    by = cJSON_GetObjectItem(root, "answer_by");
    CHECK_STR(cJSON_GetObjectItem(by, "rule")->valuestring, "fastest_ok");
    CHECK_I64(jnum(by, "untimed_rows"), 1);
    CHECK_STR(cJSON_GetObjectItem(by, "untimed_note")->valuestring, "no time for this row");
    text = memest_plan_text(plan);
    CHECK_HAS(text, "Time       1 row has no time, so ranks after those that do: no time for this row");
    memest_free(text);
    cJSON_Delete(root);
  }
  memest_plan_free(plan);
  free(req);
}

/* The time model's options: --efficiency is one value, commas and all,
** checked when set; the link bandwidths take lists like other options. */
static void test_time_options(void) {
  memest_plan_request *req = h100_16("256", "2048");
  memest_plan *plan;
  memest_error err;
  CHECK_I64(try_set(req, "efficiency", "gemm=5", &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "--efficiency gemm=5 must be a number from 0.01 to 1");
  CHECK_I64(try_set(req, "efficiency", "gemm=0.5,experts=0.4", &err), MEMEST_OK);
  CHECK_STR(req->option_lists[MEMEST_P_EFFICIENCY], "");
  set(req, "pp_size", "2");
  set(req, "ep_size", "8");
  set(req, "cp_size", "1");
  set(req, "micro_batch_size", "1");
  set(req, "network_gbit_per_s", "100,400");
  plan = run(req);
  if (plan != NULL) {
    CHECK_I64(plan->n_variants, 2);
    CHECK_I64(plan->n_rows, 2);
    CHECK_STR(plan->variants[0].efficiency, "gemm=0.5,experts=0.4");
    CHECK(plan->rows[0].time_known && plan->rows[1].time_known);
    check_rows_match_estimates(plan);
  }
  memest_plan_free(plan);
  free(req);
}
/* }====================================================================== */

int main(void) {
  test_no_answer();
  test_ep_across_rule();
  test_ep_across_nodes();
  test_counts();
  test_nodes_against_pp();
  test_vary_nodes();
  test_best_layout();
  test_invalid_counts();
  test_compare();
  test_json();
  test_list_errors();
  test_run_errors();
  test_option_variants();
  test_pieces();
  test_objective();
  test_objective_compare();
  test_objective_fallback();
  test_time_options();
  test_untimed_row();
  return check_done("test_planner");
}
