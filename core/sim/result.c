/*
** result.c — one estimate's result: the layout, every rank simulated
** (rank.c, replay.c), non-PyTorch memory (memory-model.md §7), fragmentation, the
** status against the GPU and the warnings. What consecutive estimates
** share lives in an est_cache that the caller owns: the layer programs
** (a prog_cache), one rank's scratch and the model's parameter counts.
** An estimate stays a pure function of its inputs: the cache only saves
** rebuilding what they determine.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/rank.h"
#include "sim/schedule.h"
#include "sim/result.h"
#include "sim/model_summary.h"

struct est_cache {
  prog_cache progs;
  sim_rank rank;             /* scratch, reused by every rank */
  model_config counted;      /* the model the parameter counts below are of */
  int has_counts, counts_ovf;
  int64_t model_params, active_params;
  trace_scratch traces;      /* the time model's */
};

est_cache *memi_est_cache_new(void) { return calloc(1, sizeof(est_cache)); }

trace_scratch *memi_est_cache_traces(est_cache *c) { return &c->traces; }

void memi_trace_scratch_release(trace_scratch *ts) {
  int64_t i;
  for (i = 0; i < ts->n_traces; i++) memi_sched_trace_free(&ts->traces[i]);
  free(ts->traces);
  memi_sched_tracer_free(&ts->tracer);
  free(ts->fin);
  memset(ts, 0, sizeof *ts);
}

void memi_est_cache_free(est_cache *c) {
  if (c == NULL) return;
  memi_trace_scratch_release(&c->traces);
  memi_sim_rank_free(&c->rank);
  memi_lay_cache_free(&c->progs);
  free(c);
}

/* The status names, written once; the page reads them through names(). */
static const char *const status_names[] = {"OK", "TIGHT", "OOM"};

const char *memest_status_name(memest_status s) {
  return (unsigned)s < sizeof status_names / sizeof status_names[0] ? status_names[s] : NULL;
}

const char *memi_status_name(memest_status s) {
  return memest_status_name(s) ? memest_status_name(s) : "OOM";
}

void memi_nonpt_parts(const layout *lo, int64_t parts[5]) {
  int dims = (lo->pp > 1) + (lo->ep > 1) + (lo->dp > 1) + (lo->cp > 1);
  parts[0] = CHOICE_NONPT_CUDA_CONTEXT_MIB * MIB_BYTES;
  parts[1] = CHOICE_NONPT_NCCL_WORLD_MIB * MIB_BYTES;
  parts[2] = (dims * CHOICE_NONPT_NCCL_PER_DIM_MIB + (lo->pp > 1) * CHOICE_NONPT_NCCL_PP_EXTRA_MIB) *
             MIB_BYTES;
  parts[3] = CHOICE_NONPT_FSDP_STATE_MIB * MIB_BYTES;
  parts[4] = CHOICE_NONPT_FIRST_FORWARD_MIB * MIB_BYTES;
}

/* Warnings one result holds (memest_result.warnings). */
#define WARNINGS_MAX 8
_Static_assert(sizeof ((memest_result *)0)->warnings / sizeof ((memest_result *)0)->warnings[0] ==
                   WARNINGS_MAX,
               "WARNINGS_MAX is the size of memest_result.warnings");

static void add_warning(memest_result *r, int *more, const char *text) {
  if (r->n_warnings >= WARNINGS_MAX) {
    (*more)++;
    return;
  }
  snprintf(r->warnings[r->n_warnings++], sizeof r->warnings[0], "%s", text);
}

/* The options' own caveats. */
static void collect_option_warnings(memest_result *r, int *more) {
  if (r->params.cp_size > 1) {
    add_warning(r, more,
                "context parallelism: ring-attention memory is modelled as described in "
                "docs/model.md (buffers per ring step, the sharded sequence elsewhere); CP "
                "figures are not yet validated against measurements");
  }
  if (r->params.fp8_training == MEMEST_FP8_DEEP_GEMM) {
    add_warning(r, more,
                "FP8 training: modelled are the FP8 weight caches, the fp8 copies the expert and "
                "eager MLP GEMMs save instead of bf16 inputs, the fp8 weights and inputs compiled "
                "FP8Linears save per chunk, and the fp32 buffers of the FP8 weight gradients; "
                "FP8 figures are not yet validated against measurements");
    if (r->params.cp_size > 1) {
      add_warning(r, more,
                  "FP8 with context parallelism: for MLA models (DeepSeek) the latent ring's "
                  "in-ring FP8 path (per-step latent quantisation, fp8 kv_b dgrad and wgrad) is "
                  "estimated with its BF16 buffers");
    }
  }
}

