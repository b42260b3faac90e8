/*
** result.h — the result of one estimate (result.c) and what reads it
** (estimate.c, advice.c, report_*.c, the planner): every rank's peak and
** timeline window, the totals against the GPU, warnings and suggestions.
** Consecutive estimates of one model may share an est_cache: the layer
** programs built so far and the rank scratch.
** Design note: docs/design.md.
*/
#ifndef MEMEST_RESULT_H
#define MEMEST_RESULT_H

#include "sim/layout.h"
#include "sim/schedule.h"
#include "sim/timeline.h"

/* The time model's answer (core/time/time.h): one block the result owns. */
typedef struct step_time step_time;

typedef struct rank_result {
  int rank;
  int stages[MEMEST_MAX_MODULES];  /* of each module */
  int layers[MEMEST_MAX_MODULES];
  int64_t params[MEMEST_MAX_MODULES];
  int64_t shard_params;      /* parameter elements of one GPU's FSDP shards */
  int max_live;              /* the most chunks in flight over its modules at once */
  int64_t tensor_peak;
  int64_t nonpt, frag, total;
  comp_vec at_peak;
  tl_event peak_ev;
  int64_t peak_index;
  int64_t n_events;
  tl_event *tl;
  int64_t n_tl, tl_from;
  tensor_row detail[48];     /* saved tensors of its largest layer */
  int n_detail;
  int64_t detail_retained;
  const char *detail_kind;
  int detail_layer;
} rank_result;

typedef struct suggestion {
  char knob[24];
  char from[32], to[32];
  int64_t peak;
  int64_t saves;
  memest_status status;
  char advice[200];
  char fix[96];              /* the change as "name=value[,name=value]" */
} suggestion;

/* The nearest layout that is OK when no single-knob suggestion is
** (nearest.c): the planner's search over pp, ep, cp, total GPUs and micro
** batch, fewest GPUs first, then fewest inputs changed, then most headroom. */
typedef struct nearest_layout {
  int searched;              /* 1: the search ran */
  int found;                 /* 1: a layout below is OK */
  int64_t pp, ep, cp, dp, total, mbs;
  int64_t peak, headroom;
  memest_status status;
  int changed;               /* how many of pp, ep, cp, total_gpus, mbs differ */
  char fix[96];              /* the change as "name=value[,name=value]" */
  int64_t gpus_max;          /* the most GPUs searched */
  int plans;                 /* GPU counts tried, one plan each */
} nearest_layout;

struct memest_result {
  memest_params params;
  model_config mc;
  layout lo;
  int64_t model_params;
  int64_t active_params;     /* per token (model_summary.c) */
  int64_t active_params_no_embedding; /* the same without embed_tokens */
  int64_t nonpt_parts[5];
  int64_t nonpt;
  rank_result *ranks;
  int n_ranks;
  int worst;
  int64_t peak, tensor_peak, capacity, headroom;
  memest_status status;
  char warnings[8][400];
  int n_warnings;      /* the last one says how many more there were, if any */
  suggestion sugg[8];
  int n_sugg;
  nearest_layout nearest;    /* searched only when no suggestion is OK */
  memest_routing_info routing;  /* the routing and its margin (routing.c) */
  memest_result *every;      /* one rank asked for: every rank's replay (no timeline), or
                             ** NULL when that would exceed MEMEST_MAX_REPLAY_CHUNKS */
  /* One rank asked for (params.pp_rank >= 0): peak, headroom and status
  ** above are the run's (its worst rank's, from `every`), as without it;
  ** these are the rank's own. run_worst is the run's worst pipeline rank. */
  int64_t shown_peak, shown_headroom;
  memest_status shown_status;
  int run_worst;
  int timeline_columns;      /* a view: events' components as one array per component */
  char *source_json, *source_text;  /* memest_result_set_source, or NULL: flags only */
  step_time *time;           /* step time and tokens/s (memi_est_estimate), or NULL */
};

/* What consecutive estimates share (result.c): the layer programs built
** so far, one per distinct layer shape, and the scratch of one rank. It
** belongs to its caller; any model may be estimated with it (programs of
** another model are dropped). NULL from memi_est_cache_new when out of memory. */
typedef struct est_cache est_cache;
MEMEST_HIDDEN est_cache *memi_est_cache_new(void);
MEMEST_HIDDEN void memi_est_cache_free(est_cache *c);

/* What the time model (core/time/step.c) keeps between estimates: each
** pipeline rank's op trace, the tracer, and the done-times of every stage
** and chunk. Plain buffers it grows as it needs; the cache frees them. */
typedef struct trace_scratch {
  sched_trace *traces;
  int64_t n_traces;
  /* The traces hold this schedule's ops for pp ranks and chunks
  ** micro-batches (a trace depends on nothing else): reused as they are. */
  const schedule *traced_sched;
  int64_t traced_pp, traced_chunks;
  int traced_v;
  sched_tracer tracer;
  double *fin;
  int64_t fin_cap;
} trace_scratch;
/* c's trace scratch (c not NULL). */
MEMEST_HIDDEN trace_scratch *memi_est_cache_traces(est_cache *c);
/* Frees what a trace scratch holds (not the scratch itself). */
MEMEST_HIDDEN void memi_trace_scratch_release(trace_scratch *ts);

/* The most chunks in flight over one rank's modules at once, over the ranks. */
MEMEST_HIDDEN int memi_result_max_live(const memest_result *r);

/* One estimate: every rank, the totals, the warnings; no suggestions.
** cache may be NULL (then nothing is shared). */
MEMEST_HIDDEN memest_code memi_est_run(const model_config *mc, const memest_params *p,
                                  memest_result *r, est_cache *cache, memest_error *err);
/* The tensor peak of r's ranks replayed with every expert weight grad
** computed in its backward, never deferred: the trainer before 287070f
** (docs/model.md, Trainer versions). -1 when the replay fails. */
MEMEST_HIDDEN int64_t memi_est_peak_immediate_wgrad(const memest_result *r);
/* Frees what a result owns, but not the result itself. */
MEMEST_HIDDEN void memi_est_release(memest_result *r);
/* memest_estimate, with the suggestions or without them (estimate.c);
** cache is the caller's to share with later runs of the same model, or
** NULL. */
MEMEST_HIDDEN memest_code memi_est_estimate(const char *config, size_t config_len,
                                       const memest_params *p, int with_advice,
                                       est_cache *cache, memest_result **out,
                                       memest_error *err);
/* Suggestions (advice.c): each candidate change estimated with cache. */
/* MEMEST_E_NOMEM when out of memory; a candidate that fails otherwise is
** no suggestion. */
MEMEST_HIDDEN memest_code memi_advice_build(memest_result *r, est_cache *cache, memest_error *err);
/* r->nearest: the planner's nearest OK layout (nearest.c); MEMEST_E_NOMEM
** only, a search that cannot run is recorded as not found. */
MEMEST_HIDDEN memest_code memi_nearest_build(memest_result *r, est_cache *cache, memest_error *err);
MEMEST_HIDDEN void memi_nonpt_parts(const layout *lo, int64_t parts[5]);
MEMEST_HIDDEN const char *memi_tl_describe(const tl_event *e, char *buf, size_t size);
MEMEST_HIDDEN const char *memi_peak_label(const tl_event *e, char *buf, size_t size);
MEMEST_HIDDEN const char *memi_status_name(memest_status s);

#endif /* MEMEST_RESULT_H */
