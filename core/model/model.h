/*
** model.h — what an architecture file provides: the parsed config, its
** per-layer parameter inventory and its per-layer saved tensors. The
** schedule, FSDP and report code see architectures only through arch_ops.
** Design note: docs/model.md ("Architectures").
*/
#ifndef MEMEST_MODEL_H
#define MEMEST_MODEL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/internal.h"

/* Attention kind of one decoder layer. */
enum { ATTN_FULL = 0, ATTN_SLIDING = 1, ATTN_LINEAR = 2 };

struct arch_ops;

/* A parsed HuggingFace config: the keys the trainer reads, per family. */
typedef struct model_config {
  const struct arch_ops *arch;
  char model_type[48];
  int64_t hidden, heads, kv_heads, head_dim, layers, vocab;
  int64_t experts, top_k, moe_inter, dense_inter, shared_inter, n_shared;
  int attention_bias, norm_topk_prob;
  /* DeepSeek multi-head latent attention */
  int64_t q_lora_rank, kv_lora_rank, qk_nope, qk_rope, v_head, first_k_dense;
  /* Qwen3.5 Gated DeltaNet */
  int64_t lin_k_heads, lin_v_heads, lin_k_dim, lin_v_dim, conv_kernel, full_interval;
  double partial_rotary;
  int64_t rotary_dim;       /* generic: a rotary width given outright (MiniMax), else 0 */
  int64_t sliding_window, mtp_layers;
  unsigned char layer_attn[MEMEST_MAX_LAYERS];   /* ATTN_* per layer */
  unsigned char layer_dense[MEMEST_MAX_LAYERS];  /* 1: dense MLP, no experts */
  char warnings[8][320];
  int n_warnings;
  int more_warnings;   /* memi_cfg_warn calls past the array: counted, reported as a number */
  /* Generic family (arch_generic.c): q/k norms (QK_*), an o_proj bias,
  ** Qwen2-MoE's sigmoid gate on the shared expert, and Snowflake Arctic's
  ** residual MLP as the shared expert, with its own RMSNorm before it. */
  int qk_norm, bias_o, shared_gate, shared_norm;
  /* JetMoE's attention experts: each routed expert holds a query and an
  ** output projection of num_key_value_heads x kv_channels, with k and v
  ** one shared projection; its attention and its experts each add a bias. */
  int attention_experts;
  int64_t max_positions;    /* max_position_embeddings, 0 if absent */
  /* tie_word_embeddings: the config's model shares embed_tokens with
  ** lm_head; the trainer builds lm_head apart all the same (memory-model.md §2.1). */
  int tied_embeddings;
  /* Top-level keys of the config as read (config_keys.c): NUL-separated
  ** names in order, how many of each, and 1 if a list was cut short. */
  char keys_read[1024], keys_defaulted[512], keys_ignored[1024];
  int n_keys_read, n_keys_defaulted, n_keys_ignored, keys_truncated;
} model_config;

/* q/k normalisation of the generic family. */
enum { QK_NONE = 0, QK_HEAD = 1, QK_FULL = 2, QK_L2 = 3 };

/* One parameter tensor. FSDP shards dim 0. */
typedef struct param_desc {
  const char *name;
  int64_t d[3];          /* shape; unused trailing dims are 1 */
  unsigned char ndim;
  unsigned char expert;  /* inside mlp.experts: sharded over W_x */
  unsigned char muon;    /* Muon under make_muon_optimizer, else AdamW */
  unsigned char grad;    /* receives a gradient (gpt-oss sinks do not) */
  unsigned char deferred;/* expert GEMM weight: wgrad deferred to W */
  unsigned char fp8;     /* FP8 weight cache when FP8 training is on */
} param_desc;

#define PARAMS_PER_LAYER_MAX 32

typedef struct param_list {
  param_desc p[PARAMS_PER_LAYER_MAX];
  int n;
  int dropped;   /* memi_params_add calls past PARAMS_PER_LAYER_MAX: an error, never used */
} param_list;

/* A saved or transient tensor, for the simulator and for --detail. */
typedef struct tensor_row {
  const char *name;
  const char *shape;     /* human-readable shape, static text */
  int64_t bytes;
  char tag;              /* 'R' record, 'S' eager op, 'C' compiled region */
  unsigned char captured;/* expert rows: kept by a deferred wgrad closure */
} tensor_row;

#define ROWS_MAX 24

typedef struct row_list {
  tensor_row r[ROWS_MAX];
  int n;
} row_list;

