/*
** arch_qwen3.c — the Qwen3-MoE family (model_type "qwen3_moe"): the keys
** the trainer reads, the parameter inventory of one decoder layer
** (memory-model.md §3.3) and the tensors stage 1 and the experts save
** (memory-model.md §4.5, §4.2).
** Every layer is MoE; GQA attention with q/k RMSNorm and full RoPE.
*/
#include <stdio.h>

#include "model/attention.h"
#include "model/model.h"

/* The config's dense-layer selectors (HF's Qwen3MoeDecoderLayer). */
static const char *const qwen3_selectors[] = {"decoder_sparse_step", "mlp_only_layers", NULL};
/* The dense MLP's width, which only those selectors' layers would use. */
static const char *const qwen3_quiet[] = {"intermediate_size", NULL};

/* Beside memi_qwen_moe_keys: the trainer has no head_dim fallback, memest
** hidden / heads. */
static const cfg_key qwen3_keys[] = {
  {{"head_dim"}, CFG_FIELD(head_dim), CK_INT, CF_PER_HEAD, 0, 1, CB_HEAD_DIM, 0},
  {{"norm_topk_prob"}, CFG_FIELD(norm_topk_prob), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
};

static memest_code qwen3_read(const cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t i;
  if ((rc = memi_cfg_common(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, memi_qwen_moe_keys, MEMI_QWEN_MOE_KEYS, mc, err)) ||
      (rc = memi_cfg_read_keys(root, qwen3_keys, sizeof qwen3_keys / sizeof qwen3_keys[0], mc, err)) ||
      (rc = memi_cfg_check_top_k(mc, "num_experts_per_tok", err)) ||
      (rc = memi_cfg_check_kv_heads(mc, err)))
    return rc;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = ATTN_FULL;
    mc->layer_dense[i] = 0;
  }
  /* Qwen3MoeDecoderLayer's selectors: Qwen3MoeModel ignores them. */
  return memi_cfg_dense_as_built(root, qwen3_selectors, mc, "experts on every layer", err);
}

static void qwen3_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden;
  (void)layer;
  memi_attn_add_gqa(pl, H, mc->heads, mc->kv_heads, mc->head_dim, mc->attention_bias,
               mc->attention_bias);
  memi_params_add(pl, "self_attn.q_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
  memi_params_add(pl, "self_attn.k_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
  memi_params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "mlp.gate.weight", mc->experts, H, 1, 2, 0, 0);
  memi_experts_add_swiglu(pl, e_loc, mc->moe_inter, H);
}

static void qwen3_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  attn_shape a;
  (void)layer;
  a.heads = mc->heads;
  a.kv_heads = mc->kv_heads;
  a.head_dim = mc->head_dim;
  a.qk_norm = 1;
  a.gated = 0;
  lp->kind = "MoE";
  lp->moe = 1;
  lp->mlp_inter = mc->moe_inter;
  memi_norm_rows(mc, d, lp);
  memi_attn_gqa_rows(mc, d, &a, lp);
  memi_router_softmax_rows(mc, d, mc->norm_topk_prob, lp);
  memi_experts_swiglu_rows(mc, d, mc->moe_inter, lp);
}

static int64_t qwen3_rotary(const model_config *mc) { return mc->head_dim; }

const arch_ops memi_arch_qwen3_moe = {
  "qwen3_moe", "Qwen3-MoE", "Qwen3MoeForCausalLM", 1, qwen3_read, qwen3_params, qwen3_plan,
  qwen3_rotary, 1, qwen3_quiet,
};
