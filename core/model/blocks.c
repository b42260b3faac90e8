/*
** blocks.c — per-layer building blocks shared by the architecture files:
** the tensor lists (memi_params_add, memi_rows_add) and the check that a
** family's layers fit them, the GQA attention, router and shared-expert saved sets of the compiled
** stage-1 region (memory-model.md §4.5; default or upper set per choices.h), the
** standard and MLA ring-attention transients under context parallelism
** (§5.6), the SwiGLU expert bank and shared expert (with Arctic's norm before
** its residual MLP), the FP8 byte formulas
** (§4.8), and the layer_types reader of the hybrid-attention families.
*/
#include <string.h>

#include "model/attention.h"

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The keys of HF's Qwen MoE configs (Qwen3-MoE, Qwen3.5): GQA attention
** and routed experts; num_experts and num_local_experts are one count. */
const cfg_key memi_qwen_moe_keys[MEMI_QWEN_MOE_KEYS] = {
  {{"num_key_value_heads"}, CFG_FIELD(kv_heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"attention_bias"}, CFG_FIELD(attention_bias), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
  {{"num_experts", "num_local_experts"}, CFG_FIELD(experts), CK_INT, CF_REQUIRED, 0, 1,
   CB_EXPERTS, 0},
  {{"num_experts_per_tok"}, CFG_FIELD(top_k), CK_INT, CF_REQUIRED, 0, 1, CB_TOP_K, 0},
  {{"moe_intermediate_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
};

/* {======================================================================
** The tensor lists: one layer's parameters and saved rows.
** ======================================================================= */
memest_code memi_cfg_check_params(const model_config *mc, memest_error *err) {
  int l;
  for (l = 0; l < mc->layers; l++) {
    param_list pl;
    pl.n = pl.dropped = 0;
    mc->arch->layer_params(mc, l, mc->experts, &pl);
    if (pl.dropped > 0) {
      return memi_err_set(err, MEMEST_E_OVERFLOW, "config",
                     "layer %d of this %s model has %d parameter tensors, more than "
                     "PARAMS_PER_LAYER_MAX = %d that memest holds per layer; none is dropped, so "
                     "the model cannot be estimated until that capacity is raised",
                     l, mc->arch->title, pl.n + pl.dropped, PARAMS_PER_LAYER_MAX);
    }
  }
  return MEMEST_OK;
}

void memi_params_add(param_list *pl, const char *name, int64_t d0, int64_t d1, int64_t d2, int ndim,
                int expert, int muon) {
  param_desc *p;
  if (pl->n >= PARAMS_PER_LAYER_MAX) {   /* counted, and refused by memi_cfg_check_params */
    pl->dropped++;
    return;
  }
  p = &pl->p[pl->n++];
  memset(p, 0, sizeof *p);
  p->name = name;
  p->d[0] = d0;
  p->d[1] = ndim > 1 ? d1 : 1;
  p->d[2] = ndim > 2 ? d2 : 1;
  p->ndim = (unsigned char)ndim;
  p->expert = (unsigned char)expert;
  p->muon = (unsigned char)muon;
  p->grad = 1;
}

void memi_rows_add(row_list *rl, int *ovf, const char *name, const char *shape, char tag, int64_t a,
              int64_t b, int64_t c, int64_t d) {
  tensor_row *r;
  int64_t bytes = ck_mul4(ovf, a, b, c, d);
  int room = 0;
  if (bytes == 0) return;
  if (rl->n >= ROWS_MAX) {   /* a family that needs more rows: an error, not a lie */
    *ovf = 1;
    return;
  }
  /* Keeps the rows' sum within 64 bits, so that memi_rows_total never overflows. */
  (void)ck_add(&room, memi_rows_total(rl), bytes);
  if (room) {
    *ovf = 1;
    return;
  }
  r = &rl->r[rl->n++];
  r->name = name;
  r->shape = shape;
  r->bytes = bytes;
  r->tag = tag;
  r->captured = 0;
}

/* Exact: memi_rows_add keeps the sum of a list's rows within 64 bits. */
int64_t memi_rows_total(const row_list *rl) {
  int64_t t = 0;
  int i;
  for (i = 0; i < rl->n; i++) t += rl->r[i].bytes;
  return t;
}
/* }====================================================================== */

/* Marks the s3 rows added since `from` as kept by the deferred wgrad. */
static void mark_captured(row_list *rl, int from) {
  int i;
  for (i = from; i < rl->n; i++) rl->r[i].captured = 1;
}

void memi_norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  memi_rows_add(&lp->s1, o, "input/post-attention RMSNorm rstd", "2 x (m)", 'C', 2, d->m, 4, 1);
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "x1 (input-norm output)", "(m, H)", 'C', d->m, mc->hidden, 2, 1);
    memi_rows_add(&lp->s1, o, "x2 (post-attention-norm output)", "(m, H)", 'C', d->m, mc->hidden, 2, 1);
  }
}

