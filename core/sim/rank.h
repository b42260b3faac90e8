/*
** rank.h — one pipeline rank in the simulator: its parameter inventory
** (inventory.c), the event programs of its layers (layer.c, shared through
** a prog_cache), the memoised op evaluation (ops.c), and its state, events
** and peak (rank.c), which the schedule replay (replay.c) and the step end
** (stepend.c) drive. Data flows one way:
** layout -> inventory -> layer programs -> ops -> replay -> result.
** Design note: docs/design.md.
*/
#ifndef MEMEST_RANK_H
#define MEMEST_RANK_H

#include "sim/layout.h"
#include "sim/timeline.h"

/* {======================================================================
** Inventory (inventory.c): parameters of one pipeline rank, per FSDP group.
** ======================================================================= */
typedef struct group_sizes {
  int64_t w;                 /* shard degree */
  int64_t sh, un, full;      /* elements: local shard, all-gather output, full */
  int64_t rs_in;             /* reduce-scatter input elements (with grad) */
  int64_t sh_grad, full_grad;
  int64_t full_deferred;     /* expert GEMM weights whose wgrad is deferred */
  int64_t sh_muon, sh_adam;  /* sharded elements by optimizer (with grad) */
  int64_t fp8_cache;         /* bytes of FP8 weight caches (FP8 on) */
  int first, count;          /* slice of rank_inv.params */
} group_sizes;

typedef struct rank_param {
  param_desc p;
  int64_t w;
  int group;                 /* index into rank_inv.groups */
} rank_param;

enum { G_LAYER = 0, G_EXPERTS = 1, G_EMBED = 2, G_HEAD = 3 };

typedef struct rank_group {
  int kind;                  /* G_* */
  int module;                /* the rank's module (model chunk) it belongs to */
  int layer;                 /* global layer index, -1 for edges */
  group_sizes g;
} rank_group;

/* Which transfers a module makes (from the stage map): a neighbouring
** stage on another rank sends and receives; one on the same rank (the
** last DualPipeV rank's hand-off) or none at the pipeline's ends does not. */
enum {
  LINK_RECV_F = 1,           /* receives its input: the previous stage is elsewhere */
  LINK_SEND_F = 2,           /* sends its output: the next stage is elsewhere */
  LINK_DY = 4                /* its backward has an output grad (not the last stage) */
};

typedef struct module_inv {
  int stage;                 /* its stage in its chain */
  int chain, position;       /* the chain (DualPipe's copy), and chain * stages + stage */
  int first_layer, n_layers;
  int stage0, last_stage;    /* owns embed_tokens / norm and lm_head */
  int link;                  /* LINK_*: the transfers it makes */
  int first_group;           /* groups of this module, in FSDP order */
  int n_groups;
  int64_t params;            /* parameters held (local experts) */
} module_inv;

typedef struct rank_inv {
  int rank;
  module_inv mod[MEMEST_MAX_MODULES];  /* lo->modules of them */
  int n_mod;
  rank_group *groups;
  int n_groups;
  rank_param *params;
  int n_params;
  int cap_groups, cap_params;           /* allocated, reused by the next build */
  int64_t sh_total, sh_muon, sh_adam;   /* elements, params with grad */
  int64_t master_bytes, opt_state_bytes, fp8_cache_bytes;
} rank_inv;

/* Fills ri, reusing the arrays it already holds (zero ri before the first
** build). */
MEMEST_HIDDEN memest_code memi_inv_build(const model_config *mc, const layout *lo,
                                    const memest_params *p, int rank, rank_inv *ri,
                                    memest_error *err);
MEMEST_HIDDEN void memi_inv_free(rank_inv *ri);
/* Parameters of the whole model (all experts), as the trainer builds it. */
MEMEST_HIDDEN int64_t memi_inv_model_parameters(const model_config *mc, int *ovf);
/* }====================================================================== */

