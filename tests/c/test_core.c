/*
** test_core.c — the simulator against docs/memory-model.md's figures: the
** parameter inventory, the worked example (memory-model.md §8) byte for byte, the
** static components, token counts, the stage partition, the schedule's
** op counts per step and live chunks, the result's internal sums, and
** that the fast paths (skipping repeated step-4 iterations, shared layer
** programs, repeated identical layers) give exactly the plain figures.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/presets.h"
#include "sim/rank.h"
#include "sim/result.h"

static char *shared_config(const char *name, size_t *len) {
  char path[256];
  char *text;
  snprintf(path, sizeof path, CHECK_MODELS "%s.json", name);
  text = check_read_file(path, len);
  CHECK(text != NULL);
  return text;
}

static memest_result *estimate(const char *config, size_t len, const memest_params *p) {
  memest_result *r = NULL;
  memest_error err;
  memest_code rc = memest_estimate(config, len, p, &r, &err);
  if (rc != MEMEST_OK) fprintf(stderr, "estimate failed: %s\n", err.message);
  CHECK_I64(rc, MEMEST_OK);
  return r;
}

/* Totals by the trainer's inventory (memory-model.md §3.3). Qwen3-235B-A22B: 94
** layers x 2,487,755,008 (attention 71,303,168 + norms 8,448 + router
** 524,288 + experts 2,415,919,104) + embed and lm_head 2 x 622,329,856 +
** norm 4,096 = 235,093,634,560. */
static void test_parameter_totals(void) {
  const char *names[] = {"qwen3-30b-a3b", "qwen3-235b-a22b"};
  const int64_t want[] = {30532122624LL, 235093634560LL};
  size_t i;
  for (i = 0; i < 2; i++) {
    size_t len;
    char *text = shared_config(names[i], &len);
    model_config mc;
    memest_error err;
    int ovf = 0;
    CHECK_I64(memi_cfg_parse(text, len, &mc, &err), MEMEST_OK);
    CHECK_I64(memi_inv_model_parameters(&mc, &ovf), want[i]);
    CHECK_I64(ovf, 0);
    free(text);
  }
}

/* memory-model.md §2.1's examples. */
static void test_partition(void) {
  int first[17];
  memi_layout_partition(48, 8, first);
  CHECK_I64(first[1] - first[0], 6);
  CHECK_I64(first[8], 48);
  memi_layout_partition(27, 4, first);
  CHECK_I64(first[1] - first[0], 7);
  CHECK_I64(first[2] - first[1], 7);
  CHECK_I64(first[3] - first[2], 7);
  CHECK_I64(first[4] - first[3], 6);
  memi_layout_partition(36, 16, first);
  CHECK_I64(first[1] - first[0], 2);
  CHECK_I64(first[2] - first[1], 3);
  CHECK_I64(first[5] - first[4], 3);
  CHECK_I64(first[6] - first[5], 2);
  CHECK_I64(first[16], 36);
  memi_layout_partition(5, 2, first); /* pp = 1: the remainder goes to stage 0 */
  CHECK_I64(first[1] - first[0], 3);
}