void memi_residual_norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  memi_rows_add(&lp->s1, o, "residual-MLP RMSNorm rstd", "(m)", 'C', 1, d->m, 4, 1);
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "x3 (residual-norm output)", "(m, H)", 'C', d->m, mc->hidden, 2, 1);
  }
}

/* {======================================================================
** FP8 (memory-model.md §4.8). Scales are fp32; blocks and channel groups are 128 wide.
** ======================================================================= */
int64_t memi_fp8_block_t_bytes(int64_t k, int64_t m, int *o) {
  return ck_add(o, ck_mul(o, k, m), ck_mul4(o, ceil_div(k, 128), ceil_div(m, 128), 4, 1));
}

int64_t memi_fp8_channel_bytes(int64_t m, int64_t k, int *o) {
  return ck_add(o, ck_mul(o, m, k), ck_mul4(o, ceil_div(m, 128), k, 4, 1));
}

int64_t memi_fp8_rowwise_bytes(int64_t m, int64_t k, int *o) {
  return ck_add(o, ck_mul(o, m, k), ck_mul4(o, m, ceil_div(k, 128), 4, 1));
}

void memi_fp8_compiled_rows(const run_dims *d, const proj_kn *p, int n, const char *name,
                       layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t saved = 0, fwd = 0, bwd = 0;
  int i;
  if (!d->fp8) return;
  for (i = 0; i < n; i++) {
    /* Saved: weight_t (K, N) and input_t (K, m), each with block scales. */
    int64_t wt = CHOICE_FP8_COMPILED_WEIGHT_SAVED ? memi_fp8_block_t_bytes(p[i].k, p[i].n, o) : 0;
    int64_t xt = memi_fp8_block_t_bytes(p[i].k, d->m, o);
    /* Forward scratch: the in-graph fp8 weight (N, K) and the rowwise input. */
    int64_t f = ck_add(o, memi_fp8_block_t_bytes(p[i].n, p[i].k, o), memi_fp8_rowwise_bytes(d->m, p[i].k, o));
    /* Backward scratch: the output grad's rowwise and transposed copies. */
    int64_t g = ck_add(o, memi_fp8_rowwise_bytes(d->m, p[i].n, o),
                       ck_add(o, ck_mul(o, p[i].n, d->m), ck_mul4(o, p[i].n, ceil_div(d->m, 128), 4, 1)));
    saved = ck_add(o, saved, ck_add(o, wt, xt));
    fwd = max64(fwd, f);
    bwd = max64(bwd, g);
  }
  memi_rows_add(&lp->s1, o, name, "(K, N) + (K, m) fp8 per projection", 'C', saved, 1, 1, 1);
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, fwd);
  lp->s1_bwd_scratch = ck_add(o, lp->s1_bwd_scratch, bwd);
}
/* }====================================================================== */

