/*
** time.h — the time model: step time and tokens/s from the schedule's op
** sequence (sim/trace.c) replayed across the pipeline ranks with a
** duration for every op. The GPU table (hardware.c), the efficiency table
** (efficiency.c), each layer's and edge's costs (cost.c) and the step
** across ranks (step.c). Design note: docs/time-model.md.
*/
#ifndef MEMEST_TIME_H
#define MEMEST_TIME_H

#include "sim/rank.h"
#include "sim/result.h"

/* {======================================================================
** The GPU table (hardware.c): one row per GPU preset, each figure per GPU.
** ======================================================================= */
typedef struct gpu_hw {
  const char *name;          /* the --gpu preset */
  const char *title;
  double bf16_tflops;        /* dense (no 2:4 sparsity) */
  double fp8_tflops;         /* dense; 0: no FP8 tensor cores */
  double hbm_gb_per_s;
  double nvlink_gb_per_s;    /* one direction */
  double network_gbit_per_s; /* per GPU between nodes */
  int gpus_per_node;
  const char *source;        /* the datasheets the row is from */
} gpu_hw;

/* The row of preset `name`, or NULL. */
MEMEST_HIDDEN const gpu_hw *memi_gpu_hw(const char *name);
MEMEST_HIDDEN int memi_gpu_hw_count(void);
MEMEST_HIDDEN const gpu_hw *memi_gpu_hw_at(int i);
/* }====================================================================== */

/* {======================================================================
** The efficiency table (efficiency.c): achieved over peak, per kind of op.
** ======================================================================= */
enum {
  EFF_GEMM = 0,      /* dense projections, shared experts, dense MLPs (of BF16 peak) */
  EFF_LM_HEAD,       /* the output projection */
  EFF_ROUTER,        /* the router's narrow GEMM */
  EFF_EXPERTS,       /* grouped expert GEMMs at large rows per expert */
  EFF_EXPERT_ROWS,   /* rows per expert at which the grouped GEMM reaches half of it */
  EFF_ATTENTION,     /* the attention product at long sequences */
  EFF_ATTN_SEQ,      /* sequence length at which it reaches half of that */
  EFF_FP8,           /* FP8 GEMMs (of FP8 peak) */
  EFF_ELEMENTWISE,   /* norms, activations, rotary, permutes (of HBM bandwidth) */
  EFF_LOSS,          /* the fp32 cast and cross-entropy over the logits */
  EFF_OPTIMIZER,     /* AdamW (foreach) and the Muon update's elementwise part */
  EFF_NVLINK,        /* all-to-all and collectives inside a node (of NVLink) */
  EFF_NETWORK,       /* the same between nodes (of the network) */
  EFF_LAYER_US,      /* host and launch time of one layer's forward, microseconds */
  EFF_COUNT
};

typedef struct eff_row {
  const char *key;           /* as --efficiency names it */
  double value;
  double lo, hi;             /* accepted range of an override */
  const char *what;
  const char *source;
} eff_row;

MEMEST_HIDDEN const eff_row *memi_eff_row(int i);
/* The table with p->efficiency's overrides applied to e[EFF_COUNT];
** MEMEST_E_VALUE / MEMEST_E_UNKNOWN naming the override otherwise. */
MEMEST_HIDDEN memest_code memi_eff_resolve(const memest_params *p, double *e, memest_error *err);
/* }====================================================================== */

/* {======================================================================
** Costs (cost.c): seconds of each op kind of one module, per micro-batch.
** ======================================================================= */
typedef struct time_env {
  const model_config *mc;
  const layout *lo;
  const memest_params *p;
  gpu_hw hw;                 /* the GPU row, link overrides applied */
  double eff[EFF_COUNT];
  double flops_peak;         /* FLOP/s: BF16, or FP8 with deep-gemm */
} time_env;

/* One part of an op: compute (never hidden) and communication (hidden
** under the other half's compute in an overlapped F|B). */
typedef struct op_cost {
  double compute, comm;
} op_cost;

typedef struct module_cost {
  op_cost f;                 /* forward of one chunk */
  op_cost b;                 /* backward, expert weight grads included */
  op_cost b_zb;              /* backward with them deferred */
  op_cost w;                 /* the deferred expert weight grads */
  double p2p;                /* one activation or gradient transfer to a neighbour */
  double gather;             /* the module's FSDP all-gathers at its first forward */
  double model_flops;        /* F + B matmul FLOPs of one chunk (no recompute) */
} module_cost;

/* The costs of module m of pipeline rank `rank`. */
MEMEST_HIDDEN void memi_time_module_cost(const time_env *env, const rank_inv *ri, int m,
                                    module_cost *out);
/* The communication an overlapped F|B of forward cost f and backward cost
** b leaves exposed: what its compute does not hide. */
MEMEST_HIDDEN double memi_time_overlap_exposed(const module_cost *f, const module_cost *b);
/* The step end of one rank: reduce-scatters (and HSDP's all-reduce), the
** optimizer; seconds of each. */
MEMEST_HIDDEN void memi_time_step_end(const time_env *env, const rank_inv *ri, double *reduce,
                                 double *optimizer);
/* DualPipe's all-reduce of ri's gradient shards with pipeline rank peer,
** which holds the same stages in the other model copy; seconds (0 for
** peer -1). */
MEMEST_HIDDEN double memi_time_copy_reduce(const time_env *env, const rank_inv *ri,
                                      int64_t peer);
/* The link time of `bytes` leaving each of `group` ranks spaced `stride`
** apart in the trainer's mesh. */
MEMEST_HIDDEN double memi_time_link(const time_env *env, double bytes, int64_t group,
                               int64_t stride);
/* }====================================================================== */

/* {======================================================================
** The step (step.c).
** ======================================================================= */
typedef struct rank_time {
  int rank;
  double compute, exposed_comm, idle, step_end, optimizer;
  double end;                /* the rank's last op ends, seconds from the step's start */
} rank_time;

struct step_time {
  int known;                 /* 0: no GPU kind; note says why */
  char note[240];
  gpu_hw hw;
  double eff[EFF_COUNT];
  double step_seconds, tokens_per_second, tokens_per_second_per_gpu, mfu;
  double model_flops, bubble_fraction, exposed_comm_fraction;
  int critical_rank;
  int from_short;            /* 1: a long step found from three short replays */
  int n_ranks;
  rank_time *ranks;          /* every pipeline rank */
  /* The end of each kept timeline event's op: event_t[i][k] for the
  ** result's rank i and its event k (NULL where none is kept). */
  double **event_t;
  int n_event_ranks;
};

/* The step time of r's layout (r from memi_est_run), with the end time of
** each event r keeps. gpus_per_node 0: the GPU's. cache (or NULL) keeps
** the traces' buffers for the next estimate. (*out)->known is 0, with
** a note, when r's GPU has no row. *out is one block: free() frees it. */
MEMEST_HIDDEN memest_code memi_time_run(const memest_result *r, int64_t gpus_per_node,
                                   est_cache *cache, step_time **out, memest_error *err);
/* memi_time_run with the longest step replayed whole given: longer ones
** come from three short replays when the pipeline is in its steady regime
** (step.c); -1 for memi_time_run's, three times what those replays cost,
** about 60*pp + 384 micro-batches. The tests compare both ways. */
MEMEST_HIDDEN memest_code memi_time_run_with(const memest_result *r, int64_t gpus_per_node,
                                        int64_t whole_up_to, est_cache *cache, step_time **out,
                                        memest_error *err);
/* }====================================================================== */

#endif /* MEMEST_TIME_H */
