/*
** plan.h — what the planner's files share: the table of swept inputs, one
** plan's rows, the counted reasons for the layouts it dropped and the swept
** value lists. The files depend one way:
**   plan_dims.c      the table, and a row as estimate parameters
**   plan_request.c   the request (uses plan_dims.c)
**   memi_plan_estimate.c  the estimates of rows [from, to) (uses plan_dims.c)
**   planner.c        the sweep in pieces: begin, estimate, conclude and
**                    release (uses the three above)
**   plan_nodes.c     a vary-nodes answer beside pp over whole nodes (uses
**                    planner.c for that second sweep)
**   plan_run.c       memest_plan_finish and memest_plan_run: the
**                    conclusion, what the answer needs beside it, the
**                    release (uses planner.c and plan_nodes.c)
**   plan_report.c    JSON and text of a finished plan (uses plan_dims.c)
** Design note: docs/planner.md.
*/
#ifndef MEMEST_PLAN_H
#define MEMEST_PLAN_H

#include "sim/result.h"

/* The swept inputs, in the order of memest_plan_request's lists. */
enum { D_PP = 0, D_EP, D_CP, D_DP, D_TOTAL, D_NODES, D_MBS, D_GBS, D_SEQ, D_COUNT };

/* One swept input (plan_dims.c holds the table, one row per D_*). */
typedef struct plan_dim_info {
  const char *name;          /* snake_case, as in the JSON: "pp_size" */
  const char *flag;          /* "--pp-size" */
  const char *short_name;    /* what --vary also takes: "pp" */
  int param;                 /* the memest_param_id behind it, or -1 (dp, nodes) */
  size_t offset;             /* its list in memest_plan_request */
  int workload;              /* 1: more costs memory, so a vary plan answers
                             ** the largest OK value, not the smallest */
} plan_dim_info;

/* A swept value list; longer than a request's list because a default
** enumeration (pp: 1..layers/2) may hold up to MEMEST_MAX_PP values. */
typedef struct dim_list {
  int n;
  int64_t v[MEMEST_MAX_PP];
} dim_list;

/* One tried combination: its inputs and, once estimated, its figures. */
typedef struct plan_row {
  int64_t in[D_COUNT];       /* every input; nodes is 0 without gpus_per_node */
  int variant;               /* index into memest_plan.variants */
  int reason;                /* -1 when estimated, else index into reasons */
  int note;                  /* -1, or index into notes (invalid vary rows) */
  int ep_across;             /* 1: an EP group spans nodes (plan_nodes.c) */
  int tier;                  /* the rank class: status, then ep_across when avoided */
  memest_status status;
  int64_t peak, tensor_peak, headroom, capacity, chunks, nonpt, frag;
  double bubble;             /* pipeline bubble over the step (planner.c) */
  int worst_rank;
  comp_vec comps;            /* the worst rank's components at its peak */
  memest_routing_info routing;  /* the row's routing margin (routing.c) */
  /* The time model's figures (core/time/): step seconds, tokens/s for the
  ** job and per GPU, MFU; time_known 0 (no GPU kind, or a plan that runs
  ** no time model) leaves them 0. */
  int time_known;
  double step_seconds, tokens_per_second, tokens_per_second_per_gpu, mfu;
  double time_bubble;        /* the critical rank's idle share of the replayed step */
  /* The schedule in DualPipe's units (schedule.h): its PP, parameters and
  ** in-flight activations per GPU in stages. */
  int64_t pp_stages;
  double parameter_copies, activation_units;
  int fail;                  /* PLAN_PENDING until estimated, then a memest_code */
  memest_error *fail_err;    /* owned: why the estimate failed, or NULL */
} plan_row;

#define PLAN_PENDING (-1)

#define PLAN_REASONS_MAX 24
#define PLAN_NOTE_CHARS 768   /* sizeof memest_error.message */
#define PLAN_WHY_CHARS 400

/* A vary-nodes plan's answer beside the same nodes spent on pipeline
** stages: --vary pp with ep, cp as given and the dp that makes one pipeline
** rank whole nodes (plan_nodes.c). */
typedef struct plan_pp_nodes {
  int ran;                   /* 1: the second sweep ran */
  int64_t dp;                /* its dp: lcm(ep*cp, G) / (ep*cp) */
  int found;                 /* it has an OK pp */
  plan_row row;              /* that answer (its figures; fail_err NULL) */
  int agrees;                /* both answers name the same nodes, or both none */
  char why[PLAN_WHY_CHARS];  /* why they differ, or "" */
} plan_pp_nodes;

typedef struct plan_reason {
  char key[48];              /* short class, e.g. "num_chunks < 2*pp" */
  int64_t count;
  char example[PLAN_NOTE_CHARS];   /* the first such message */
} plan_reason;