/* {======================================================================
** Context parallelism: ring transients (memory-model.md §5.6). At a ring step the
** held received k/v (or latent) pair and the next one in flight coexist
** with the saved originals: two extra pairs, one when cp = 2. The backward
** grad ring ping-pongs between two fp32 sets (the one just sent becomes the
** next receive slot, ring_attention.py zigzag_backward).
** ======================================================================= */
static int64_t ring_pairs(const run_dims *d) { return d->cp > 2 ? 2 : 1; }

int64_t memi_ring_fwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width, int64_t heads,
                       int *o) {
  int64_t m = d->m, t = 0;
  if (d->cp <= 1) return 0;
  t = ck_add(o, t, ck_mul4(o, 2 * ring_pairs(d), m, kv_width, 2)); /* held and next k, v */
  t = ck_add(o, t, ck_mul4(o, m, q_width, 2, 1));    /* partial_out */
  t = ck_add(o, t, ck_mul4(o, m, heads, 4, 1));      /* partial_lse */
  t = ck_add(o, t, ck_mul4(o, 2, m, q_width, 4));    /* fp32 out, old and new */
  t = ck_add(o, t, ck_mul4(o, 2, m, heads, 4));      /* fp32 lse, old and new */
  return t;
}

/* Beyond the bf16 dq/dk/dv the caller counts (the per-step FA4 outputs). */
int64_t memi_ring_bwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width, int64_t heads,
                       int *o) {
  int64_t m = d->m, common = 0, step = 0, end = 0;
  if (d->cp <= 1) return 0;
  common = ck_add(o, common, ck_mul4(o, 3, m / 2, q_width, 2)); /* dout, q, out halves */
  common = ck_add(o, common, ck_mul4(o, m / 2, heads, 4, 1));   /* lse half */
  common = ck_add(o, common, ck_mul4(o, m, q_width, 4, 1));     /* fp32 dq */
  common = ck_add(o, common, ck_mul4(o, 4, m, kv_width, 4));    /* fp32 dk, dv: two sets */
  /* During a step: the held and next k/v, FA4's fp32 dq accumulator. */
  step = ck_add(o, ck_mul4(o, 2 * ring_pairs(d), m, kv_width, 2), ck_mul4(o, m, q_width, 4, 1));
  /* At the end: the last held pair and the bf16 casts of dq, dk, dv. */
  end = ck_add(o, ck_mul4(o, 2, m, kv_width, 2), ck_mul4(o, m, q_width + 2 * kv_width, 2, 1));
  return ck_add(o, common, max64(step, end));
}

int64_t memi_mla_ring_fwd_bytes(const run_dims *d, const mla_shape *a, int *o) {
  int64_t m = d->m, h = a->heads, qk = a->nope + a->rope, lat = a->kv_lora + a->rope, t = 0;
  if (d->cp <= 1) return 0;
  t = ck_add(o, t, ck_mul4(o, m, h, qk, 2));                     /* q = cat(q_nope, q_pe) */
  t = ck_add(o, t, ck_mul4(o, ring_pairs(d), m, lat, 2));        /* held and next latent */
  t = ck_add(o, t, ck_mul4(o, m, h, a->nope + a->v_dim, 2));     /* decompressed kv */
  t = ck_add(o, t, ck_mul4(o, m, h, a->v_dim, 2));               /* contiguous value */
  t = ck_add(o, t, ck_mul4(o, m, h, qk, 2));                     /* key */
  t = ck_add(o, t, ck_mul4(o, m, h, a->v_dim, 2));               /* partial_out */
  t = ck_add(o, t, ck_mul4(o, m, h, 4, 1));                      /* partial_lse */
  t = ck_add(o, t, ck_mul4(o, 2, m, h * a->v_dim, 4));           /* fp32 out, old and new */
  t = ck_add(o, t, ck_mul4(o, 2, m, h, 4));                      /* fp32 lse, old and new */
  return t;
}