/* The worked example's setup: Qwen3-30B-A3B, P=4, ep=8, dp=1, seq 4096. */
static void example_params(memest_params *p) {
  check_params(p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
}

/* memory-model.md §8, byte for byte, with uniform routing (n_in = m*k = 32,768). */
static void test_worked_example(void) {
  size_t len;
  char *text = shared_config("qwen3-30b-a3b", &len);
  model_config mc;
  memest_params p;
  memest_error err;
  layout lo;
  sim_rank *sr = calloc(1, sizeof *sr);
  const op_result *f0, *f1;
  sim_flags warm;
  example_params(&p);
  CHECK_I64(memi_cfg_parse(text, len, &mc, &err), MEMEST_OK);
  CHECK_I64(memi_layout_build(&mc, &p, &lo, &err), MEMEST_OK);
  CHECK_I64(lo.chunks, 128);
  CHECK_I64(lo.w_x, 1);
  CHECK_I64(lo.w_o, 8);
  CHECK_I64(lo.d.e_loc, 16);
  /* memory-model.md §8's variant: uniform routing. */
  lo.d.n_in = 32768;
  lo.d.m_act = 33792;
  lo.d.r_rows = 34816;
  CHECK_I64(memi_sim_rank_init(sr, &mc, &lo, &p, 0, NULL, &err), MEMEST_OK);
  CHECK_I64(sr->layers[0][0].prog->retained, 546488384LL);
  CHECK_I64(sr->layers[1][5].prog->retained, 546488384LL);
  /* Deferred-W batch per layer: A(M_act)*H*2 + R*H*2 + 3*M_act*I*2. */
  CHECK_I64(sr->layers[0][0].prog->capture, 436731904LL);
  /* Static figures (memory-model.md §8's table). */
  CHECK_I64(sr->inv.master_bytes, 4049889792LL);
  CHECK_I64(sr->inv.opt_state_bytes, 8099779584LL);
  /* Per chunk: module 0 keeps the embed output, cos/sin and 6 layers (its
  ** sent output is freed at the next commit, so the F op's net still holds
  ** it); module 1 adds the epilog and the 1.16 GiB of logits. */
  memset(&warm, 0, sizeof warm);
  warm.mod[0] = warm.mod[1] = SF_UNSHARDED;
  warm.edge = SF_EMBED_RES | SF_HEAD_RES;
  f0 = memi_op_eval(sr, OP_F, 0, 0, 0, 0, &warm);
  CHECK_I64(f0->net.b[C_ACT], 3281027456LL + 16777216LL);
  f1 = memi_op_eval(sr, OP_F, 1, 1, 0, 0, &warm);
  CHECK_I64(f1->net.b[C_ACT] + f1->net.b[C_LOGITS], 4559257984LL - 16777216LL);
  CHECK_I64(f1->net.b[C_LOGITS], 1244659712LL);
  memi_sim_rank_free(sr);
  free(sr);
  free(text);
}

/* Static components at rank 0's peak (AdamW and Muon), §8 table. */
static void test_static_components(void) {
  memest_params p;
  memest_result *r;
  memest_error err;
  const comp_vec *v;
  example_params(&p);
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  v = &r->ranks[0].at_peak;
  CHECK_I64(v->b[C_MASTER], 4049889792LL);
  CHECK_I64(v->b[C_OPT_STATE], 8099779584LL);
  CHECK_I64(v->b[C_UNSHARDED], 2271320064LL);
  /* In steady state (docs/model.md, FSDP state), per layer L = 19,140,864
  ** attention, norm and router elements and X = 75,497,472 local expert
  ** ones; embed E = 311,164,928, norm and lm_head Hd = E + 2,048. fp32
  ** accumulators for the 12 layer groups, module 0's 6 experts groups and
  ** the head, not module 1's experts (its one hooked chunk deferred them)
  ** nor embed_tokens (never folded); bf16 .grad for every group. */
  CHECK_I64(v->b[C_ACCUM], 4 * (12 * 19140864LL + 6 * 75497472LL + 311166976LL));
  CHECK_I64(v->b[C_PENDING], 2 * (311164928LL + 311166976LL + 12 * 19140864LL + 12 * 75497472LL));
  CHECK_I64(v->b[C_EDGE], 2 * (311164928LL + 311166976LL));
  CHECK_I64(v->b[C_ROTARY], 2097152LL);
  CHECK_I64(v->b[C_DATA], 8388608LL);
  CHECK_I64(r->ranks[0].peak_ev.live[0], 8);
  CHECK_I64(r->ranks[0].peak_ev.live[1], 1);
  memest_result_free(r);
  CHECK_I64(memest_params_set(&p, "optimizer", "muon", &err), MEMEST_OK);
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  CHECK_I64(r->ranks[0].at_peak.b[C_OPT_STATE], 4362654720LL);
  memest_result_free(r);
}

/* memory-model.md §4.1: token counts of the example. */
static void test_tokens(void) {
  memest_params p;
  memest_result *r;
  const run_dims *d;
  example_params(&p);
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  d = &r->lo.d;
  CHECK_I64(d->m, 4096);
  CHECK_I64(d->top_k, 8);
  CHECK_I64(d->n_in, 38667);            /* ceil(1.18 * 32,768) */
  CHECK_I64(d->m_act, 39808);           /* r128(n_in + 64 * 16) */
  CHECK_I64(d->r_rows, 40960);          /* A(n_in + 16 * 127) */
  CHECK_I64(d->d_s, 21870);             /* round(5.339 * m), memory-model.md §8 */
  CHECK_I64(d->combine_rows, 32768);    /* A(m * k) */
  memest_result_free(r);
  /* cp = 2 halves the local sequence; ep = 1 routes exactly m*k rows. */
  check_params(&p, "qwen3-30b-a3b", 2, 1, 2, 4, 2, 64, 8192, "h200");
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  d = &r->lo.d;
  CHECK_I64(d->s, 4096);
  CHECK_I64(d->m, 8192);
  CHECK_I64(d->n_in, 8192 * 8);
  CHECK_I64(d->m_act, 65536 + 64 * 128);
  memest_result_free(r);
}

/* memory-model.md §2.2's step table: op counts per step for rank r of P with N chunks. */
static void expected_counts(int64_t P, int64_t r, int64_t N, int64_t want[11][4]) {
  memset(want, 0, sizeof(int64_t) * 11 * 4);
  want[1][OP_F] = 2 * (P - r - 1);
  want[2][OP_F] = 2 * (r + 1);
  want[3][OP_B] = want[3][OP_W] = want[3][OP_F] = P - r - 1;
  want[4][OP_FB] = 2 * (N - 2 * P + r + 1);
  if (r == P - 1) { /* the last rank's first step-4 iteration is not overlapped */
    want[4][OP_FB] -= 1;
    want[4][OP_F] = want[4][OP_B] = 1;
  }
  want[5][OP_B] = want[5][OP_FB] = P - r - 1;
  want[6][OP_B] = 2 * (r + 1);
  want[7][OP_W] = want[7][OP_B] = P - r - 1;
  want[8][OP_W] = r + 1;
}

static void test_schedule(void) {
  static const int64_t cases[][2] = {{1, 2}, {2, 4}, {2, 9}, {4, 8}, {4, 21}, {5, 12}};
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t P = cases[c][0], N = cases[c][1];
    memest_params p;
    memest_error err;
    memest_result *r;
    int i;
    check_params(&p, "qwen3-30b-a3b", P, 8, 1, 8 * P, 1, 8 * N, 512, "h100");
    CHECK_I64(memest_params_set(&p, "timeline", "true", &err), MEMEST_OK);
    CHECK_I64(memest_params_set(&p, "timeline_limit", "0", &err), MEMEST_OK);
    r = estimate(NULL, 0, &p);
    if (r == NULL) continue;
    for (i = 0; i < r->n_ranks; i++) {
      const rank_result *rr = &r->ranks[i];
      int64_t got[11][4], want[11][4], k;
      int s, o, max0 = 0, max1 = 0;
      memset(got, 0, sizeof got);
      for (k = 0; k < rr->n_tl; k++) {
        const tl_event *e = &rr->tl[k];
        if (e->step <= 8) got[e->step][e->kind]++;
        if (e->live[0] > max0) max0 = e->live[0];
        if (e->live[1] > max1) max1 = e->live[1];
      }
      expected_counts(P, rr->rank, N, want);
      for (s = 1; s <= 8; s++) {
        for (o = 0; o < 4; o++) {
          if (got[s][o] != want[s][o]) {
            fprintf(stderr, "P=%lld N=%lld rank %d step %d op %d: ", (long long)P, (long long)N,
                    rr->rank, s, o);
          }
          CHECK_I64(got[s][o], want[s][o]);
        }
      }
      /* Peak live chunks: 2P - r in phase 0, r + 1 in phase 1. */
      CHECK_I64(max0, 2 * P - rr->rank);
      CHECK_I64(max1, rr->rank + 1);
      CHECK_I64(rr->n_tl, rr->n_events);
    }
    memest_result_free(r);
  }
}

