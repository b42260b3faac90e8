/*
** arch_gptoss.c — the gpt-oss family (model_type "gpt_oss"): the keys the
** trainer reads, the parameter inventory of one decoder layer (memory-model.md §3.3:
** biased attention, per-head sinks that get no gradient, a biased router,
** fused gate_up experts with biases) and the tensors stage 1, the router's
** own compiled graph and the experts save (§4.5, §4.2). Every layer is
** MoE; sliding-window layers have the same sizes; no context parallelism.
** Design note: docs/architectures/gpt-oss.md.
*/
#include "model/attention.h"
#include "model/model.h"

/* HF GptOssConfig defaults for keys a config may leave out. */
#define GPTOSS_DEFAULT_HEAD_DIM 64
#define GPTOSS_DEFAULT_SLIDING_WINDOW 128

static const cfg_key gptoss_keys[] = {
  {{"num_key_value_heads"}, CFG_FIELD(kv_heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"head_dim"}, CFG_FIELD(head_dim), CK_INT, CF_VALUE, GPTOSS_DEFAULT_HEAD_DIM, 2, CB_HEAD_DIM, 0},
  {{"attention_bias"}, CFG_FIELD(attention_bias), CK_BOOL, CF_VALUE, 1, 0, CB_BOOL, 0},
  {{"num_local_experts"}, CFG_FIELD(experts), CK_INT, CF_REQUIRED, 0, 1, CB_EXPERTS, 0},
  {{"num_experts_per_tok"}, CFG_FIELD(top_k), CK_INT, CF_REQUIRED, 0, 1, CB_TOP_K, 0},
  {{"intermediate_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"sliding_window"}, CFG_FIELD(sliding_window), CK_INT, CF_VALUE, GPTOSS_DEFAULT_SLIDING_WINDOW,
   1, CB_SEQUENCE, 0},
};

static memest_code gptoss_read(const cJSON *root, model_config *mc, memest_error *err) {
  static const char *const names[] = {"sliding_attention", "full_attention"};
  static const unsigned char kinds[] = {ATTN_SLIDING, ATTN_FULL};
  memest_code rc;
  int64_t i;
  int present;
  if ((rc = memi_cfg_common(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, gptoss_keys, sizeof gptoss_keys / sizeof gptoss_keys[0], mc,
                               err)) ||
      (rc = memi_cfg_check_top_k(mc, "num_experts_per_tok", err)) ||
      (rc = memi_cfg_check_kv_heads(mc, err)))
    return rc;
  /* OpenAI's own name for the top-k, beside HF's: named unless it agrees. */
  memi_cfg_note_if(root, "experts_per_token", mc->top_k);
  /* HF's default alternates sliding (even layers) and full (odd layers). */
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = (i + 1) % 2 ? ATTN_SLIDING : ATTN_FULL;
    mc->layer_dense[i] = 0;
  }
  return memi_arch_layer_types(root, mc, names, kinds, 2, &present, err);
}

static void gptoss_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, I = mc->moe_inter;
  (void)layer;
  memi_attn_add_gqa(pl, H, mc->heads, mc->kv_heads, mc->head_dim, mc->attention_bias,
               mc->attention_bias);
  /* flash_attn_v4 returns no grad for learnable_sink: no accumulator, no state. */
  memi_params_add(pl, "self_attn.sinks", mc->heads, 1, 1, 1, 0, 0);
  pl->p[pl->n - 1].grad = 0;
  memi_params_add(pl, "mlp.router.weight", mc->experts, H, 1, 2, 0, 0);
  memi_params_add(pl, "mlp.router.bias", mc->experts, 1, 1, 1, 0, 0);
  memi_params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  /* Raw parameters: the GEMM weights defer their wgrad and use the FP8
  ** cache (GptOssExperts._quantized_weight); the biases' grads are eager. */
  memi_params_add(pl, "mlp.experts.gate_up_proj", e_loc, 2 * I, H, 3, 1, 1);
  pl->p[pl->n - 1].deferred = pl->p[pl->n - 1].fp8 = 1;
  memi_params_add(pl, "mlp.experts.gate_up_proj_bias", e_loc, 2 * I, 1, 2, 1, 0);
  memi_params_add(pl, "mlp.experts.down_proj", e_loc, H, I, 3, 1, 1);
  pl->p[pl->n - 1].deferred = pl->p[pl->n - 1].fp8 = 1;
  memi_params_add(pl, "mlp.experts.down_proj_bias", e_loc, H, 1, 2, 1, 0);
}

/* GptOssTopKRouter, its own compiled graph called after stage 1: x2 is a
** graph input, so it is always saved (memory-model.md §4.5). */
static void router_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m;
  memi_rows_add(&lp->s1, o, "x2 (router graph input)", "(m, H)", 'C', m, mc->hidden, 2, 1);
  memi_rows_add(&lp->s1, o, "topk_idx (int64)", "(m, k)", 'C', m, mc->top_k, 8, 1);
  memi_rows_add(&lp->s1, o, "top-k softmax (fp32)", "(m, k)", 'C', m, mc->top_k, 4, 1);
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, mc->experts, 2, 1)); /* logits */
}

/* GptOssExperts.forward (memory-model.md §4.2, §5.1): clamped_swiglu saves the biased
** gate_up, the down projection its input; the bias adds gather bias rows
** per token and keep group_ids through the forward. */
static void expert_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t M = d->m_act, H = mc->hidden, I = mc->moe_inter;
  int64_t gu_add = ck_mul4(o, 2, M, 2 * I, 2), down_add = ck_mul4(o, 3, M, H, 2);
  memi_rows_add(&lp->s3, o, "gate_up (biased; clamped_swiglu input)", "(M_act, 2I)", 'S', M, 2 * I, 2,
           1);
  /* group_ids; then the larger of (pre-bias gate_up + gathered bias) and
  ** (pre-bias out + gathered bias + biased out). */
  lp->s3_fwd_scratch = ck_add(o, ck_mul(o, M, 8), gu_add > down_add ? gu_add : down_add);
  memi_experts_fused_act_rows(mc, d, I, "activated (down-proj input)",
                         "fp8 per-channel copy of activated (down input)", lp);
}

static void gptoss_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  attn_shape a;
  a.heads = mc->heads;
  a.kv_heads = mc->kv_heads;
  a.head_dim = mc->head_dim;
  a.qk_norm = 0;
  a.gated = 0;
  lp->kind = mc->layer_attn[layer] == ATTN_SLIDING ? "MoE (sliding-window attention)" : "MoE";
  lp->moe = 1;
  lp->mlp_inter = mc->moe_inter;
  memi_norm_rows(mc, d, lp);
  memi_attn_gqa_rows(mc, d, &a, lp);
  memi_rows_add(&lp->s1, &lp->ovf, "bf16 sinks", "(nh)", 'C', mc->heads, 2, 1, 1);
  router_rows(mc, d, lp);
  expert_rows(mc, d, lp);
}

static int64_t gptoss_rotary(const model_config *mc) { return mc->head_dim; }

/* forward_posemb returns views of the tables: no per-chunk copy. */
const arch_ops memi_arch_gpt_oss = {
  "gpt_oss", "gpt-oss", "GptOssForCausalLM", 0, gptoss_read, gptoss_params, gptoss_plan,
  gptoss_rotary, 0, NULL,
};
