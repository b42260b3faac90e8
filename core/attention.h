/*
** attention.h — building blocks the architecture files share: attention
** and router saved sets (spec §4.5), ring-attention transients for context
** parallelism (§5.6), and the SwiGLU expert bank (parameters and saved
** intermediates, §3.3 and §4.2). Implemented in blocks.c.
*/
#ifndef MEMEST_ATTENTION_H
#define MEMEST_ATTENTION_H

#include "model.h"

typedef struct attn_shape {
  int64_t heads, kv_heads, head_dim;
  int qk_norm;   /* q/k RMSNorm saves an rstd per head */
  int gated;     /* q_proj doubled for an output gate (Qwen3.5) */
} attn_shape;

/* GQA attention with RoPE through FlashAttention-4 (or the zigzag ring when
** cp > 1): the saved set, the stage-1 forward and backward transients. */
MEMEST_HIDDEN void attn_gqa_rows(const model_config *mc, const run_dims *d,
                                 const attn_shape *a, layer_plan *lp);
/* Ring-attention transients of one attention call (0 when cp == 1). */
MEMEST_HIDDEN int64_t ring_fwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width,
                                     int64_t heads, int *ovf);
MEMEST_HIDDEN int64_t ring_bwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width,
                                     int64_t heads, int *ovf);
/* Softmax top-k router: probs, indices and (if renormalised) the raw top-k. */
MEMEST_HIDDEN void router_softmax_rows(const model_config *mc, const run_dims *d, int renorm,
                                       layer_plan *lp);
/* The two RMSNorms' rstd (and, in the upper set, their outputs). */
MEMEST_HIDDEN void norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp);
/* GQA projections q, k, v, o (Muon) and, if bias_qkv / bias_o, their biases. */
MEMEST_HIDDEN void attn_add_gqa(param_list *pl, int64_t hidden, int64_t heads, int64_t kv_heads,
                                int64_t head_dim, int bias_qkv, int bias_o);
/* SwiGLU experts: gate/up (E_loc, I, H) and down (E_loc, H, I). */
MEMEST_HIDDEN void experts_add_swiglu(param_list *pl, int64_t e_loc, int64_t inter,
                                      int64_t hidden);
/* Their saved intermediates: g and u (freed by the backward) and act (kept
** by the deferred down-projection wgrad), 3 * M_act * I bf16 in all. */
MEMEST_HIDDEN void experts_swiglu_rows(const run_dims *d, int64_t inter, layer_plan *lp);

#endif /* MEMEST_ATTENTION_H */