/* Sizes of one estimate that every layer plan needs (memory-model.md §4.1). */
typedef struct run_dims {
  int64_t b, s, m;          /* micro batch, local sequence, tokens per chunk */
  int64_t cp, ep, dp, pp;
  int64_t e_loc;            /* experts per rank */
  int64_t top_k;
  int64_t n_in;             /* routed (token, local expert) rows */
  int64_t m_act;            /* grouped-GEMM rows */
  int64_t r_rows;           /* scatter buffer rows */
  int64_t d_s, d_r;         /* dedup rows sent / received */
  int64_t combine_rows;     /* A(m*k) */
  int64_t routing_milli;    /* routing factor x 1000 */
  int fp8;
  int ovf;                  /* sticky overflow flag */
} run_dims;

/* Per-layer tensors, as an architecture describes them. The generic MoE
** and dense blocks in layer.c add what every layer shares. */
typedef struct layer_plan {
  const char *kind;         /* "MoE", "dense MLP", ... */
  int moe;                  /* routed experts; else a dense MLP */
  int64_t mlp_inter;        /* expert width I, or the dense MLP width */
  row_list s1;              /* saved by stage 1; freed by its backward */
  int64_t s1_fwd_scratch;   /* stage-1 forward transient above s1 */
  int64_t s1_bwd_scratch;   /* stage-1 backward transient */
  row_list s3;              /* saved by the expert / MLP ops */
  int64_t s3_fwd_scratch;   /* expert forward transient beyond the generic */
  int ovf;                  /* sticky overflow flag */
} layer_plan;

typedef struct arch_ops {
  const char *model_type;   /* top-level model_type, e.g. "qwen3_moe" */
  const char *title;        /* e.g. "Qwen3-MoE" */
  /* The HF class its configs' `architectures` names, e.g.
  ** "Qwen3MoeForCausalLM": how a config of another model_type built on the
  ** same class is read (config.c). "" for none. */
  const char *hf_class;
  int supports_cp;
  /* Reads the family's keys from the config into mc. */
  memest_code (*read)(const cJSON *root, model_config *mc, memest_error *err);
  /* Both read a layer only through its kind (layer_same_kind) and read no
  ** run_dims' dp or pp: layers of one kind share their program and
  ** inventory (layer.c, inventory.c, rank.c).
  ** Appends layer `layer`'s parameters (experts with e_loc rows). */
  void (*layer_params)(const model_config *mc, int layer, int64_t e_loc, param_list *out);
  /* Describes layer `layer`'s saved tensors for one estimate. */
  void (*layer_plan)(const model_config *mc, const run_dims *d, int layer, layer_plan *lp);
  /* Width of the rotary cos/sin tables. */
  int64_t (*rotary_dim)(const model_config *mc);
  /* Whether forward_posemb gathers a per-chunk cos/sin copy. */
  int posemb_copies;
  /* Keys the family's trainer does not read and that do not change the
  ** model it builds (config_keys.c names every other unread key); NULL or
  ** a NULL-terminated list. */
  const char *const *quiet;
} arch_ops;

/* Whether layers a and b are of one kind: all that an architecture's
** layer_params and layer_plan may read of a layer. A new per-layer key
** belongs here (and in layer.c's prog_key). */
static inline int layer_same_kind(const model_config *mc, int a, int b) {
  return mc->layer_attn[a] == mc->layer_attn[b] && mc->layer_dense[a] == mc->layer_dense[b];
}

/* {======================================================================
** config_text.c, config.c, config_keys.c: a config's text and its keys,
** for any family. They call nothing below.
** ======================================================================= */
/* config_text.c: the bytes as Python's json reads them */
MEMEST_HIDDEN memest_code memi_cfg_text_prepare(const char *text, size_t len, char **out,
                                           memest_error *err);
MEMEST_HIDDEN memest_code memi_cfg_text_resolve(cJSON *node, model_config *mc, memest_error *err);
/* config.c: zeroes mc and parses text into *root, a JSON object with its
** repeated keys resolved (free it with cJSON_Delete); NULL on error. */
MEMEST_HIDDEN memest_code memi_cfg_open(const char *text, size_t len, model_config *mc,
                                        cJSON **root, memest_error *err);
/* "a string", "an array", ...: a value's JSON type for messages. */
MEMEST_HIDDEN const char *memi_cfg_type_name(const cJSON *v);
MEMEST_HIDDEN memest_code memi_cfg_int(const cJSON *root, const char *key, int required,
                                  int64_t dflt, int64_t lo, int64_t hi, const char *limit, int64_t *out,
                                  memest_error *err);
MEMEST_HIDDEN memest_code memi_cfg_bool(const cJSON *root, const char *key, int dflt, int *out,
                                   memest_error *err);
