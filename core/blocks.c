/*
** blocks.c — per-layer building blocks shared by the architecture files:
** the GQA attention and softmax-router saved sets of the compiled stage-1
** region (spec §4.5; default or upper set per choices.h), ring-attention
** transients under context parallelism (§5.6), and the SwiGLU expert bank.
*/
#include "attention.h"

void norm_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  rows_add(&lp->s1, o, "input/post-attention RMSNorm rstd", "2 x (m)", 'C', 2, d->m, 4, 1);
  if (CHOICE_COMPILED_SAVED_UPPER) {
    rows_add(&lp->s1, o, "x1 (input-norm output)", "(m, H)", 'C', d->m, mc->hidden, 2, 1);
    rows_add(&lp->s1, o, "x2 (post-attention-norm output)", "(m, H)", 'C', d->m, mc->hidden, 2, 1);
  }
}

int64_t ring_fwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width, int64_t heads,
                       int *o) {
  int64_t m = d->m, t = 0;
  if (d->cp <= 1) return 0;
  t = ck_add(o, t, ck_mul4(o, 4, m, kv_width, 2));   /* held and in-flight k, v pairs */
  t = ck_add(o, t, ck_mul4(o, m, q_width, 2, 1));    /* partial_out */
  t = ck_add(o, t, ck_mul4(o, m, heads, 4, 1));      /* partial_lse */
  t = ck_add(o, t, ck_mul4(o, 2, m, q_width, 4));    /* fp32 out, old and new */
  t = ck_add(o, t, ck_mul4(o, 2, m, heads, 4));      /* fp32 lse, old and new */
  return t;
}

int64_t ring_bwd_bytes(const run_dims *d, int64_t q_width, int64_t kv_width, int64_t heads,
                       int *o) {
  int64_t m = d->m, t = 0;
  if (d->cp <= 1) return 0;
  t = ck_add(o, t, ck_mul4(o, 3, m / 2, q_width, 2)); /* dout, q, out halves */
  t = ck_add(o, t, ck_mul4(o, m / 2, heads, 4, 1));   /* lse half */
  t = ck_add(o, t, ck_mul4(o, m, q_width, 4, 1));     /* fp32 dq */
  t = ck_add(o, t, ck_mul4(o, 6, m, kv_width, 4));    /* fp32 dk, dv in three rotating sets */
  t = ck_add(o, t, ck_mul4(o, 2, m, kv_width, 2));    /* next k, v */
  t = ck_add(o, t, ck_mul4(o, m, q_width + 2 * kv_width, 2, 1)); /* bf16 casts */
  return t;
}

void attn_gqa_rows(const model_config *mc, const run_dims *d, const attn_shape *a,
                   layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, H = mc->hidden;
  int64_t qw = a->heads * a->head_dim, kvw = a->kv_heads * a->head_dim;
  int64_t fwd, bwd;
  if (a->gated) {
    rows_add(&lp->s1, o, "q_proj output (query and gate)", "(m, 2*nh*hd)", 'C', m, 2 * qw, 2, 1);
  } else {
    rows_add(&lp->s1, o, "q", "(m, nh*hd)", 'C', m, qw, 2, 1);
  }
  rows_add(&lp->s1, o, "k", "(m, nkv*hd)", 'C', m, kvw, 2, 1);
  rows_add(&lp->s1, o, "v", "(m, nkv*hd)", 'C', m, kvw, 2, 1);
  rows_add(&lp->s1, o, "o (attention output)", "(m, nh*hd)", 'C', m, qw, 2, 1);
  rows_add(&lp->s1, o, "lse (fp32)", "(b, nh, s)", 'C', m, a->heads, 4, 1);
  if (a->qk_norm) {
    rows_add(&lp->s1, o, "q/k-norm rstd", "(m, nh+nkv)", 'C', m, a->heads + a->kv_heads, 4, 1);
  }
  if (CHOICE_COMPILED_SAVED_UPPER) {
    rows_add(&lp->s1, o, "post-RoPE q, k copies", "(m, (nh+nkv)*hd)", 'C', m, qw + kvw, 2, 1);
    if (a->gated) {
      rows_add(&lp->s1, o, "gate copy and gated o", "2 x (m, nh*hd)", 'C', 2, m, qw, 2);
    }
  }
  /* Forward: the norm output and pre-RoPE q/k live while the kernel runs. */
  fwd = ck_add(o, ck_mul4(o, m, H, 2, 1), ck_mul4(o, m, qw + kvw, 2, 1));
  fwd = ck_add(o, fwd, ring_fwd_bytes(d, qw, kvw, a->heads, o));
  /* Backward: recomputed norm output and post-RoPE q/k, dq/dk/dv, an fp32
  ** dq accumulator (or the ring's buffers), and m*H bf16 buffers. */
  bwd = ck_add(o, ck_mul4(o, m, H, 2, 1), ck_mul4(o, m, qw + kvw, 2, 1));
  bwd = ck_add(o, bwd, ck_mul4(o, m, qw + 2 * kvw, 2, 1));
  if (d->cp > 1) bwd = ck_add(o, bwd, ring_bwd_bytes(d, qw, kvw, a->heads, o));
  else bwd = ck_add(o, bwd, ck_mul4(o, m, qw, 4, 1));
  bwd = ck_add(o, bwd, ck_mul4(o, CHOICE_S1_BWD_HIDDEN_BUFFERS, m, H, 2));
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, fwd);
  lp->s1_bwd_scratch = ck_add(o, lp->s1_bwd_scratch, bwd);
}

