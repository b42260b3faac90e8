/*
** plan.h — what the planner's files share: the table of swept inputs, one
** plan's rows, the counted reasons for the layouts it dropped and the swept
** value lists. The files depend one way:
**   plan_dims.c      the table, and a row as estimate parameters
**   plan_request.c   the request (uses plan_dims.c)
**   memi_plan_estimate.c  the estimates of rows [from, to) (uses plan_dims.c)
**   planner.c        the sweep in pieces: begin, estimate, finish (uses
**                    the three above)
**   plan_report.c    JSON and text of a finished plan (uses plan_dims.c)
** Design note: docs/planner.md.
*/
#ifndef MEMEST_PLAN_H
#define MEMEST_PLAN_H

#include "result.h"

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
  memest_status status;
  int64_t peak, tensor_peak, headroom, capacity, chunks, nonpt, frag;
  double bubble;             /* pipeline bubble over the step (planner.c) */
  int worst_rank;
  comp_vec comps;            /* the worst rank's components at its peak */
  memest_routing_info routing;  /* the row's routing margin (routing.c) */
  int fail;                  /* PLAN_PENDING until estimated, then a memest_code */
  memest_error *fail_err;    /* owned: why the estimate failed, or NULL */
} plan_row;

#define PLAN_PENDING (-1)

#define PLAN_REASONS_MAX 24
#define PLAN_NOTE_CHARS 768   /* sizeof memest_error.message */

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
  model_config *mc;          /* owned from begin until finish */
  est_cache *cache;          /* layer programs its rows share, begin to finish */
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
/* Builds pl->variants from the option lists: their product for a plan,
** column by column for a compare (plan_request.c). */
MEMEST_HIDDEN memest_code memi_plan_variants(memest_plan *pl, const memest_plan_request *req,
                                        int cols, memest_error *err);

#endif /* MEMEST_PLAN_H */
