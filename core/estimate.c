/*
** estimate.c — the public entry points: memest_estimate (config -> layout
** -> every rank's replay -> result), memest_validate, the result's headline
** accessors, non-PyTorch memory (spec §7) and the warnings. One estimate is
** a pure function of its inputs: everything it allocates hangs off the
** result or is freed before it returns.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"
#include "routing.h"
#include "sim.h"

const char *memest_version(void) { return MEMEST_VERSION; }

const char *status_name(memest_status s) {
  return s == MEMEST_FITS_OK ? "OK" : s == MEMEST_FITS_TIGHT ? "TIGHT" : "OOM";
}

void nonpt_parts(const layout *lo, int64_t parts[5]) {
  int dims = (lo->pp > 1) + (lo->ep > 1) + (lo->dp > 1) + (lo->cp > 1);
  parts[0] = CHOICE_NONPT_CUDA_CONTEXT_MIB * MIB_BYTES;
  parts[1] = CHOICE_NONPT_NCCL_WORLD_MIB * MIB_BYTES;
  parts[2] = (dims * CHOICE_NONPT_NCCL_PER_DIM_MIB + (lo->pp > 1) * CHOICE_NONPT_NCCL_PP_EXTRA_MIB) *
             MIB_BYTES;
  parts[3] = CHOICE_NONPT_FSDP_STATE_MIB * MIB_BYTES;
  parts[4] = CHOICE_NONPT_FIRST_FORWARD_MIB * MIB_BYTES;
}

static void add_warning(memest_result *r, const char *text) {
  if (r->n_warnings >= (int)(sizeof r->warnings / sizeof r->warnings[0])) return;
  snprintf(r->warnings[r->n_warnings++], sizeof r->warnings[0], "%s", text);
}

static void collect_warnings(memest_result *r) {
  int i;
  for (i = 0; i < r->mc.n_warnings; i++) add_warning(r, r->mc.warnings[i]);
  if (r->params.cp_size > 1) {
    add_warning(r,
                "context parallelism: ring-attention memory is modelled as described in "
                "docs/model.md (buffers per ring step, the sharded sequence elsewhere); CP "
                "figures are not yet validated against measurements");
  }
  if (r->params.fp8_training == MEMEST_FP8_DEEP_GEMM) {
    add_warning(r,
                "FP8 training: modelled are the FP8 weight caches, the fp8 copies the expert and "
                "eager MLP GEMMs save instead of bf16 inputs, the fp8 weights and inputs compiled "
                "FP8Linears save per chunk, and the fp32 buffers of the FP8 weight gradients; "
                "FP8 figures are not yet validated against measurements");
    if (r->params.cp_size > 1) {
      add_warning(r,
                  "FP8 with context parallelism: for MLA models (DeepSeek) the latent ring's "
                  "in-ring FP8 path (per-step latent quantisation, fp8 kv_b dgrad and wgrad) is "
                  "estimated with its BF16 buffers");
    }
  }
}

/* Picks the rank's layer with the most retained bytes for --detail. */
static void keep_detail(rank_result *rr, const sim_rank *sr) {
  int m, li;
  const layer_prog *best = NULL;
  for (m = 0; m < 2; m++) {
    for (li = 0; li < sr->inv.mod[m].n_layers; li++) {
      const layer_prog *lp = &sr->progs[m][li];
      if (best == NULL || lp->retained > best->retained) best = lp;
    }
  }
  if (best == NULL) return;
  memcpy(rr->detail, best->detail, sizeof rr->detail);
  rr->n_detail = best->n_detail;
  rr->detail_retained = best->retained;
  rr->detail_kind = best->kind;
  rr->detail_layer = best->layer;
}