int64_t memi_mla_ring_bwd_bytes(const run_dims *d, const mla_shape *a, int *o) {
  int64_t m = d->m, h = a->heads, qk = a->nope + a->rope, lat = a->kv_lora + a->rope;
  int64_t kvo = a->nope + a->v_dim, kvb = ck_mul4(o, h, kvo, a->kv_lora, 1);
  int64_t common = 0, decomp = 0, fa_out = 0, dkv = 0, step, end;
  if (d->cp <= 1) return 0;
  common = ck_add(o, common, ck_mul(o, 8, kvb));                 /* weight_f and dW (fp32) */
  common = ck_add(o, common, ck_mul4(o, m, h, qk, 2));           /* q = cat(q_nope, q_pe) */
  common = ck_add(o, common, ck_mul4(o, m / 2, h, qk, 2));       /* q_back */
  common = ck_add(o, common, ck_mul4(o, 2, m / 2, h * a->v_dim, 2)); /* dout_back, out_back */
  common = ck_add(o, common, ck_mul4(o, m / 2, h, 4, 1));        /* lse_back */
  common = ck_add(o, common, ck_mul4(o, m, h, qk, 4));           /* fp32 dq */
  common = ck_add(o, common, ck_mul4(o, 2, m, lat, 4));          /* fp32 latent grads: two sets */
  decomp = ck_add(o, ck_mul4(o, m, h, kvo, 2), ck_mul4(o, m, h, a->v_dim + qk, 2));
  fa_out = ck_add(o, ck_mul4(o, 2, m, h * qk, 2), ck_mul4(o, m, h, a->v_dim, 2));
  dkv = ck_add(o, ck_mul4(o, m, h, kvo, 6), ck_mul4(o, 2, m, a->kv_lora, 4)); /* d_kv bf16+fp32 */
  dkv = ck_add(o, dkv, ck_mul(o, 4, kvb));                        /* this step's dW */
  step = ck_add(o, ck_mul4(o, ring_pairs(d), m, lat, 2), ck_add(o, decomp, fa_out));
  step = ck_add(o, step, max64(ck_mul4(o, m, h, qk, 4), dkv));   /* FA4 dq workspace or d_kv */
  /* At the end the last step's locals are still alive, with the casts. */
  end = ck_add(o, ck_mul4(o, m, lat, 2, 1), ck_add(o, decomp, fa_out));
  end = ck_add(o, end, ck_add(o, ck_mul4(o, m, h, kvo, 4), ck_mul4(o, m, a->kv_lora, 4, 1)));
  end = ck_add(o, end, ck_mul4(o, m, h, a->nope, 4));           /* contiguous fp32 dq_nope */
  end = ck_add(o, end, ck_add(o, ck_mul4(o, m, h, qk, 2), ck_mul4(o, m, lat, 2, 1)));
  return ck_add(o, common, max64(step, end));
}
/* }====================================================================== */

