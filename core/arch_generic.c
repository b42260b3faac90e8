/*
** arch_generic.c — configs whose model_type the trainer does not run
** (Mixtral, Llama-style dense models, ...), estimated from the generic
** HuggingFace keys with a Qwen3-style layer: GQA attention without q/k
** norms, a softmax top-k router, SwiGLU experts; or a dense SwiGLU MLP
** when the config names no experts. config.c warns that it approximates.
*/
#include "attention.h"
#include "model.h"

static const char *const expert_keys[] = {"num_local_experts", "num_experts", "n_routed_experts"};

static memest_code generic_read(const cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t i;
  size_t k;
  if ((rc = cfg_common(root, mc, err))) return rc;
  if ((rc = cfg_int(root, "num_key_value_heads", 0, mc->heads, 1, MEMEST_MAX_HEADS,
                    &mc->kv_heads, err)))
    return rc;
  if ((rc = cfg_int(root, "head_dim", 0, mc->hidden / mc->heads, 1, MEMEST_MAX_HEAD_DIM,
                    &mc->head_dim, err)))
    return rc;
  if ((rc = cfg_bool(root, "attention_bias", 0, &mc->attention_bias, err))) return rc;
  mc->experts = 0;
  for (k = 0; k < sizeof expert_keys / sizeof expert_keys[0] && mc->experts == 0; k++) {
    if ((rc = cfg_int(root, expert_keys[k], 0, 0, 0, MEMEST_MAX_EXPERTS, &mc->experts, err)))
      return rc;
  }
  if (mc->experts > 0) {
    if ((rc = cfg_int(root, "num_experts_per_tok", 1, 0, 1, MEMEST_MAX_TOP_K, &mc->top_k, err)))
      return rc;
    if ((rc = cfg_check_top_k(mc, err))) return rc;
    if (cJSON_GetObjectItemCaseSensitive(root, "moe_intermediate_size") != NULL) {
      rc = cfg_int(root, "moe_intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE, &mc->moe_inter,
                   err);
    } else {
      rc = cfg_int(root, "intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE, &mc->moe_inter,
                   err);
    }
    if (rc) return rc;
  } else {
    if ((rc = cfg_int(root, "intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE,
                      &mc->dense_inter, err)))
      return rc;
  }
  if ((rc = cfg_check_kv_heads(mc, err))) return rc;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = ATTN_FULL;
    mc->layer_dense[i] = mc->experts == 0;
  }
  return MEMEST_OK;
}

static void generic_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden;
  int i;
  (void)layer;
  attn_add_gqa(pl, H, mc->heads, mc->kv_heads, mc->head_dim, mc->attention_bias, 0);
  params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  if (mc->experts > 0) {
    params_add(pl, "mlp.gate.weight", mc->experts, H, 1, 2, 0, 0);
    experts_add_swiglu(pl, e_loc, mc->moe_inter, H);
  } else {
    params_add(pl, "mlp.gate_proj.weight", mc->dense_inter, H, 1, 2, 0, 1);
    params_add(pl, "mlp.up_proj.weight", mc->dense_inter, H, 1, 2, 0, 1);
    params_add(pl, "mlp.down_proj.weight", H, mc->dense_inter, 1, 2, 0, 1);
    /* Estimated as an eager FP8Linear MLP: its quantised weights are cached. */
    for (i = pl->n - 3; i < pl->n; i++) pl->p[i].fp8 = 1;
  }
}

static void generic_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  attn_shape a;
  (void)layer;
  a.heads = mc->heads;
  a.kv_heads = mc->kv_heads;
  a.head_dim = mc->head_dim;
  a.qk_norm = 0;
  a.gated = 0;
  norm_rows(mc, d, lp);
  attn_gqa_rows(mc, d, &a, lp);
  if (mc->experts > 0) {
    lp->kind = "MoE";
    lp->moe = 1;
    lp->mlp_inter = mc->moe_inter;
    router_softmax_rows(mc, d, 1, lp);
    experts_swiglu_rows(mc, d, mc->moe_inter, lp);
  } else {
    lp->kind = "dense MLP";
    lp->moe = 0;
    lp->mlp_inter = mc->dense_inter;
  }
}

static int64_t generic_rotary(const model_config *mc) { return mc->head_dim; }

const arch_ops arch_generic_moe = {
  "", "generic (Qwen3-style layer)", 1, generic_read, generic_params, generic_plan,
  generic_rotary, 1,
};
