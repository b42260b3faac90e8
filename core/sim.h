/*
** sim.h — the simulator's internal types: the derived layout of one
** estimate, the per-rank parameter inventory, per-layer event programs,
** the memoised op evaluation and the schedule replay. Data flows one way:
** layout -> inventory -> layer programs -> ops -> replay -> result.
** Design note: docs/design.md.
*/
#ifndef MEMEST_SIM_H
#define MEMEST_SIM_H

#include "model.h"

/* {======================================================================
** Layout (layout.c): validated inputs and the derived sizes.
** ======================================================================= */
typedef struct layout {
  int64_t pp, ep, cp, dp, world;
  int64_t mbs, gbs, seq;
  int64_t chunks;            /* N = gbs / (mbs * dp * ep) */
  int64_t w_x, w_o;          /* shard degrees of expert / other parameters */
  int64_t capacity;          /* GPU bytes */
  int stages;                /* 2 * pp */
  int stage_first[2 * MEMEST_MAX_PP + 1];  /* first layer of each stage; [stages] = L */
  run_dims d;
} layout;

MEMEST_HIDDEN memest_code layout_build(const model_config *mc, const memest_params *p,
                                       layout *lo, memest_error *err);
/* Adds every problem with the inputs to errs (up to max); returns the count. */
MEMEST_HIDDEN int layout_problems(const model_config *mc, const memest_params *p,
                                  memest_error *errs, int max);
MEMEST_HIDDEN int64_t layout_capacity(const memest_params *p);
/* Layers of stage i when L layers are split over n stages (spec §2.1). */
MEMEST_HIDDEN void layout_partition(int64_t layers, int stages, int *first);
/* }====================================================================== */

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
  int module;                /* 0 or 1 */
  int layer;                 /* global layer index, -1 for edges */
  group_sizes g;
} rank_group;

typedef struct module_inv {
  int stage;
  int first_layer, n_layers;
  int stage0, last_stage;    /* owns embed_tokens / norm and lm_head */
  int first_group;           /* groups of this module, in FSDP order */
  int n_groups;
  int64_t params;            /* parameters held (local experts) */
} module_inv;

typedef struct rank_inv {
  int rank;
  module_inv mod[2];
  rank_group *groups;
  int n_groups;
  rank_param *params;
  int n_params;
  int64_t sh_total, sh_muon, sh_adam;   /* elements, params with grad */
  int64_t master_bytes, opt_state_bytes, fp8_cache_bytes;
} rank_inv;

MEMEST_HIDDEN memest_code inv_build(const model_config *mc, const layout *lo,
                                    const memest_params *p, int rank, rank_inv *ri,
                                    memest_error *err);
MEMEST_HIDDEN void inv_free(rank_inv *ri);
/* Parameters of the whole model (all experts), as the trainer builds it. */
MEMEST_HIDDEN int64_t inv_model_parameters(const model_config *mc, int *ovf);
/* }====================================================================== */

/* {======================================================================
** Layer programs (layer.c): ordered alloc/free events per stage function.
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
  EVK_DY_FREE      /* the layer's output grad (a P2P buffer on a top layer) */
};

typedef struct prog_ev {
  int64_t d;
  unsigned char comp, kind;
  const char *label;
} prog_ev;

typedef struct layer_prog {
  int layer;                 /* global index */
  const char *kind;
  int moe;
  prog_ev *st[ST_COUNT];
  int n[ST_COUNT];
  int64_t retained;          /* bytes kept per chunk once forward is done */
  int64_t h_out;             /* m * H * 2 */
  int64_t capture;           /* bytes a deferred wgrad batch keeps */
  int64_t wgrad[3];          /* bf16 wgrad of each deferred projection */
  int n_wgrad;
  tensor_row detail[48];     /* saved tensors, for --detail */
  int n_detail;
} layer_prog;

MEMEST_HIDDEN memest_code lay_build(const model_config *mc, const layout *lo,
                                    const rank_inv *ri, int layer, const rank_group *lg,
                                    const rank_group *xg, layer_prog *lp, memest_error *err);
MEMEST_HIDDEN void lay_free(layer_prog *lp);
/* }====================================================================== */

/* {======================================================================
** Ops (ops.c): one F, B, F|B or W evaluated against the rank's state.
** ======================================================================= */
enum { OP_F = 0, OP_B = 1, OP_FB = 2, OP_W = 3 };

/* State flags: per module (shift 8*module) and global. */
#define SF_UNSHARDED 0x01u
#define SF_ACCUM_L 0x02u
#define SF_ACCUM_X 0x04u
#define SF_ACCUM_X0 0x08u
#define SF_PENDING 0x10u
#define SF_PENDING0 0x20u
#define SF_EMBED_RES 0x10000u
#define SF_HEAD_RES 0x20000u
#define SF_ACCUM_EMB 0x40000u
#define SF_ACCUM_HEAD 0x80000u
#define SF_MOD(flag, module) ((flag) << (8 * (module)))