void memi_attn_gqa_rows(const model_config *mc, const run_dims *d, const attn_shape *a,
                   layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, H = mc->hidden;
  int64_t qw = a->heads * a->head_dim, kvw = a->kv_heads * a->head_dim;
  int64_t fwd, bwd;
  proj_kn p[4];
  if (a->gated) {
    memi_rows_add(&lp->s1, o, "q_proj output (query and gate)", "(m, 2*nh*hd)", 'C', m, 2 * qw, 2, 1);
  } else {
    memi_rows_add(&lp->s1, o, "q", "(m, nh*hd)", 'C', m, qw, 2, 1);
  }
  memi_rows_add(&lp->s1, o, "k", "(m, nkv*hd)", 'C', m, kvw, 2, 1);
  memi_rows_add(&lp->s1, o, "v", "(m, nkv*hd)", 'C', m, kvw, 2, 1);
  memi_rows_add(&lp->s1, o, "o (attention output)", "(m, nh*hd)", 'C', m, qw, 2, 1);
  memi_rows_add(&lp->s1, o, "lse (fp32)", "(b, nh, s)", 'C', m, a->heads, 4, 1);
  if (a->qk_norm) {
    memi_rows_add(&lp->s1, o, "q/k-norm rstd", "(m, nh+nkv)", 'C', m, a->heads + a->kv_heads, 4, 1);
  }
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "post-RoPE q, k copies", "(m, (nh+nkv)*hd)", 'C', m, qw + kvw, 2, 1);
    if (a->gated) {
      memi_rows_add(&lp->s1, o, "gate copy and gated o", "2 x (m, nh*hd)", 'C', 2, m, qw, 2);
    }
  }
  /* Forward: the norm output and pre-RoPE q/k live while the kernel runs. */
  fwd = ck_add(o, ck_mul4(o, m, H, 2, 1), ck_mul4(o, m, qw + kvw, 2, 1));
  fwd = ck_add(o, fwd, memi_ring_fwd_bytes(d, qw, kvw, a->heads, o));
  /* Backward: recomputed norm output and post-RoPE q/k, dq/dk/dv, an fp32
  ** dq accumulator (or the ring's buffers), and m*H bf16 buffers. */
  bwd = ck_add(o, ck_mul4(o, m, H, 2, 1), ck_mul4(o, m, qw + kvw, 2, 1));
  bwd = ck_add(o, bwd, ck_mul4(o, m, qw + 2 * kvw, 2, 1));
  if (d->cp > 1) bwd = ck_add(o, bwd, memi_ring_bwd_bytes(d, qw, kvw, a->heads, o));
  else bwd = ck_add(o, bwd, ck_mul4(o, m, qw, 4, 1));
  bwd = ck_add(o, bwd, ck_mul4(o, CHOICE_S1_BWD_HIDDEN_BUFFERS, m, H, 2));
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, fwd);
  lp->s1_bwd_scratch = ck_add(o, lp->s1_bwd_scratch, bwd);
  /* FP8: q, k and v each quantise x1; o_proj quantises o. */
  p[0].k = H;
  p[0].n = a->gated ? 2 * qw : qw;
  p[1].k = p[2].k = H;
  p[1].n = p[2].n = kvw;
  p[3].k = qw;
  p[3].n = H;
  memi_fp8_compiled_rows(d, p, 4, "FP8 q/k/v/o_proj: transposed fp8 weights and inputs", lp);
}

void memi_router_softmax_rows(const model_config *mc, const run_dims *d, int renorm, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, k = mc->top_k;
  memi_rows_add(&lp->s1, o, "router probs (fp32 softmax)", "(m, E)", 'C', m, mc->experts, 4, 1);
  memi_rows_add(&lp->s1, o, "topk_idx (int64)", "(m, k)", 'C', m, k, 8, 1);
  if (renorm) {
    memi_rows_add(&lp->s1, o, "raw top-k weights and their sum", "(m, k) + (m)", 'C', m, k + 1, 4, 1);
  }
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "router logits", "(m, E)", 'C', m, mc->experts, 2, 1);
  } else {
    lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, mc->experts, 2, 1));
  }
}

void memi_shared_swiglu_rows(const model_config *mc, const run_dims *d, int64_t inter,
                        layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, H = mc->hidden;
  proj_kn p[3];
  memi_rows_add(&lp->s1, o, "h_mid (residual before the shared expert)", "(m, H)", 'C', m, H, 2, 1);
  memi_rows_add(&lp->s1, o, "shared expert g_s, u_s (silu_mul inputs)", "2 x (m, I_sh)", 'C', 2, m,
           inter, 2);
  if (!d->fp8) {
    memi_rows_add(&lp->s1, o, "shared expert act_s (down-proj input)", "(m, I_sh)", 'C', m, inter, 2, 1);
  }
  /* Forward: the shared output before it joins the residual (and, under
  ** FP8, act_s until the down projection has quantised it). */
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, H, 2, 1));
  if (d->fp8) lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, inter, 2, 1));
  p[0].k = p[1].k = H;
  p[0].n = p[1].n = inter;
  p[2].k = inter;
  p[2].n = H;
  memi_fp8_compiled_rows(d, p, 3, "FP8 shared-expert gate/up/down: fp8 weights and inputs", lp);
}