/* {======================================================================
** Layer programs (layer.c): ordered alloc/free events per stage function.
** A program depends only on the model, the layer's kind (its attention
** kind and whether it is dense), the run_dims other than dp and pp, and
** its groups' gradient sizes; a prog_cache shares it between every layer,
** rank and estimate with the same.
** ======================================================================= */
enum {
  ST_F1 = 0, ST_F2, ST_F3, ST_F4, ST_F5,      /* forward stage functions */
  ST_B5, ST_B4, ST_B3I, ST_B3D, ST_B2, ST_B1,  /* backward; B3I immediate, B3D deferred */
  ST_BCLR,                                     /* record clear */
  ST_COUNT
};

enum {
  EVK_DELTA = 0,   /* d bytes on comp */
  EVK_UNSHARD_L,   /* first forward in the step: all-gather the layer group */
  EVK_UNSHARD_X,   /* ... and the experts group */
  EVK_WGRAD_IMM,   /* d bytes of immediate expert wgrad, awaiting the fold */
  EVK_PGRAD_L,     /* d bytes of layer-group bf16 grads, awaiting the fold */
  EVK_FOLD_X,      /* FSDP post-backward of the experts group */
  EVK_FOLD_L,      /* FSDP post-backward of the layer group */
  EVK_HOUT_FREE,   /* the layer output (kept unless sent earlier) */
  EVK_DY_FREE,     /* the layer's output grad (a P2P buffer on a top layer) */
  EVK_RUN          /* consecutive EVK_DELTA events summed: runs[d] */
};

typedef struct prog_ev {
  int64_t d;
  unsigned char comp, kind;
  const char *label;
} prog_ev;

#define RUN_COMPS 4

/* Consecutive EVK_DELTA events of a stage as one step: their sum per
** component, and their highest running sum with what it holds. */
typedef struct prog_run {
  int64_t peak;              /* highest running change, first reached at `label` */
  int64_t net_total;
  uint64_t reach;            /* sum of |d| */
  const char *label;
  int first, count;          /* the events in st[stage] */
  int n;                     /* components touched */
  unsigned char comp[RUN_COMPS];
  int64_t net[RUN_COMPS];    /* change of each */
  int64_t at[RUN_COMPS];     /* change of each at the peak */
} prog_run;

typedef struct layer_prog {
  const char *kind;
  int moe;
  prog_ev *st[ST_COUNT];     /* every event, in order */
  int n[ST_COUNT];
  prog_ev *fast[ST_COUNT];   /* the same with delta runs summed (EVK_RUN) */
  int n_fast[ST_COUNT];
  prog_run *runs;
  int64_t retained;          /* bytes kept per chunk once forward is done */
  int64_t h_out;             /* m * H * 2 */
  int64_t capture;           /* bytes a deferred wgrad batch keeps */
  int64_t wgrad[3];          /* bf16 wgrad of each deferred projection */
  int n_wgrad;
  tensor_row detail[48];     /* saved tensors, for --detail */
  int n_detail;
} layer_prog;

typedef struct prog_builder prog_builder;
typedef struct prog_entry prog_entry;

/* Layer programs by shape, for one model at a time. Zero it to start. */
typedef struct prog_cache {
  model_config mc;           /* the model its programs belong to */
  int bound;                 /* mc is set */
  prog_entry *slots;         /* open addressing, cap a power of two */
  int n, cap;
  prog_builder *builder;     /* scratch for the next build */
} prog_cache;

/* Drops the programs unless they belong to mc, and all of them when there
** are too many; call before taking any program for a rank. */
MEMEST_HIDDEN void memi_lay_cache_bind(prog_cache *c, const model_config *mc);
MEMEST_HIDDEN void memi_lay_cache_free(prog_cache *c);
/* The program of global layer `layer`, whose groups are lg and xg (xg NULL
** for a dense layer): found in c, or built and kept there. */
MEMEST_HIDDEN memest_code memi_lay_get(prog_cache *c, const model_config *mc, const layout *lo,
                                  const rank_inv *ri, int layer, const rank_group *lg,
                                  const rank_group *xg, const layer_prog **out,
                                  memest_error *err);
/* Builds one program outside any cache (builder may be NULL); memi_lay_free
** releases its events. */
MEMEST_HIDDEN memest_code memi_lay_build(const model_config *mc, const layout *lo,
                                    const rank_inv *ri, int layer, const rank_group *lg,
                                    const rank_group *xg, layer_prog *lp, memest_error *err);