/* Components add up to the tensor peak; the grand total adds non-PyTorch
** memory and fragmentation; status follows the headroom. */
static void test_result_sums(void) {
  memest_params p;
  memest_result *r;
  int i, c;
  example_params(&p);
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  CHECK_I64(r->n_ranks, 4);
  for (i = 0; i < r->n_ranks; i++) {
    const rank_result *rr = &r->ranks[i];
    int64_t sum = 0;
    for (c = 0; c < C_COUNT; c++) {
      CHECK(rr->at_peak.b[c] >= 0);
      sum += rr->at_peak.b[c];
    }
    CHECK_I64(sum, rr->tensor_peak);
    CHECK_I64(rr->total, rr->tensor_peak + rr->nonpt + rr->frag);
  }
  /* memory-model.md §7: 0.52 + 0.39 + (0.4 * 2 + 0.2) + 0.96 + 2.97 GiB for pp>1, ep>1, dp=1. */
  CHECK_I64(r->nonpt, (532LL + 399 + 2 * 410 + 205 + 983 + 3041) * 1024 * 1024);
  CHECK_I64(r->capacity, 81089LL * 1024 * 1024);
  CHECK_I64(r->headroom, r->capacity - r->peak);
  CHECK_I64(memest_result_status(r), r->headroom >= r->capacity / 20 ? MEMEST_FITS_OK
                                     : r->headroom >= 0            ? MEMEST_FITS_TIGHT
                                                                   : MEMEST_FITS_OOM);
  memest_result_free(r);
}