MEMEST_HIDDEN memest_code memi_cfg_num(const cJSON *root, const char *key, double dflt, double lo,
                                  double hi, double *out, memest_error *err);
/* One key of a family, as a row of its table (params.c reads the inputs
** the same way): memi_cfg_read_keys reads a table's rows in order. */
typedef enum cfg_kind { CK_INT, CK_BOOL } cfg_kind;
/* What a key that is missing (or null) stands for. */
typedef enum cfg_from {
  CF_REQUIRED,   /* nothing: refused, naming the key */
  CF_VALUE,      /* dflt */
  CF_FIELD,      /* the int64_t field of model_config at offset dflt, read before */
  CF_PER_HEAD,   /* hidden_size / num_attention_heads */
  CF_NONE        /* 0: the part it counts is absent (lo applies to given values) */
} cfg_from;
/* The largest value a key may take: a limit of bounds.h (config.c names them). */
typedef enum cfg_bound {
  CB_HIDDEN, CB_HEADS, CB_HEAD_DIM, CB_LAYERS, CB_VOCAB, CB_EXPERTS, CB_TOP_K,
  CB_INTERMEDIATE, CB_SHARED_EXPERTS, CB_CONV_KERNEL, CB_SEQUENCE, CB_POSITIONS, CB_BOOL
} cfg_bound;
#define CFG_SPELLINGS 4
typedef struct cfg_key {
  /* The key's spellings, the HuggingFace name first: the first the config
  ** gives is read, and another it gives must hold the same value. */
  const char *names[CFG_SPELLINGS];
  unsigned short field; /* offsetof(model_config, ...): int64_t for CK_INT, int for CK_BOOL */
  unsigned char kind;   /* cfg_kind */
  unsigned char from;   /* cfg_from */
  int32_t dflt;         /* CF_VALUE: the value (CK_BOOL: 0 or 1); CF_FIELD: an offset */
  int32_t lo;           /* CK_INT: the smallest value given */
  unsigned char hi;     /* cfg_bound */
  /* 1: a list of num_hidden_layers equal values stands for that value
  ** (Hunyuan's per-layer moe_topk); 0: a list is refused. */
  unsigned char per_layer;
} cfg_key;
#define CFG_FIELD(f) ((unsigned short)offsetof(model_config, f))
_Static_assert(sizeof(model_config) <= 65535, "cfg_key.field holds an offset into model_config");
/* Reads rows[0..n) of a family's table into mc, in order. */
MEMEST_HIDDEN memest_code memi_cfg_read_keys(const cJSON *root, const cfg_key *rows, size_t n,
                                             model_config *mc, memest_error *err);
/* The spelling of a row the config gives (not null), or NULL. */
MEMEST_HIDDEN const char *memi_cfg_given(const cJSON *root, const cfg_key *row);
MEMEST_HIDDEN memest_code memi_cfg_common(const cJSON *root, model_config *mc, memest_error *err);
/* The dense (MLP-only) layers the selectors among keys (a NULL-terminated
** list; NULL: all) describe: first_k_dense_replace, moe_layer_freq,
** decoder_sparse_step, mlp_only_layers, moe_layers, ERNIE's and Arctic's
** and Llama 4's; *first_k the first layer any of them allows experts on. */
MEMEST_HIDDEN memest_code memi_cfg_dense_layers(const cJSON *root, const char *const *keys,
                                                const model_config *mc, unsigned char *dense,
                                                int64_t *first_k, memest_error *err);
/* For a family whose trainer builds its layers by its own rule (mc's
** layer_dense, `built` in words) and does not follow the selectors keys:
** the layers they make dense besides are named in a warning. Invalid
** selector values are refused. */
MEMEST_HIDDEN memest_code memi_cfg_dense_as_built(const cJSON *root, const char *const *keys,
                                                  model_config *mc, const char *built,
                                                  memest_error *err);
/* Refuse top_k above the expert count, and kv heads that do not divide the
** query heads (grouped-query attention repeats each kv head). */
MEMEST_HIDDEN memest_code memi_cfg_check_top_k(const model_config *mc, const char *key,
                                           memest_error *err);