struct memest_plan {
  memest_plan_mode mode;
  int vary;                  /* D_* of the varied input (MEMEST_PLAN_VARY) */
  int vary_largest;          /* answer: the largest OK value, not the smallest */
  memest_params base;        /* the fixed inputs */
  memest_params *variants;   /* option variants (lists of --gpu, --optimizer ...) */
  int n_variants;
  uint32_t varied_options;   /* 1u << memest_param_id of each option with a list */
  int64_t gpus_per_node;
  int64_t top;               /* rows in the text report; 0 = all */
  double min_margin;         /* keep rows whose routing margin reaches it; 0 = all */
  char model_title[64];
  int64_t layers, experts;
  double expert_share;       /* W / F for the first row (bubble model) */
  dim_list dims[D_COUNT];    /* the values swept, given or enumerated */
  int given[D_COUNT];        /* 1 where the request gave the list */
  plan_row *rows;
  int n_rows, cap_rows;
  char (*notes)[PLAN_NOTE_CHARS];
  int n_notes;
  plan_reason reasons[PLAN_REASONS_MAX];
  int n_reasons;
  int64_t tried;             /* combinations tried, valid or not */
  int64_t work;              /* row_work over the rows to estimate (~4 us a unit) */
  int answer;                /* row index, or -1 */
  int closest;               /* no answer: the estimated row with the most headroom, or -1 */
  memest_ep_nodes ep_nodes;  /* layouts whose EP spans nodes: avoided or allowed */
  plan_pp_nodes pp_nodes;    /* vary nodes: the answer over pipeline stages */
  int bare;                  /* 1: rows carry no routing margin and no time (the core's
                             ** own plans: the nearest layout) */
  memest_plan_objective objective;  /* what a layouts plan and a compare answer with */
  int by_throughput;         /* 1: the objective is throughput and some row has a time */
  int fallback;              /* 1: throughput asked, no row has a time: headroom answers */
  int untimed;               /* estimated rows without a time */
  char time_note[240];       /* the first such row's note, or "" */
  model_config *mc;          /* owned from begin until finish */
  est_cache *cache;          /* layer programs its rows share, begin to finish */
  int cache_borrowed;        /* 1: cache is the caller's (memi_plan_run_parsed) */
  int finished;              /* memest_plan_finish has run */
};

/* Swept input d (D_*), or NULL (plan_dims.c). */
MEMEST_HIDDEN const plan_dim_info *memi_plan_dim(int d);
/* Its snake_case name; "" for no input (plan_dims.c). */
MEMEST_HIDDEN const char *memi_plan_dim_name(int d);
/* The swept input named `name` (snake_case or, with shorts, a short name
** as --vary takes it), or -1 (plan_dims.c). */
MEMEST_HIDDEN int memi_plan_dim_find(const char *name, int shorts);
/* Request list d of req (plan_dims.c). */
MEMEST_HIDDEN const memest_plan_list *memi_plan_dim_list(const memest_plan_request *req, int d);
/* Fills p with row's inputs over its option variant (plan_dims.c). */
MEMEST_HIDDEN void memi_plan_row_params(const memest_plan *pl, const plan_row *row, memest_params *p);
/* Copies the request's fixed inputs into pl and checks that the mode has
** what it needs (every missing input in one MEMEST_E_MISSING); *cols is
** the number of compare columns (plan_request.c). */
MEMEST_HIDDEN memest_code memi_plan_prepare(memest_plan *pl, const memest_plan_request *req,
                                       int *cols, memest_error *err);
/* Estimates the PLAN_PENDING rows among rows [from, to), in order
** (memi_plan_estimate.c); MEMEST_E_NOMEM if no scratch result fits. */
MEMEST_HIDDEN memest_code memi_plan_estimate(memest_plan *pl, const model_config *mc, int from,
                                        int to, memest_error *err);
/* w = W / F: the deferred expert weight-gradient share of the forward
** matmul FLOPs at sequence length seq (memi_plan_estimate.c). */
MEMEST_HIDDEN double memi_plan_expert_share(const model_config *mc, int64_t seq);
/* A plan of req on the parsed config mc, begun and finished in one call,
** for the core's own questions (the nearest layout, pp over whole nodes):
** cache, when not NULL, stays the caller's; with bare the rows get
** neither a routing margin nor a time (planner.c). */
MEMEST_HIDDEN memest_code memi_plan_run_parsed(const model_config *mc,
                                          const memest_plan_request *req, est_cache *cache,
                                          int bare, memest_plan **out, memest_error *err);
/* 1 when an EP group of ep consecutive ranks spans nodes of g GPUs on the
** trainer's row-major ("pp", "dp", "cp", "ep") mesh; 0 for g = 0, nodes
** not given (plan_dims.c). */
MEMEST_HIDDEN int memi_plan_ep_across(int64_t ep, int64_t g);
/* The greatest common divisor of a and b, for GPUs in whole nodes
** (plan_dims.c). */
MEMEST_HIDDEN int64_t memi_plan_gcd(int64_t a, int64_t b);
/* Estimates what is left, settles failed rows, sorts and picks the answer
** (planner.c); MEMEST_E_VALUE for a finished plan. */
MEMEST_HIDDEN memest_code memi_plan_conclude(memest_plan *plan, memest_error *err);
/* Frees the parsed config and the cache the rows shared (unless
** borrowed); the plan is finished (planner.c). */
MEMEST_HIDDEN void memi_plan_release(memest_plan *plan);
/* A finished vary-nodes plan's pp_nodes: the second sweep and why the two
** answers differ (plan_nodes.c); MEMEST_E_NOMEM only. */
MEMEST_HIDDEN memest_code memi_plan_pp_nodes(memest_plan *pl, memest_error *err);
/* Builds pl->variants from the option lists: their product for a plan,
** column by column for a compare (plan_request.c). */
MEMEST_HIDDEN memest_code memi_plan_variants(memest_plan *pl, const memest_plan_request *req,
                                        int cols, memest_error *err);

#endif /* MEMEST_PLAN_H */