/* The config's warnings, then the options'; past the array, the last slot
** says how many more there were rather than dropping them silently. */
static void collect_warnings(memest_result *r) {
  char text[400];
  int i, more = r->mc.more_warnings;
  for (i = 0; i < r->mc.n_warnings; i++) add_warning(r, &more, r->mc.warnings[i]);
  memi_msum_position_warning(r, text, sizeof text);
  if (text[0]) add_warning(r, &more, text);
  collect_option_warnings(r, &more);
  if (r->params.schedule != MEMEST_SCHED_DUALPIPEV) {
    snprintf(text, sizeof text,
             "schedule %s: the trainer runs DualPipeV only; this shows what the same run would "
             "hold and take under %s (docs/schedules.md)",
             r->lo.sched->name, r->lo.sched->name);
    add_warning(r, &more, text);
  }
  if (more > 0) {
    if (r->n_warnings == WARNINGS_MAX) {
      r->n_warnings--;
      more++;
    }
    snprintf(r->warnings[r->n_warnings++], sizeof r->warnings[0],
             "%d more warnings, not shown: a result keeps %d (fix the ones above and rerun to "
             "see the rest)",
             more, WARNINGS_MAX - 1);
  }
}

/* Picks the rank's layer with the most retained bytes for --detail. */
static void keep_detail(rank_result *rr, const sim_rank *sr) {
  int m, li;
  const layer_prog *best = NULL;
  int layer = -1;
  for (m = 0; m < sr->inv.n_mod; m++) {
    for (li = 0; li < sr->inv.mod[m].n_layers; li++) {
      const layer_prog *lp = sr->layers[m][li].prog;
      if (best == NULL || lp->retained > best->retained) {
        best = lp;
        layer = sr->layers[m][li].layer;
      }
    }
  }
  if (best == NULL) return;
  memcpy(rr->detail, best->detail, sizeof rr->detail);
  rr->n_detail = best->n_detail;
  rr->detail_retained = best->retained;
  rr->detail_kind = best->kind;
  rr->detail_layer = layer;
}

int64_t memi_est_peak_immediate_wgrad(const memest_result *r) {
  sim_rank *sr = calloc(1, sizeof *sr);
  memest_params p = r->params;
  memest_error err;
  int64_t peak = -1;
  int i;
  if (sr == NULL) return -1;
  p.timeline = 0;
  sr->immediate_wgrad = 1;
  for (i = 0; i < r->n_ranks; i++) {
    if (memi_sim_rank_init(sr, &r->mc, &r->lo, &p, r->ranks[i].rank, NULL, &err) != MEMEST_OK ||
        memi_sim_rank_run(sr, &err) != MEMEST_OK) {
      peak = -1;
      break;
    }
    if (sr->peak > peak) peak = sr->peak;
  }
  memi_sim_rank_free(sr);
  free(sr);
  return peak;
}

int memi_result_max_live(const memest_result *r) {
  int i, most = 0;
  for (i = 0; i < r->n_ranks; i++)
    if (r->ranks[i].max_live > most) most = r->ranks[i].max_live;
  return most;
}

/* Simulates one rank in sr, scratch space reused across ranks. */
static memest_code run_rank(memest_result *r, int rank, sim_rank *sr, prog_cache *progs,
                            rank_result *rr, memest_error *err) {
  memest_code rc;
  int m;
  rc = memi_sim_rank_init(sr, &r->mc, &r->lo, &r->params, rank, progs, err);
  if (rc == MEMEST_OK) rc = memi_sim_rank_run(sr, err);
  if (rc == MEMEST_OK) {
    memset(rr, 0, sizeof *rr);
    rr->rank = rank;
    for (m = 0; m < sr->inv.n_mod; m++) {
      rr->stages[m] = sr->inv.mod[m].stage;
      rr->layers[m] = sr->inv.mod[m].n_layers;
      rr->params[m] = sr->inv.mod[m].params;
    }
    rr->shard_params = sr->inv.sh_total;
    rr->max_live = sr->max_live;
    rr->tensor_peak = sr->peak;
    rr->at_peak = sr->at_peak;
    rr->peak_ev = sr->peak_ev;
    rr->peak_index = sr->peak_index;
    rr->n_events = sr->n_events;
    rr->tl = sr->tl;
    rr->n_tl = sr->n_tl;
    rr->tl_from = sr->tl_from;
    sr->tl = NULL;
    keep_detail(rr, sr);
  }
  return rc;
}