void memi_attn_add_gqa(param_list *pl, int64_t hidden, int64_t heads, int64_t kv_heads,
                  int64_t head_dim, int bias_qkv, int bias_o) {
  int64_t q = heads * head_dim, kv = kv_heads * head_dim;
  memi_params_add(pl, "self_attn.q_proj.weight", q, hidden, 1, 2, 0, 1);
  memi_params_add(pl, "self_attn.k_proj.weight", kv, hidden, 1, 2, 0, 1);
  memi_params_add(pl, "self_attn.v_proj.weight", kv, hidden, 1, 2, 0, 1);
  memi_params_add(pl, "self_attn.o_proj.weight", hidden, q, 1, 2, 0, 1);
  if (bias_qkv) {
    memi_params_add(pl, "self_attn.q_proj.bias", q, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.k_proj.bias", kv, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.v_proj.bias", kv, 1, 1, 1, 0, 0);
  }
  if (bias_o) memi_params_add(pl, "self_attn.o_proj.bias", hidden, 1, 1, 1, 0, 0);
}

const char *const memi_mlp_names[3] = {"mlp.gate_proj.weight", "mlp.up_proj.weight",
                                       "mlp.down_proj.weight"};
const char *const memi_shared_expert_names[3] = {"mlp.shared_expert.gate_proj.weight",
                                                 "mlp.shared_expert.up_proj.weight",
                                                 "mlp.shared_expert.down_proj.weight"};

void memi_mlp_add_swiglu(param_list *pl, const char *const names[3], int64_t inter, int64_t hidden) {
  memi_params_add(pl, names[0], inter, hidden, 1, 2, 0, 1);
  memi_params_add(pl, names[1], inter, hidden, 1, 2, 0, 1);
  memi_params_add(pl, names[2], hidden, inter, 1, 2, 0, 1);
}

void memi_experts_add_swiglu(param_list *pl, int64_t e_loc, int64_t inter, int64_t hidden) {
  int i;
  memi_params_add(pl, "mlp.experts.gate_proj.weight", e_loc, inter, hidden, 3, 1, 1);
  memi_params_add(pl, "mlp.experts.up_proj.weight", e_loc, inter, hidden, 3, 1, 1);
  memi_params_add(pl, "mlp.experts.down_proj.weight", e_loc, hidden, inter, 3, 1, 1);
  for (i = pl->n - 3; i < pl->n; i++) {
    pl->p[i].deferred = 1;
    pl->p[i].fp8 = 1;
  }
}

void memi_experts_swiglu_rows(const model_config *mc, const run_dims *d, int64_t inter,
                         layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t M = d->m_act, H = mc->hidden;
  int first;
  memi_rows_add(&lp->s3, o, "g, u (silu_mul inputs)", "2 x (M_act, I)", 'S', 2, M, inter, 2);
  if (!d->fp8) {
    first = lp->s3.n;
    memi_rows_add(&lp->s3, o, "act (down-proj input)", "(M_act, I)", 'S', M, inter, 2, 1);
    mark_captured(&lp->s3, first);
    return;
  }
  /* FP8 (memory-model.md §4.8): Hopper keeps group_indices on the ctx; gate and up
  ** each quantise x per channel, down quantises act. */
  memi_rows_add(&lp->s3, o, "group_indices (int32)", "(M_act)", 'S', M, 4, 1, 1);
  first = lp->s3.n;
  memi_rows_add(&lp->s3, o, "fp8 per-channel copies of x (gate, up)", "2 x (M_act, H) fp8", 'S', 2,
           memi_fp8_channel_bytes(M, H, o), 1, 1);
  memi_rows_add(&lp->s3, o, "fp8 per-channel copy of act (down input)", "(M_act, I) fp8", 'S',
           memi_fp8_channel_bytes(M, inter, o), 1, 1, 1);
  mark_captured(&lp->s3, first);
  /* Forward scratch: bf16 act and one projection's rowwise input copy. */
  lp->s3_fwd_scratch = ck_add(o, lp->s3_fwd_scratch, ck_mul4(o, M, inter, 2, 1));
  lp->s3_fwd_scratch = ck_add(o, lp->s3_fwd_scratch, memi_fp8_rowwise_bytes(M, max64(H, inter), o));
}