/* The kept timeline window is centred on the peak. */
static void test_timeline_window(void) {
  memest_params p;
  memest_error err;
  memest_result *r;
  example_params(&p);
  CHECK_I64(memest_params_set(&p, "timeline", "1", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "timeline_limit", "10", &err), MEMEST_OK);
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  CHECK_I64(r->ranks[0].n_tl, 10);
  CHECK(r->ranks[0].peak_index >= r->ranks[0].tl_from);
  CHECK(r->ranks[0].peak_index < r->ranks[0].tl_from + 10);
  CHECK_I64(r->ranks[0].tl[r->ranks[0].peak_index - r->ranks[0].tl_from].peak,
            r->ranks[0].tensor_peak);
  memest_result_free(r);
}

/* A single rank gives the same figures as the full run's row for it. */
static void test_single_rank(void) {
  memest_params p;
  memest_error err;
  memest_result *all, *one;
  example_params(&p);
  all = estimate(NULL, 0, &p);
  CHECK_I64(memest_params_set(&p, "pp_rank", "2", &err), MEMEST_OK);
  one = estimate(NULL, 0, &p);
  if (all != NULL && one != NULL) {
    CHECK_I64(one->n_ranks, 1);
    CHECK_I64(one->ranks[0].rank, 2);
    CHECK_I64(one->ranks[0].tensor_peak, all->ranks[2].tensor_peak);
  }
  memest_result_free(all);
  memest_result_free(one);
}

/* Skipping repeated step-4 iterations (no timeline kept) gives exactly the
** figures of the full op-by-op replay (all events kept). */
static void test_steady_skip(void) {
  static const char *const models[] = {"qwen3-30b-a3b", "deepseek-v2-lite", "gpt-oss-20b"};
  static const int64_t layouts[][3] = {{1, 8, 64}, {2, 8, 512}, {4, 8, 96}, {3, 2, 40}};
  size_t m, l;
  for (m = 0; m < sizeof models / sizeof models[0]; m++) {
    for (l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
      int64_t pp = layouts[l][0], ep = layouts[l][1], n = layouts[l][2];
      memest_params p;
      memest_error err;
      memest_result *skip, *full;
      int i;
      check_params(&p, models[m], pp, ep, 1, pp * ep, 1, n * ep, 1024, "h100");
      skip = estimate(NULL, 0, &p);
      CHECK_I64(memest_params_set(&p, "timeline", "true", &err), MEMEST_OK);
      CHECK_I64(memest_params_set(&p, "timeline_limit", "0", &err), MEMEST_OK);
      full = estimate(NULL, 0, &p);
      if (skip == NULL || full == NULL) continue;
      for (i = 0; i < skip->n_ranks; i++) {
        const rank_result *a = &skip->ranks[i], *b = &full->ranks[i];
        CHECK_I64(a->tensor_peak, b->tensor_peak);
        CHECK_I64(a->peak_index, b->peak_index);
        CHECK_I64(a->n_events, b->n_events);
        CHECK_I64(a->peak_ev.cf, b->peak_ev.cf);
        CHECK(memcmp(&a->at_peak, &b->at_peak, sizeof a->at_peak) == 0);
      }
      memest_result_free(skip);
      memest_result_free(full);
    }
  }
}


/* The tensor peak of the worst rank of result r, replayed with expert
** weight grads computed at once (the trainer before 287070f) or deferred. */
static int64_t worst_peak(const memest_result *r, int immediate, int *worst) {
  int64_t best = -1;
  int k;
  for (k = 0; k < r->n_ranks; k++) {
    sim_rank *sr = calloc(1, sizeof *sr);
    memest_error err;
    if (sr == NULL) return -1;
    sr->immediate_wgrad = immediate;
    CHECK_I64(memi_sim_rank_init(sr, &r->mc, &r->lo, &r->params, r->ranks[k].rank, NULL, &err),
              MEMEST_OK);
    CHECK_I64(memi_sim_rank_run(sr, &err), MEMEST_OK);
    if (sr->peak > best) {
      best = sr->peak;
      *worst = r->ranks[k].rank;
    }
    memi_sim_rank_free(sr);
    free(sr);
  }
  return best;
}