typedef struct op_result {
  comp_vec net;              /* change over the op */
  comp_vec at_peak;          /* change at the op's inner peak */
  int64_t peak;              /* inner peak over the starting total */
  int64_t net_total;         /* sum of net */
  const char *label;         /* what happened at the inner peak */
  unsigned flags_after;
} op_result;

typedef struct sim_rank sim_rank;

/* Evaluates (or recalls) op `kind` with forward phase pf, backward phase
** pb and the zero-bubble flag from state `flags`. */
MEMEST_HIDDEN const op_result *op_eval(sim_rank *sr, int kind, int pf, int pb, int zb,
                                       unsigned flags);
/* }====================================================================== */

/* {======================================================================
** Replay (replay.c, stepend.c): one rank through the schedule.
** ======================================================================= */
typedef struct tl_event {
  int step;                  /* 1..8, 9 = step end, 10 = optimizer */
  int kind;                  /* OP_* or a step-end kind */
  int iter;
  int pf, pb;                /* phases */
  int64_t cf, cb;            /* chunk ids */
  const char *what;          /* inner label */
  int64_t total, peak;
  int live[2];
  comp_vec at_peak;
} tl_event;

#define MEMO_SLOTS 64          /* a rank has at most ~32 distinct ops */

typedef struct memo_slot {
  uint32_t key;
  int used;
  op_result r;
} memo_slot;

struct sim_rank {
  const model_config *mc;
  const layout *lo;
  const memest_params *params;
  rank_inv inv;
  layer_prog *progs[2];      /* layer programs of each module */
  int64_t mH;                /* P2P tensor bytes: b * s * H * 2 */
  int64_t cossin;            /* per-chunk cos/sin copies */
  int64_t edge_embed_un, edge_head_un;
  memo_slot memo[MEMO_SLOTS];
  int ovf;
  /* replay state */
  comp_vec cur;
  int64_t total;
  unsigned flags;
  int live[2];
  int64_t commit_act, commit_p2p;
  int wgs_queue[4 * MEMEST_MAX_PP + 8];
  int wgs_head, wgs_tail;
  /* results */
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
};

MEMEST_HIDDEN memest_code sim_rank_init(sim_rank *sr, const model_config *mc, const layout *lo,
                                        const memest_params *p, int rank, memest_error *err);
MEMEST_HIDDEN void sim_rank_free(sim_rank *sr);
/* Runs the whole step; records the peak and the timeline window. */
MEMEST_HIDDEN memest_code sim_rank_run(sim_rank *sr, memest_error *err);
/* Records one event; used by replay.c and stepend.c. */
MEMEST_HIDDEN void sim_event(sim_rank *sr, tl_event *ev);
/* The step end: FSDP fold and reduce-scatter, then the optimizer step. */
MEMEST_HIDDEN void stepend_run(sim_rank *sr);
/* Applies a change to the replay state and returns the new total. */
MEMEST_HIDDEN void sim_apply(sim_rank *sr, comp c, int64_t delta);
/* }====================================================================== */

/* {======================================================================
** The result (estimate.c) and what reads it (report_*.c, advice.c).
** ======================================================================= */
typedef struct rank_result {
  int rank;
  int stages[2];
  int layers[2];
  int64_t params[2];
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

struct memest_result {
  memest_params params;
  model_config mc;
  layout lo;
  int64_t model_params;
  int64_t nonpt_parts[5];
  int64_t nonpt;
  rank_result *ranks;
  int n_ranks;
  int worst;
  int64_t peak, tensor_peak, capacity, headroom;
  memest_status status;
  char warnings[8][400];
  int n_warnings;
  suggestion sugg[8];
  int n_sugg;
  memest_routing_info routing;  /* the routing and its margin (routing.c) */
};

MEMEST_HIDDEN memest_code est_run(const model_config *mc, const memest_params *p,
                                  memest_result *r, int with_advice, memest_error *err);
MEMEST_HIDDEN void advice_build(memest_result *r);
/* Frees what a result owns, but not the result itself. */
MEMEST_HIDDEN void est_release(memest_result *r);
MEMEST_HIDDEN void nonpt_parts(const layout *lo, int64_t parts[5]);
MEMEST_HIDDEN const char *tl_describe(const tl_event *e, char *buf, size_t size);
MEMEST_HIDDEN const char *peak_label(const tl_event *e, char *buf, size_t size);
MEMEST_HIDDEN const char *status_name(memest_status s);
/* }====================================================================== */

#endif /* MEMEST_SIM_H */