void memi_experts_fused_act_rows(const model_config *mc, const run_dims *d, int64_t inter,
                            const char *act_label, const char *act_fp8_label, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t M = d->m_act, H = mc->hidden;
  int first = lp->s3.n;
  if (!d->fp8) {
    memi_rows_add(&lp->s3, o, act_label, "(M_act, I)", 'S', M, inter, 2, 1);
    mark_captured(&lp->s3, first);
    return;
  }
  /* FP8 (memory-model.md §4.8): x is quantised once for the fused gate_up, act by down. */
  memi_rows_add(&lp->s3, o, "group_indices (int32)", "(M_act)", 'S', M, 4, 1, 1);
  first = lp->s3.n;
  memi_rows_add(&lp->s3, o, "fp8 per-channel copy of x (gate_up input)", "(M_act, H) fp8", 'S',
           memi_fp8_channel_bytes(M, H, o), 1, 1, 1);
  memi_rows_add(&lp->s3, o, act_fp8_label, "(M_act, I) fp8", 'S', memi_fp8_channel_bytes(M, inter, o), 1, 1,
           1);
  mark_captured(&lp->s3, first);
  lp->s3_fwd_scratch = ck_add(o, lp->s3_fwd_scratch, ck_mul4(o, M, inter, 2, 1));
  lp->s3_fwd_scratch = ck_add(o, lp->s3_fwd_scratch, memi_fp8_rowwise_bytes(M, max64(H, inter), o));
}

/* {======================================================================
** layer_types (gpt-oss, Qwen3.5): per-layer attention kinds.
** ======================================================================= */
memest_code memi_arch_layer_types(const cJSON *root, model_config *mc, const char *const *names,
                             const unsigned char *kinds, int n, int *present,
                             memest_error *err) {
  const cJSON *lt = cJSON_GetObjectItemCaseSensitive(root, "layer_types");
  const cJSON *v;
  memi_cfg_note(root, "layer_types", lt);
  int64_t i = 0;
  int k;
  *present = 0;
  if (lt == NULL || cJSON_IsNull(lt)) return MEMEST_OK;
  if (!cJSON_IsArray(lt) || cJSON_GetArraySize(lt) != mc->layers) {
    return memi_err_set(err, MEMEST_E_CONFIG, "layer_types",
                   "config key 'layer_types' must be an array of num_hidden_layers = %lld "
                   "strings, one per decoder layer",
                   (long long)mc->layers);
  }
  cJSON_ArrayForEach(v, lt) {
    for (k = 0; k < n; k++) {
      if (cJSON_IsString(v) && strcmp(v->valuestring, names[k]) == 0) break;
    }
    if (k == n) {
      return memi_err_set(err, MEMEST_E_CONFIG, "layer_types",
                     "config key 'layer_types' entry %lld is not one of '%s' and '%s'",
                     (long long)i, names[0], n > 1 ? names[1] : names[0]);
    }
    mc->layer_attn[i++] = kinds[k];
  }
  *present = 1;
  return MEMEST_OK;
}