/* The trainer's PR #28 (287070f) measured what deferring the BF16 expert
** weight grads did: Qwen3-30B-A3B at pp 2, ep 8 went from 58.54 to 55.16
** GiB, DeepSeek-V2-Lite at pp 2, ep 2, dp 2 stayed at 66.19 (max over
** ranks). With FSDP's hooks only on the chunks forwarded before a module's
** first backward, rank 0's module 1 has one such chunk, whose backward
** defers its expert grads past the fold: it keeps no fp32 accumulator for
** them, 4 x 905,969,664 bytes less (12 layers x 16 experts x 3 x 2048 x
** 768). DeepSeek's worst rank is rank 1, which the deferral barely moves. */
static void test_deferral_pr28(void) {
  memest_params p;
  memest_result *r;
  int w0 = -1, w1 = -1;
  int64_t before, after;
  check_params(&p, "qwen3-30b-a3b", 2, 8, 1, 16, 1, 1024, 2048, "h100");
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  before = worst_peak(r, 1, &w0);
  after = worst_peak(r, 0, &w1);
  CHECK_I64(after, r->tensor_peak);
  CHECK_I64(before - after, 4LL * 905969664LL);
  CHECK_I64(w0, 0);
  CHECK_I64(w1, 0);
  memest_result_free(r);
  check_params(&p, "deepseek-v2-lite", 2, 2, 1, 8, 1, 1024, 2048, "h100");
  r = estimate(NULL, 0, &p);
  if (r == NULL) return;
  before = worst_peak(r, 1, &w0);
  after = worst_peak(r, 0, &w1);
  CHECK_I64(w0, 1);
  CHECK_I64(w1, 1);
  CHECK(after <= before && before - after < before / 400);   /* within 0.25% */
  memest_result_free(r);
}

/* A small model worked by hand: qwen3_moe, hidden 256, 2 layers, 4 experts,
** vocab 65,536, on one GPU (pp 1: two stages, one layer each; W = 1, so
** shards are whole), 3 micro-batches of 256 tokens. Per group, in
** elements: embed E = 65,536 x 256; head Hd = E + 256 (norm); a layer's
** attention, norms and router L = 198,272; its experts X = 4 x 3 x 256 x
** 128 (all deferrable). Rank 0 runs F0 c0, F1 c0, F0 c1, B1 c0, F1 c1|B0
** c0, F0 c2|B1 c1, F1 c2|B0 c1, B1 c2, B0 c2 (zero bubble), W; the hooked
** chunks are c0 and c1 of phase 0 (2P - r) and c0 of phase 1 (r + 1). */
static const char hand_config[] =
    "{\"model_type\":\"qwen3_moe\",\"hidden_size\":256,\"intermediate_size\":512,"
    "\"moe_intermediate_size\":128,\"num_attention_heads\":4,\"num_key_value_heads\":2,"
    "\"head_dim\":64,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,"
    "\"vocab_size\":65536,\"max_position_embeddings\":8192,\"rms_norm_eps\":1e-6,"
    "\"tie_word_embeddings\":false}";
enum { HAND_E = 16777216, HAND_HD = 16777472, HAND_L = 198272, HAND_X = 393216 };