MEMEST_HIDDEN void memi_lay_free(layer_prog *lp);
/* }====================================================================== */

/* {======================================================================
** Ops (ops.c): one F, B, F|B or W evaluated against the rank's state.
** ======================================================================= */
/* State flags of each module (sim_flags.mod) and of the edge groups
** (sim_flags.edge). FSDP2 runs a module's forward hooks only until its
** first backward of the step (docs/model.md, FSDP state): SF_BWD marks that
** backward, after which the module's forwards neither gather nor reshard
** and its chunks carry no post-backward fold, so their grads stay in bf16
** .grad (SF_PENDING* for expert weights, SF_GRAD16_* for the rest). */
#define SF_UNSHARDED 0x01u     /* layer and expert groups all-gathered */
#define SF_ACCUM_L 0x02u       /* layer groups' fp32 accumulators */
#define SF_ACCUM_X 0x04u       /* experts groups' fp32 accumulators (layers above 0) */
#define SF_ACCUM_X0 0x08u      /* ... layer 0's */
#define SF_PENDING 0x10u       /* experts' bf16 .grad (layers above 0) */
#define SF_PENDING0 0x20u      /* ... layer 0's */
#define SF_GRAD16_L 0x40u      /* layer groups' bf16 .grad */
#define SF_BWD 0x80u           /* the module's first backward has run */
#define SF_MOD_BITS 8
#define SF_EMBED_RES 0x01u     /* embed_tokens unsharded */
#define SF_HEAD_RES 0x02u      /* norm and lm_head unsharded */
#define SF_GRAD16_EMB 0x04u    /* embed_tokens' bf16 .grad (never folded) */
#define SF_ACCUM_HEAD 0x08u    /* norm and lm_head fp32 accumulators */
#define SF_GRAD16_HEAD 0x10u   /* norm and lm_head bf16 .grad */
#define SF_EDGE_BITS 5

typedef struct sim_flags {
  unsigned mod[MEMEST_MAX_MODULES];  /* SF_UNSHARDED..SF_BWD of each module */
  unsigned edge;                     /* SF_EMBED_RES..SF_GRAD16_HEAD */
} sim_flags;

typedef struct op_result {
  comp_vec net;              /* change over the op */
  comp_vec at_peak;          /* change at the op's inner peak */
  int64_t peak;              /* inner peak over the starting total */
  int64_t net_total;         /* sum of net */
  const char *label;         /* what happened at the inner peak */
  sim_flags flags_after;
} op_result;

typedef struct sim_rank sim_rank;

/* What an op can change: equal before and after an iteration of a
** schedule's loop means every later iteration repeats it (replay.c). */
typedef struct sim_state {
  comp_vec cur;
  int64_t total, commit_act, commit_p2p;
  sim_flags flags;
  int live[MEMEST_MAX_MODULES];
  int wgs_head, wgs_tail;
} sim_state;

/* Evaluates (or recalls) op `kind` with forward module pf, backward module
** pb, the zero-bubble flag and whether the backward's chunk carries FSDP's
** post-backward hooks (it was forwarded before its module's first backward)
** from state `flags`. */
MEMEST_HIDDEN const op_result *memi_op_eval(sim_rank *sr, int kind, int pf, int pb, int zb,
                                       int hooked, const sim_flags *flags);
/* }====================================================================== */

/* {======================================================================
** The rank (rank.c): its layers, state, events and peak; replay.c and
** stepend.c drive it through one step.
** ======================================================================= */
#define MEMO_SLOTS 64          /* a rank has at most ~32 distinct ops */
#define WGS_QUEUE_CAP (4 * MEMEST_MAX_PP + 8)


typedef struct memo_slot {
  uint64_t key;
  int used;
  op_result r;
} memo_slot;

/* One decoder layer of a module: its program, groups and place. */
typedef struct rank_layer {
  const layer_prog *prog;
  const rank_group *lg, *xg; /* its layer and experts groups (xg NULL: dense) */
  int layer;                 /* global index */
  int same_as_prev;          /* program and groups equal the previous layer's */
} rank_layer;

