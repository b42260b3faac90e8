/*
** attention.h — building blocks the architecture files share: attention
** and router saved sets (memory-model.md §4.5), ring-attention transients for context
** parallelism (§5.6, standard and MLA latent ring), the SwiGLU expert bank
** and shared expert (§3.3, §4.2, §4.5), and the FP8 byte formulas (§4.8).
** Implemented in blocks.c.
*/
#ifndef MEMEST_ATTENTION_H
#define MEMEST_ATTENTION_H

#include "model/model.h"

typedef struct attn_shape {
  int64_t heads, kv_heads, head_dim;
  int qk_norm;   /* q/k RMSNorm saves an rstd per head */
  int gated;     /* q_proj doubled for an output gate (Qwen3.5) */
} attn_shape;

/* {======================================================================
** FP8 byte formulas (memory-model.md §4.8, operators/deepgemm_quantize.py).
** ======================================================================= */
/* An FP8Linear input saved transposed: (K, M) fp8 plus 128x128 block
** scales (ceil(K/128), ceil(M/128)) fp32. Also the in-graph transposed
** weight, with (K, M) = (in, out). */
MEMEST_HIDDEN int64_t memi_fp8_block_t_bytes(int64_t k, int64_t m, int *ovf);
/* A grouped projection's per-channel copy: (M, K) fp8 plus (M/128, K) fp32,
** i.e. M*K*(1 + 1/32) bytes for M a multiple of 128. */
MEMEST_HIDDEN int64_t memi_fp8_channel_bytes(int64_t m, int64_t k, int *ovf);
/* A rowwise (per-token) copy: (M, K) fp8 plus (M, ceil(K/128)) fp32. */
MEMEST_HIDDEN int64_t memi_fp8_rowwise_bytes(int64_t m, int64_t k, int *ovf);

/* One FP8Linear: input width k, output width n. */
typedef struct proj_kn {
  int64_t k, n;
} proj_kn;

/* FP8Linears called inside a compiled stage-1 region: each re-quantises its
** weight in the graph and saves, per chunk, the transposed fp8 weight and
** the transposed fp8 input (memory-model.md §4.8). Adds one [C] row and the largest
** projection's quantisation scratch; nothing when FP8 is off. */
MEMEST_HIDDEN void memi_fp8_compiled_rows(const run_dims *d, const proj_kn *p, int n, const char *name,
                                     layer_plan *lp);
/* }====================================================================== */

/* GQA attention with RoPE through FlashAttention-4 (or the zigzag ring when
** cp > 1): the saved set, the stage-1 forward and backward transients, and
** under FP8 the q/k/v/o projections' saved fp8 copies. */
MEMEST_HIDDEN void memi_attn_gqa_rows(const model_config *mc, const run_dims *d,
                                 const attn_shape *a, layer_plan *lp);
/* Standard ring-attention transients of one attention call (0 when cp == 1):
** the forward's k/v ring and online-softmax merge, and the backward's
** contiguous halves, fp32 accumulators and grad ring beyond dq/dk/dv. */
MEMEST_HIDDEN int64_t memi_ring_fwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width,
                                     int64_t heads, int *ovf);
MEMEST_HIDDEN int64_t memi_ring_bwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width,
                                     int64_t heads, int *ovf);

/* Multi-head latent attention widths (DeepSeek). */
typedef struct mla_shape {
  int64_t heads, nope, rope, v_dim, kv_lora;
} mla_shape;

/* The MLA latent ring (mla_zigzag_forward / _backward): the latent pairs,
** the per-step decompression, the merge; the backward's fp32 kv_b copy and
** weight grad, fp32 latent-grad ring and dq (0 when cp == 1). */
MEMEST_HIDDEN int64_t memi_mla_ring_fwd_bytes(const run_dims *d, const mla_shape *a, int *ovf);
MEMEST_HIDDEN int64_t memi_mla_ring_bwd_bytes(const run_dims *d, const mla_shape *a, int *ovf);

/* Softmax top-k router: probs, indices and (if renormalised) the raw top-k. */
MEMEST_HIDDEN void memi_router_softmax_rows(const model_config *mc, const run_dims *d, int renorm,
                                       layer_plan *lp);
/* The two RMSNorms' rstd (and, in the upper set, their outputs). */
MEMEST_HIDDEN void memi_norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp);
/* Arctic's third RMSNorm, before its residual MLP: its rstd (and, in the
** upper set, its output). */
MEMEST_HIDDEN void memi_residual_norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp);
/* GQA projections q, k, v, o (Muon) and, if bias_qkv / bias_o, their biases. */
MEMEST_HIDDEN void memi_attn_add_gqa(param_list *pl, int64_t hidden, int64_t heads, int64_t kv_heads,
                                int64_t head_dim, int bias_qkv, int bias_o);
/* A SwiGLU shared expert inside the compiled stage-1 region (DeepSeek's
** shared_experts, Qwen3.5's shared_expert) of width `inter`: h_mid (kept
** because the residual becomes h_mid + shared), g_s and u_s (silu_mul), and
** act_s (the down-projection input; its fp8 copy under FP8). */
MEMEST_HIDDEN void memi_shared_swiglu_rows(const model_config *mc, const run_dims *d, int64_t inter,
                                      layer_plan *lp);
/* A dense SwiGLU MLP of width `inter` (Muon matrices): gate and up (inter,
** H), then down (H, inter), named names[0..2]. memi_mlp_names are a dense
** layer's MLP's, memi_shared_expert_names Qwen's shared expert's. */
MEMEST_HIDDEN void memi_mlp_add_swiglu(param_list *pl, const char *const names[3], int64_t inter,
                                  int64_t hidden);
MEMEST_HIDDEN extern const char *const memi_mlp_names[3];
MEMEST_HIDDEN extern const char *const memi_shared_expert_names[3];
/* SwiGLU experts: gate/up (E_loc, I, H) and down (E_loc, H, I). */
MEMEST_HIDDEN void memi_experts_add_swiglu(param_list *pl, int64_t e_loc, int64_t inter,
                                      int64_t hidden);
/* Their saved intermediates: g and u (freed by the backward) and act (kept
** by the deferred down-projection wgrad), 3 * M_act * I bf16 in all. Under
** FP8: g and u, plus the per-channel fp8 copies of x (gate and up quantise
** it separately) and of act, which the deferred wgrads keep. */
MEMEST_HIDDEN void memi_experts_swiglu_rows(const model_config *mc, const run_dims *d, int64_t inter,
                                       layer_plan *lp);
/* The down projection's input of experts with a fused gate_up (gpt-oss,
** Qwen3.5), kept by its deferred wgrad: bf16 act, or under FP8 the
** per-channel fp8 copies of x (quantised once for gate_up) and of act,
** with group_indices and the forward's bf16 act and rowwise scratch. */
MEMEST_HIDDEN void memi_experts_fused_act_rows(const model_config *mc, const run_dims *d,
                                          int64_t inter, const char *act_label,
                                          const char *act_fp8_label, layer_plan *lp);

#endif /* MEMEST_ATTENTION_H */