static void test_fsdp_state_by_hand(void) {
  const int64_t E = HAND_E, Hd = HAND_HD, L = HAND_L, X = HAND_X;
  const int64_t all = E + Hd + 2 * L + 2 * X;
  const sim_flags none = {{0}, 0}, warm = {{SF_UNSHARDED, SF_UNSHARDED}, 0};
  sim_flags bwd0;
  memest_params p;
  memest_result *r;
  memest_error err;
  model_config mc;
  layout lo;
  sim_rank *sr = calloc(1, sizeof *sr);
  const op_result *o, *o2;
  const tl_event *w = NULL, *end1 = NULL;
  sim_flags after_b1;
  int64_t k;
  check_params(&p, "hand", 1, 1, 1, 1, 1, 3, 256, "h100");
  CHECK_I64(memest_params_set(&p, "timeline", "true", &err), MEMEST_OK);
  CHECK_I64(memest_params_set(&p, "timeline_limit", "0", &err), MEMEST_OK);
  r = estimate(hand_config, strlen(hand_config), &p);
  if (r == NULL || sr == NULL) return;
  CHECK_I64(r->model_params, all);
  CHECK_I64(r->ranks[0].n_tl, 13);
  for (k = 0; k < r->ranks[0].n_tl; k++) {
    const tl_event *ev = &r->ranks[0].tl[k];
    if (ev->kind == OP_W) w = ev;
    if (ev->step == 9 && ev->pf == 1) end1 = ev;
  }
  CHECK(w != NULL && end1 != NULL);
  if (w != NULL) {
    /* The last W adds into the .grad phase 0's experts hold, so at its peak
    ** the pipeline's state is whole: every group gathered; fp32
    ** accumulators for all but embed_tokens (no fold: lead 5); bf16 .grad
    ** for every group (chunks without hooks: lead 3), embed's from its
    ** first backward, the experts' from their deferred grads. */
    CHECK_I64(w->at_peak.b[C_UNSHARDED], 2 * (2 * L + 2 * X));
    CHECK_I64(w->at_peak.b[C_EDGE], 2 * (E + Hd));
    CHECK_I64(w->at_peak.b[C_ACCUM], 4 * (2 * L + 2 * X + Hd));
    CHECK_I64(w->at_peak.b[C_PENDING], 2 * (E + Hd + 2 * L + 2 * X));
  }
  if (end1 != NULL) {
    /* After the step end's reduce-scatters only the shards, their fp32
    ** grads and states, the rotary tables and the batch remain. */
    CHECK_I64(end1->total, 16 * all + 2 * 256 * 64 * 2 + 2 * 3 * 256 * 8);
  }
  CHECK_I64(memi_cfg_parse(hand_config, strlen(hand_config), &mc, &err), MEMEST_OK);
  CHECK_I64(memi_layout_build(&mc, &p, &lo, &err), MEMEST_OK);
  CHECK_I64(memi_sim_rank_init(sr, &mc, &lo, &p, 0, NULL, &err), MEMEST_OK);
  /* Lead 7: the first F0 gathers embed_tokens (W = 1): the bf16 cast of
  ** the shard dies before the copy-out allocates the unsharded weight, so
  ** the op peaks at 2 x 2E (first reached with the cast and the flat
  ** output), never 3 x 2E. */
  o = memi_op_eval(sr, OP_F, 0, 0, 0, 0, &none);
  CHECK_I64(o->peak, 4 * E);
  CHECK_I64(o->at_peak.b[C_FSDP_T], 4 * E);
  CHECK_I64(o->at_peak.b[C_EDGE], 0);
  /* Lead 2: a forward before its module's first backward reshards
  ** embed_tokens after it; one after keeps it and gathers nothing. */
  CHECK(!(o->flags_after.edge & SF_EMBED_RES));
  CHECK_I64(o->net.b[C_EDGE], 0);
  bwd0 = warm;
  bwd0.mod[0] |= SF_BWD;
  bwd0.edge |= SF_EMBED_RES;
  o = memi_op_eval(sr, OP_F, 0, 0, 0, 0, &bwd0);
  CHECK(o->flags_after.edge & SF_EMBED_RES);
  CHECK_I64(o->net.b[C_EDGE], 0);
  CHECK_I64(o->at_peak.b[C_FSDP_T], 0);
  /* Lead 4: a hooked backward whose expert grads are deferred (rank 0's
  ** step-3 B1 at pp >= 2) folds every other group but finds no expert
  ** .grad: no fp32 accumulator for the experts, whose W then writes bf16. */
  o = memi_op_eval(sr, OP_B, 1, 1, 1, 1, &warm);
  CHECK_I64(o->net.b[C_ACCUM], 4 * (L + Hd));
  CHECK_I64(o->net.b[C_PENDING], 0);
  o2 = memi_op_eval(sr, OP_W, 1, 1, 0, 0, &o->flags_after);
  CHECK_I64(o2->net.b[C_ACCUM], 0);
  CHECK_I64(o2->net.b[C_PENDING], 2 * X);
  /* Without deferral (the last rank's first B1) the experts fold too. */
  o = memi_op_eval(sr, OP_B, 1, 1, 0, 1, &warm);
  CHECK_I64(o->net.b[C_ACCUM], 4 * (L + X + Hd));
  CHECK_I64(o->net.b[C_PENDING], 0);
  after_b1 = o->flags_after;
  CHECK(after_b1.mod[1] & SF_BWD);
  CHECK(after_b1.edge & SF_HEAD_RES);
  /* Lead 3: a later chunk carries no hooks: its grads stay in bf16 .grad,
  ** and the next one adds into it; a hooked one would fold. */
  o = memi_op_eval(sr, OP_B, 1, 1, 0, 0, &after_b1);
  CHECK_I64(o->net.b[C_ACCUM], 0);
  CHECK_I64(o->net.b[C_PENDING], 2 * (L + X + Hd));
  CHECK(o->flags_after.mod[1] & SF_GRAD16_L);
  CHECK(o->flags_after.edge & SF_GRAD16_HEAD);
  /* Lead 6: lm_head stays gathered: the loss backward gathers nothing. */
  CHECK_I64(o->at_peak.b[C_FSDP_T], 0);
  CHECK_I64(o->net.b[C_EDGE], 0);
  o2 = memi_op_eval(sr, OP_B, 1, 1, 0, 0, &o->flags_after);
  CHECK_I64(o2->net.b[C_PENDING], 0);
  CHECK_I64(o2->net.b[C_ACCUM], 0);
  o2 = memi_op_eval(sr, OP_B, 1, 1, 0, 1, &after_b1);
  CHECK_I64(o2->net.b[C_PENDING], 0);
  CHECK_I64(o2->net.b[C_ACCUM], 0);
  /* Lead 5: embed_tokens' input is token ids: no fold, even on a hooked
  ** chunk; it is gathered for the backward and stays. */
  o = memi_op_eval(sr, OP_B, 0, 0, 0, 1, &warm);
  CHECK_I64(o->net.b[C_ACCUM], 4 * (L + X));
  CHECK_I64(o->net.b[C_PENDING], 2 * E);
  CHECK_I64(o->net.b[C_EDGE], 2 * E);
  CHECK(o->flags_after.edge & SF_GRAD16_EMB);
  memi_sim_rank_free(sr);
  free(sr);
  memest_result_free(r);
}