/* Returns 1 when a total would not fit in 64 bits. */
static int finish_totals(memest_result *r) {
  int i, ovf = 0;
  int64_t worst = -1;
  memi_nonpt_parts(&r->lo, r->nonpt_parts);
  r->nonpt = 0;
  for (i = 0; i < 5; i++) r->nonpt += r->nonpt_parts[i];
  r->tensor_peak = 0;
  for (i = 0; i < r->n_ranks; i++) {
    rank_result *rr = &r->ranks[i];
    double frag = r->params.fragmentation * (double)rr->tensor_peak;
    rr->nonpt = r->nonpt;
    if (!(frag < 9.0e18)) ovf = 1;   /* llround's range, just below 2^63 */
    rr->frag = ovf ? 0 : (int64_t)llround(frag);
    rr->total = ck_add(&ovf, ck_add(&ovf, rr->tensor_peak, rr->nonpt), rr->frag);
    if (rr->total > worst) {
      worst = rr->total;
      r->worst = i;
    }
    if (rr->tensor_peak > r->tensor_peak) r->tensor_peak = rr->tensor_peak;
  }
  r->peak = worst;
  r->capacity = r->lo.capacity;
  r->headroom = r->capacity - r->peak;
  if (r->headroom < 0) r->status = MEMEST_FITS_OOM;
  else if (r->headroom * 100 < r->capacity * CHOICE_TIGHT_PERCENT) r->status = MEMEST_FITS_TIGHT;
  else r->status = MEMEST_FITS_OK;
  return ovf;
}

void memi_est_release(memest_result *r) {
  int i;
  memest_result_free(r->every);
  r->every = NULL;
  free(r->time);
  r->time = NULL;
  if (r->ranks == NULL) return;
  for (i = 0; i < r->n_ranks; i++) free(r->ranks[i].tl);
  free(r->ranks);
  r->ranks = NULL;
  r->n_ranks = 0;
}

memest_code memi_est_run(const model_config *mc, const memest_params *p, memest_result *r,
                    est_cache *cache, memest_error *err) {
  memest_code rc = MEMEST_OK;
  est_cache *local = NULL;
  int i, first, count, povf = 0;
  memset(r, 0, sizeof *r);
  r->params = *p;
  r->mc = *mc;
  if ((rc = memi_layout_build(&r->mc, &r->params, &r->lo, err))) return rc;
  if (cache != NULL && cache->has_counts && memcmp(&cache->counted, mc, sizeof *mc) == 0) {
    r->model_params = cache->model_params;   /* a walk of every layer, once per model */
    r->active_params = cache->active_params;
    povf = cache->counts_ovf;
  } else {
    r->model_params = memi_msum_total_parameters(&r->mc, &povf);
    r->active_params = memi_msum_active_parameters(&r->mc, &povf);
    if (cache != NULL) {
      cache->counted = *mc;
      cache->model_params = r->model_params;
      cache->active_params = r->active_params;
      cache->counts_ovf = povf;
      cache->has_counts = 1;
    }
  }
  r->active_params_no_embedding = memi_msum_active_without_embedding(&r->mc, r->active_params, &povf);
  if (povf) {
    return memi_err_set(err, MEMEST_E_OVERFLOW, "config",
                   "the model's parameter count overflows 64 bits; check hidden_size, "
                   "vocab_size, the expert count and the intermediate sizes");
  }
  first = p->pp_rank < 0 ? 0 : (int)p->pp_rank;
  count = p->pp_rank < 0 ? (int)r->lo.pp : 1;
  r->ranks = calloc((size_t)count, sizeof *r->ranks);
  if (cache == NULL) cache = local = memi_est_cache_new();
  if (r->ranks == NULL || cache == NULL) {
    memi_est_cache_free(local);
    memi_est_release(r);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the ranks");
  }
  for (i = 0; i < count && rc == MEMEST_OK; i++) {
    rc = run_rank(r, first + i, &cache->rank, &cache->progs, &r->ranks[i], err);
    if (rc == MEMEST_OK) r->n_ranks = i + 1;
  }
  memi_est_cache_free(local);
  if (rc != MEMEST_OK) {
    memi_est_release(r);
    return rc;
  }
  if (finish_totals(r)) {
    memi_est_release(r);
    return memi_err_set(err, MEMEST_E_OVERFLOW, "",
                   "the peak of this run overflows 64-bit byte counts; check the config's sizes, "
                   "--sequence-length and --micro-batch-size");
  }
  collect_warnings(r);
  return MEMEST_OK;
}

/* The result's figures, as include/memest.h gives them. */
void memest_result_free(memest_result *r) {
  if (r == NULL) return;
  memi_est_release(r);
  free(r->source_json);
  free(r->source_text);
  free(r);
}

memest_status memest_result_status(const memest_result *r) { return r->status; }
uint64_t memest_result_peak_bytes(const memest_result *r) { return (uint64_t)r->peak; }
uint64_t memest_result_tensor_peak_bytes(const memest_result *r) { return (uint64_t)r->tensor_peak; }
uint64_t memest_result_capacity_bytes(const memest_result *r) { return (uint64_t)r->capacity; }
int64_t memest_result_headroom_bytes(const memest_result *r) { return r->headroom; }
int memest_result_worst_rank(const memest_result *r) {
  return r->run_worst >= 0 ? r->run_worst : r->ranks[r->worst].rank;
}
int memest_result_shown_rank(const memest_result *r) {
  return r->params.pp_rank >= 0 ? r->ranks[0].rank : -1;
}
int memest_result_run_known(const memest_result *r) {
  return r->params.pp_rank < 0 || r->every != NULL;
}