MEMEST_HIDDEN memest_code memi_cfg_check_kv_heads(const model_config *mc, memest_error *err);
MEMEST_HIDDEN void memi_cfg_warn(model_config *mc, const char *fmt, ...) MEMEST_PRINTF(2, 3);
/* config_keys.c: records that `key` was looked up in `obj` (v its value, or
** NULL when absent), so that the summary can tell read keys from defaulted
** and ignored ones. */
MEMEST_HIDDEN void memi_cfg_note(const cJSON *obj, const char *key, const cJSON *v);
/* Whether a memi_cfg_note under node ran out of memory (the keys summary would lie). */
MEMEST_HIDDEN int memi_cfg_keys_out_of_memory(const cJSON *node);
/* An optional array of layer indices (mlp_only_layers, moe_layers): sets
** flags[i] = 1 for each listed i < mc->layers; *present = 0 when absent. */
MEMEST_HIDDEN memest_code memi_cfg_layer_list(const cJSON *root, const char *key,
                                         const model_config *mc, unsigned char *flags,
                                         int *present, memest_error *err);
/* Fills mc's key lists from obj (the object the family read, root's
** text_config or root itself); warns by name about every key of obj that
** no reader looked up and that is not known to leave memory alone, and
** about parts beside the text decoder (vision_config, ...) in obj or root. */
MEMEST_HIDDEN void memi_cfg_keys_summarise(const cJSON *obj, const cJSON *root, model_config *mc);
/* Whether a reader looked key up in obj (given or not). */
MEMEST_HIDDEN int memi_cfg_looked_up(const cJSON *obj, const char *key);
/* Notes key as read when it is the number `same`: a key the family's
** trainer does not read, which then says what the trainer builds anyway;
** another value stays unread, and is named. */
MEMEST_HIDDEN void memi_cfg_note_if(const cJSON *root, const char *key, int64_t same);
/* The i-th key known not to change memory (a name, "*suffix" or
** "prefix*"), and whether only at a value that leaves its part out; 0
** past the last. */
MEMEST_HIDDEN int memi_cfg_quiet_key(int i, const char **name, int *off);
/* }====================================================================== */

/* {======================================================================
** blocks.c: the tensor lists of one layer, for every family (more
** building blocks in attention.h).
** ======================================================================= */
MEMEST_HIDDEN void memi_params_add(param_list *pl, const char *name, int64_t d0, int64_t d1,
                              int64_t d2, int ndim, int expert, int muon);
MEMEST_HIDDEN void memi_rows_add(row_list *rl, int *ovf, const char *name, const char *shape,
                            char tag, int64_t a, int64_t b, int64_t c, int64_t d);
MEMEST_HIDDEN int64_t memi_rows_total(const row_list *rl);
/* The keys Qwen-MoE configs share (Qwen3-MoE, Qwen3.5): num_key_value_heads,
** attention_bias, num_experts (or num_local_experts), num_experts_per_tok,
** moe_intermediate_size. */
#define MEMI_QWEN_MOE_KEYS 5
extern MEMEST_HIDDEN const cfg_key memi_qwen_moe_keys[MEMI_QWEN_MOE_KEYS];
/* MEMEST_E_OVERFLOW if a layer of mc adds more than PARAMS_PER_LAYER_MAX
** parameters (memi_cfg_parse checks every config it reads). */
MEMEST_HIDDEN memest_code memi_cfg_check_params(const model_config *mc, memest_error *err);
/* Reads layer_types, an array of num_hidden_layers strings each one of
** names[0..n) (mapped to kinds[]); absent or null sets *present = 0 and
** leaves mc->layer_attn alone. */
MEMEST_HIDDEN memest_code memi_arch_layer_types(const cJSON *root, model_config *mc,
                                           const char *const *names, const unsigned char *kinds,
                                           int n, int *present, memest_error *err);
/* }====================================================================== */

/* {======================================================================
** The families (arch_*.c) and the choice between them (archs.c).
** ======================================================================= */
extern MEMEST_HIDDEN const arch_ops memi_arch_qwen3_moe;
extern MEMEST_HIDDEN const arch_ops memi_arch_generic_moe;
extern MEMEST_HIDDEN const arch_ops memi_arch_deepseek_v2;
extern MEMEST_HIDDEN const arch_ops memi_arch_deepseek_v3;
extern MEMEST_HIDDEN const arch_ops memi_arch_gpt_oss;
extern MEMEST_HIDDEN const arch_ops memi_arch_qwen35_moe;
/* arch_generic.c: refuses a config whose keys say it has state-space or
** linear-attention layers, which no attention layer models. */
MEMEST_HIDDEN memest_code memi_generic_hybrid_layers(const cJSON *root, memest_error *err);
/* archs.c: the model a config's text describes, read through its family. */
MEMEST_HIDDEN memest_code memi_cfg_parse(const char *text, size_t len, model_config *mc,
                                    memest_error *err);
/* }====================================================================== */

#endif /* MEMEST_MODEL_H */