static int same_event(const tl_event *a, const tl_event *b) {
  return a->step == b->step && a->kind == b->kind && a->iter == b->iter && a->pf == b->pf &&
         a->pb == b->pb && a->cf == b->cf && a->cb == b->cb && a->what == b->what &&
         a->total == b->total && a->peak == b->peak && a->live[0] == b->live[0] &&
         a->live[1] == b->live[1] && memcmp(&a->at_peak, &b->at_peak, sizeof a->at_peak) == 0;
}

static int same_program(const layer_prog *a, const layer_prog *b) {
  int st, i;
  if (a->kind != b->kind || a->moe != b->moe || a->retained != b->retained ||
      a->h_out != b->h_out || a->capture != b->capture || a->n_wgrad != b->n_wgrad ||
      a->n_detail != b->n_detail) {
    return 0;
  }
  for (i = 0; i < a->n_wgrad; i++) {
    if (a->wgrad[i] != b->wgrad[i]) return 0;
  }
  for (i = 0; i < a->n_detail; i++) {
    if (a->detail[i].name != b->detail[i].name) return 0;
    if (a->detail[i].bytes != b->detail[i].bytes) return 0;
  }
  for (st = 0; st < ST_COUNT; st++) {
    if (a->n[st] != b->n[st]) return 0;
    for (i = 0; i < a->n[st]; i++) {
      const prog_ev *x = &a->st[st][i], *y = &b->st[st][i];
      if (x->d != y->d || x->comp != y->comp || x->kind != y->kind) return 0;
      if (x->label != y->label) return 0;
    }
  }
  return 1;
}