/* Simulates one rank in sr, scratch space the caller reuses across ranks. */
static memest_code run_rank(memest_result *r, int rank, sim_rank *sr, rank_result *rr,
                            memest_error *err) {
  memest_code rc;
  int m;
  rc = sim_rank_init(sr, &r->mc, &r->lo, &r->params, rank, err);
  if (rc == MEMEST_OK) rc = sim_rank_run(sr, err);
  if (rc == MEMEST_OK) {
    memset(rr, 0, sizeof *rr);
    rr->rank = rank;
    for (m = 0; m < 2; m++) {
      rr->stages[m] = sr->inv.mod[m].stage;
      rr->layers[m] = sr->inv.mod[m].n_layers;
      rr->params[m] = sr->inv.mod[m].params;
    }
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
  sim_rank_free(sr);
  return rc;
}

/* Returns 1 when a total would not fit in 64 bits. */
static int finish_totals(memest_result *r) {
  int i, ovf = 0;
  int64_t worst = -1;
  nonpt_parts(&r->lo, r->nonpt_parts);
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

void est_release(memest_result *r) {
  int i;
  if (r->ranks == NULL) return;
  for (i = 0; i < r->n_ranks; i++) free(r->ranks[i].tl);
  free(r->ranks);
  r->ranks = NULL;
  r->n_ranks = 0;
}

memest_code est_run(const model_config *mc, const memest_params *p, memest_result *r,
                    int with_advice, memest_error *err) {
  memest_code rc;
  sim_rank *sr;
  int i, first, count, povf = 0;
  memset(r, 0, sizeof *r);
  r->params = *p;
  r->mc = *mc;
  if ((rc = layout_build(&r->mc, &r->params, &r->lo, err))) return rc;
  r->model_params = inv_model_parameters(&r->mc, &povf);
  if (povf) {
    return err_set(err, MEMEST_E_OVERFLOW, "config",
                   "the model's parameter count overflows 64 bits; check hidden_size, "
                   "vocab_size, the expert count and the intermediate sizes");
  }
  first = p->pp_rank < 0 ? 0 : (int)p->pp_rank;
  count = p->pp_rank < 0 ? (int)r->lo.pp : 1;
  r->ranks = calloc((size_t)count, sizeof *r->ranks);
  sr = malloc(sizeof *sr);
  if (r->ranks == NULL || sr == NULL) {
    free(sr);
    est_release(r);
    return err_set(err, MEMEST_E_NOMEM, "", "out of memory for the ranks");
  }
  for (i = 0; i < count; i++) {
    rc = run_rank(r, first + i, sr, &r->ranks[i], err);
    if (rc != MEMEST_OK) {
      free(sr);
      est_release(r);
      return rc;
    }
    r->n_ranks = i + 1;
  }
  free(sr);
  if (finish_totals(r)) {
    est_release(r);
    return err_set(err, MEMEST_E_OVERFLOW, "",
                   "the peak of this run overflows 64-bit byte counts; check the config's sizes, "
                   "--sequence-length and --micro-batch-size");
  }
  collect_warnings(r);
  if (with_advice) advice_build(r);
  return MEMEST_OK;
}

/* Resolves the config text: the caller's, or the preset named by model. */
static memest_code config_text(const char *config, size_t len, const memest_params *p,
                               const char **text, size_t *n, memest_error *err) {
  if (config != NULL) {
    *text = config;
    *n = len;
    return MEMEST_OK;
  }
  if (!((p->given >> MEMEST_P_MODEL) & 1u)) {
    return err_set(err, MEMEST_E_MISSING, "model",
                   "missing required parameter --model: give a preset name or a config.json");
  }
  *text = memest_model_preset_config(p->model);
  if (*text == NULL) {
    char names[400];
    int i;
    names[0] = '\0';
    for (i = 0; i < memest_model_preset_count(); i++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", memest_model_preset_name(i));
    }
    return err_set(err, MEMEST_E_UNKNOWN, "model",
                   "unknown model preset '%.100s'; the presets are: %s (or give a config.json)",
                   p->model, names);
  }
  *n = strlen(*text);
  return MEMEST_OK;
}

memest_code memest_estimate(const char *config, size_t config_len, const memest_params *p,
                            memest_result **out, memest_error *err) {
  const char *text;
  size_t n;
  memest_result *r;
  model_config *mc;
  memest_code rc;
  memest_error first;
  err_clear(err);
  if (out == NULL || p == NULL) return err_set(err, MEMEST_E_VALUE, "", "no parameters given");
  *out = NULL;
  if (layout_problems(NULL, p, &first, 1) > 0) {
    if (err != NULL) *err = first;
    return first.code;
  }
  if ((rc = config_text(config, config_len, p, &text, &n, err))) return rc;
  mc = malloc(sizeof *mc);
  r = malloc(sizeof *r);
  if (mc == NULL || r == NULL) {
    free(mc);
    free(r);
    return err_set(err, MEMEST_E_NOMEM, "", "out of memory");
  }
  rc = cfg_parse(text, n, mc, err);
  if (rc == MEMEST_OK) rc = est_run(mc, p, r, 1, err);
  if (rc == MEMEST_OK) {
    rc = routing_margin(mc, p, &r->lo.d, r->peak - r->capacity, r->ranks[r->worst].rank,
                        ROUTING_ESTIMATE_GRID, &r->routing, err);
    if (rc != MEMEST_OK) est_release(r);
  }
  free(mc);
  if (rc != MEMEST_OK) {
    free(r);
    return rc;
  }
  *out = r;
  return MEMEST_OK;
}

int memest_validate(const char *config, size_t config_len, const memest_params *p,
                    memest_error *errs, int max) {
  const char *text;
  size_t n;
  model_config *mc;
  memest_error one;
  int count;
  if (p == NULL) return 0;
  count = layout_problems(NULL, p, errs, max);
  if (count > 0) return count;
  if (config_text(config, config_len, p, &text, &n, &one) != MEMEST_OK) {
    if (max > 0) errs[0] = one;
    return 1;
  }
  mc = malloc(sizeof *mc);
  if (mc == NULL) {
    if (max > 0) err_set(&errs[0], MEMEST_E_NOMEM, "", "out of memory");
    return 1;
  }
  if (cfg_parse(text, n, mc, &one) != MEMEST_OK) {
    free(mc);
    if (max > 0) errs[0] = one;
    return 1;
  }
  count = layout_problems(mc, p, errs, max);
  free(mc);
  return count;
}

void memest_result_free(memest_result *r) {
  if (r == NULL) return;
  est_release(r);
  free(r);
}

memest_status memest_result_status(const memest_result *r) { return r->status; }
uint64_t memest_result_peak_bytes(const memest_result *r) { return (uint64_t)r->peak; }
uint64_t memest_result_tensor_peak_bytes(const memest_result *r) { return (uint64_t)r->tensor_peak; }
uint64_t memest_result_capacity_bytes(const memest_result *r) { return (uint64_t)r->capacity; }
int64_t memest_result_headroom_bytes(const memest_result *r) { return r->headroom; }
int memest_result_worst_rank(const memest_result *r) { return r->ranks[r->worst].rank; }