struct sim_rank {
  const model_config *mc;
  const layout *lo;
  const memest_params *params;
  rank_inv inv;
  prog_cache *cache;         /* where the layer programs live */
  prog_cache own;            /* the cache when the caller gives none */
  int plain;                 /* set by a caller before init: every layer takes
                             ** its program by its own key and every op walks
                             ** layer by layer (the reference the tests use) */
  int immediate_wgrad;       /* set by a caller before init: expert weight
                             ** grads are never deferred, as in the trainer
                             ** before 287070f (docs/model.md, Trainer versions) */
  rank_layer *layers[MEMEST_MAX_MODULES];  /* the layers of each module */
  int cap_layers[MEMEST_MAX_MODULES];
  int64_t mH;                /* P2P tensor bytes: b * s * H * 2 */
  int64_t cossin;            /* per-chunk cos/sin copies */
  memo_slot memo[MEMO_SLOTS];
  int ovf;
  /* replay state */
  comp_vec cur;
  int64_t total;
  sim_flags flags;
  int live[MEMEST_MAX_MODULES];
  int64_t commit_act, commit_p2p;
  int64_t next_f[MEMEST_MAX_MODULES], next_b[MEMEST_MAX_MODULES];  /* chunk ids */
  int64_t hooked[MEMEST_MAX_MODULES];  /* chunks of each module forwarded
                             ** before its first backward (INT64_MAX until it) */
  int wgs_queue[WGS_QUEUE_CAP];  /* modules of the backwards whose W is due */
  int wgs_head, wgs_tail;
  /* results */
  int max_live;              /* the most chunks in flight over its modules at once */
  int64_t peak;
  comp_vec at_peak;
  tl_event peak_ev;
  int64_t n_events;
  int64_t peak_index;
  /* timeline window */
  int keep_timeline;
  int64_t tl_from, tl_to;    /* events [from, to) are kept */
  tl_event *tl;
  int64_t n_tl;
  /* trace mode (trace.c): ops are recorded here, no memory is replayed */
  struct sched_trace *trace;
  int trace_nomem;
};

/* Sets sr up for one rank, its layer programs taken from cache (NULL: the
** rank keeps its own). sr is zeroed before its first use and may then be
** reused for any number of ranks; memi_sim_rank_free releases it. */
MEMEST_HIDDEN memest_code memi_sim_rank_init(sim_rank *sr, const model_config *mc, const layout *lo,
                                        const memest_params *p, int rank, prog_cache *cache,
                                        memest_error *err);
MEMEST_HIDDEN void memi_sim_rank_free(sim_rank *sr);
/* The state at the start of the step: nothing allocated, no peak yet. */
MEMEST_HIDDEN void memi_sim_reset(sim_rank *sr);
/* Applies a change to the state, without a peak check. */
MEMEST_HIDDEN void memi_sim_apply(sim_rank *sr, comp c, int64_t delta);
/* Applies a change inside event ev, tracking ev's peak and the rank's. */
MEMEST_HIDDEN void memi_sim_change(sim_rank *sr, tl_event *ev, comp c, int64_t delta,
                              const char *label);
/* Records a candidate peak of the whole step: value, reached with at, in ev. */
MEMEST_HIDDEN void memi_sim_note_peak(sim_rank *sr, int64_t value, const comp_vec *at,
                                 const tl_event *ev);
/* Whether the next event falls in the kept timeline window. */
MEMEST_HIDDEN int memi_sim_keeps_event(const sim_rank *sr);
/* Applies an evaluated op inside ev: its inner peak, net change and flags. */
MEMEST_HIDDEN void memi_sim_apply_op(sim_rank *sr, tl_event *ev, const op_result *res);
/* Records one event (ev's total and live chunks are filled in). */
MEMEST_HIDDEN void memi_sim_event(sim_rank *sr, tl_event *ev);
/* Runs the whole step (replay.c); records the peak and the timeline window. */
MEMEST_HIDDEN memest_code memi_sim_rank_run(sim_rank *sr, memest_error *err);
/* The step end (stepend.c): FSDP fold and reduce-scatter, then the optimizer step. */
MEMEST_HIDDEN void memi_stepend_run(sim_rank *sr);
/* }====================================================================== */

#endif /* MEMEST_RANK_H */