/* One rank replayed plainly (its own programs, every op walked layer by
** layer, each layer's program also built alone) against the shared rank. */
static void check_plain_rank(const memest_result *r, const rank_result *rr) {
  sim_rank *sr = calloc(1, sizeof *sr);
  memest_error err;
  int m, li;
  int64_t k;
  if (sr == NULL) return;
  sr->plain = 1;
  CHECK_I64(memi_sim_rank_init(sr, &r->mc, &r->lo, &r->params, rr->rank, NULL, &err), MEMEST_OK);
  CHECK_I64(memi_sim_rank_run(sr, &err), MEMEST_OK);
  CHECK_I64(sr->peak, rr->tensor_peak);
  CHECK_I64(sr->peak_index, rr->peak_index);
  CHECK_I64(sr->n_events, rr->n_events);
  CHECK(memcmp(&sr->at_peak, &rr->at_peak, sizeof sr->at_peak) == 0);
  CHECK(same_event(&sr->peak_ev, &rr->peak_ev));
  CHECK_I64(sr->n_tl, rr->n_tl);
  for (k = 0; k < sr->n_tl && k < rr->n_tl; k++) CHECK(same_event(&sr->tl[k], &rr->tl[k]));
  for (m = 0; m < 2; m++) {
    for (li = 0; li < sr->inv.mod[m].n_layers; li++) {
      const rank_layer *rl = &sr->layers[m][li];
      layer_prog alone;
      CHECK_I64(memi_lay_build(&r->mc, &r->lo, &sr->inv, rl->layer, rl->lg, rl->xg, &alone, &err),
                MEMEST_OK);
      CHECK(same_program(rl->prog, &alone));
      memi_lay_free(&alone);
    }
  }
  memi_sim_rank_free(sr);
  free(sr);
}

/* Every preset in several layouts, estimated one after another with one
** shared cache (layer programs built once per shape, across layouts and
** models, identical layers repeated inside each op), gives the figures of
** the plain replay, event for event. */
static void test_shared_programs(void) {
  /* pp, ep, cp, GPUs, micro batch, global batch, sequence, FP8, Muon */
  static const int64_t layouts[][9] = {
      {1, 1, 1, 1, 1, 8, 1024, 0, 0},    {2, 2, 1, 8, 1, 64, 2048, 0, 1},
      {4, 8, 1, 32, 1, 256, 4096, 1, 0}, {2, 4, 2, 16, 2, 64, 4096, 0, 0},
      {8, 8, 1, 64, 1, 512, 2048, 0, 1}, {3, 2, 1, 12, 1, 48, 1024, 1, 1},
      {2, 2, 1, 8, 1, 64, 2048, 1, 0},   {4, 2, 1, 16, 1, 64, 2048, 0, 0}};
  est_cache *cache = memi_est_cache_new();
  memest_result *r = malloc(sizeof *r);
  int i, estimated = 0;
  size_t l;
  CHECK(cache != NULL && r != NULL);
  for (i = 0; cache != NULL && r != NULL && i < memi_preset_model_count; i++) {
    model_config mc;
    memest_error err;
    const char *text = memi_preset_models[i].text;
    CHECK_I64(memi_cfg_parse(text, strlen(text), &mc, &err), MEMEST_OK);
    for (l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
      const int64_t *x = layouts[l];
      memest_params p;
      int k;
      check_params(&p, memi_preset_models[i].name, x[0], x[1], x[2], x[3], x[4], x[5], x[6], "b200");
      CHECK_I64(memest_params_set(&p, "timeline", "true", &err), MEMEST_OK);
      CHECK_I64(memest_params_set(&p, "timeline_limit", "0", &err), MEMEST_OK);
      if (x[7]) CHECK_I64(memest_params_set(&p, "fp8_training", "deep-gemm", &err), MEMEST_OK);
      if (x[8]) CHECK_I64(memest_params_set(&p, "optimizer", "muon", &err), MEMEST_OK);
      if (memi_layout_problems(&mc, &p, &err, 1) > 0) continue;
      if (memi_est_run(&mc, &p, r, cache, &err) != MEMEST_OK) {
        fprintf(stderr, "%s layout %d: %s\n", memi_preset_models[i].name, (int)l, err.message);
        CHECK(0);
        continue;
      }
      for (k = 0; k < r->n_ranks; k++) check_plain_rank(r, &r->ranks[k]);
      memi_est_release(r);
      estimated++;
    }
  }
  /* Most layouts fit every preset; a failed parse or check would drop them. */
  CHECK(estimated >= 4 * memi_preset_model_count);
  free(r);
  memi_est_cache_free(cache);
}

int main(void) {
  test_parameter_totals();
  test_partition();
  test_worked_example();
  test_static_components();
  test_tokens();
  test_schedule();
  test_result_sums();
  test_timeline_window();
  test_single_rank();
  test_steady_skip();
  test_deferral_pr28();
  test_fsdp_state_by_hand();
  test_shared_programs();
  return check_done("test_core");
}