void router_softmax_rows(const model_config *mc, const run_dims *d, int renorm, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, k = mc->top_k;
  rows_add(&lp->s1, o, "router probs (fp32 softmax)", "(m, E)", 'C', m, mc->experts, 4, 1);
  rows_add(&lp->s1, o, "topk_idx (int64)", "(m, k)", 'C', m, k, 8, 1);
  if (renorm) {
    rows_add(&lp->s1, o, "raw top-k weights and their sum", "(m, k) + (m)", 'C', m, k + 1, 4, 1);
  }
  if (CHOICE_COMPILED_SAVED_UPPER) {
    rows_add(&lp->s1, o, "router logits", "(m, E)", 'C', m, mc->experts, 2, 1);
  } else {
    lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, mc->experts, 2, 1));
  }
}

void attn_add_gqa(param_list *pl, int64_t hidden, int64_t heads, int64_t kv_heads,
                  int64_t head_dim, int bias_qkv, int bias_o) {
  int64_t q = heads * head_dim, kv = kv_heads * head_dim;
  params_add(pl, "self_attn.q_proj.weight", q, hidden, 1, 2, 0, 1);
  params_add(pl, "self_attn.k_proj.weight", kv, hidden, 1, 2, 0, 1);
  params_add(pl, "self_attn.v_proj.weight", kv, hidden, 1, 2, 0, 1);
  params_add(pl, "self_attn.o_proj.weight", hidden, q, 1, 2, 0, 1);
  if (bias_qkv) {
    params_add(pl, "self_attn.q_proj.bias", q, 1, 1, 1, 0, 0);
    params_add(pl, "self_attn.k_proj.bias", kv, 1, 1, 1, 0, 0);
    params_add(pl, "self_attn.v_proj.bias", kv, 1, 1, 1, 0, 0);
  }
  if (bias_o) params_add(pl, "self_attn.o_proj.bias", hidden, 1, 1, 1, 0, 0);
}

void experts_add_swiglu(param_list *pl, int64_t e_loc, int64_t inter, int64_t hidden) {
  int i;
  params_add(pl, "mlp.experts.gate_proj.weight", e_loc, inter, hidden, 3, 1, 1);
  params_add(pl, "mlp.experts.up_proj.weight", e_loc, inter, hidden, 3, 1, 1);
  params_add(pl, "mlp.experts.down_proj.weight", e_loc, hidden, inter, 3, 1, 1);
  for (i = pl->n - 3; i < pl->n; i++) {
    pl->p[i].deferred = 1;
    pl->p[i].fp8 = 1;
  }
}

void experts_swiglu_rows(const run_dims *d, int64_t inter, layer_plan *lp) {
  int *o = &lp->ovf;
  rows_add(&lp->s3, o, "g, u (silu_mul inputs)", "2 x (M_act, I)", 'S', 2, d->m_act, inter, 2);
  rows_add(&lp->s3, o, "act (down-proj input)", "(M_act, I)", 'S', d->m_act, inter, 2, 1);
  if (lp->s3.n > 0) lp->s3.r[lp->s3.n - 1].captured = 1;
}
