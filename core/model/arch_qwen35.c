/*
** arch_qwen35.c — the Qwen3.5-MoE family (model_type "qwen3_5_moe_text";
** a "qwen3_5_moe" config nesting it in text_config is unwrapped by
** config.c): the keys the trainer reads, the parameter inventory of one
** decoder layer (memory-model.md §3.3) and the tensors stage 1 and the experts save
** (§4.5, §4.2). Layers are Gated DeltaNet (linear attention) or gated full
** attention per layer_types; every layer has a shared expert with a
** sigmoid gate and fused gate_up experts. No CP, no MTP module.
** Design note: docs/architectures/qwen3.5.md.
*/
#include "model/attention.h"
#include "model/model.h"

/* FLA's chunk size: the last dim of the WY factor A the op saves. */
#define GDN_CHUNK 64
/* HF's default when layer_types is absent: every 4th layer is full. */
#define QWEN35_DEFAULT_FULL_INTERVAL 4

/* Qwen3-MoE's dense-layer selectors, which a Qwen3.5 config may carry. */
static const char *const qwen35_selectors[] = {"decoder_sparse_step", "mlp_only_layers", NULL};
/* The multi-token-prediction module's, which the trainer does not build. */
static const char *const qwen35_quiet[] = {"mtp_use_dedicated_embeddings", NULL};

/* Beside memi_qwen_moe_keys. */
static const cfg_key qwen35_keys[] = {
  {{"head_dim"}, CFG_FIELD(head_dim), CK_INT, CF_REQUIRED, 0, 2, CB_HEAD_DIM, 0},
  {{"shared_expert_intermediate_size"}, CFG_FIELD(shared_inter), CK_INT, CF_REQUIRED, 0, 1,
   CB_INTERMEDIATE, 0},
};

static const cfg_key qwen35_layer_keys[] = {
  {{"full_attention_interval"}, CFG_FIELD(full_interval), CK_INT, CF_VALUE,
   QWEN35_DEFAULT_FULL_INTERVAL, 1, CB_LAYERS, 0},
  {{"mtp_num_hidden_layers"}, CFG_FIELD(mtp_layers), CK_INT, CF_VALUE, 0, 0, CB_LAYERS, 0},
};

/* The Gated DeltaNet widths, needed only when a layer is linear. */
static const cfg_key qwen35_linear_keys[] = {
  {{"linear_num_key_heads"}, CFG_FIELD(lin_k_heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"linear_num_value_heads"}, CFG_FIELD(lin_v_heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"linear_key_head_dim"}, CFG_FIELD(lin_k_dim), CK_INT, CF_REQUIRED, 0, 1, CB_HEAD_DIM, 0},
  {{"linear_value_head_dim"}, CFG_FIELD(lin_v_dim), CK_INT, CF_REQUIRED, 0, 1, CB_HEAD_DIM, 0},
  {{"linear_conv_kernel_dim"}, CFG_FIELD(conv_kernel), CK_INT, CF_REQUIRED, 0, 1,
   CB_CONV_KERNEL, 0},
};

static memest_code read_linear(const cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  if ((rc = memi_cfg_read_keys(root, qwen35_linear_keys,
                               sizeof qwen35_linear_keys / sizeof qwen35_linear_keys[0], mc, err)))
    return rc;
  if (mc->lin_v_heads % mc->lin_k_heads != 0) {
    return memi_err_set(err, MEMEST_E_CONFIG, "linear_num_value_heads",
                   "config key 'linear_num_value_heads' (%lld) must be a multiple of "
                   "linear_num_key_heads (%lld): q and k are repeated to the value heads",
                   (long long)mc->lin_v_heads, (long long)mc->lin_k_heads);
  }
  return MEMEST_OK;
}

/* partial_rotary_factor from rope_parameters (or the top level), default 1. */
static memest_code read_rotary(const cJSON *root, model_config *mc, memest_error *err) {
  const cJSON *rp = cJSON_GetObjectItemCaseSensitive(root, "rope_parameters");
  memi_cfg_note(root, "rope_parameters", rp);
  if (cJSON_IsObject(rp) &&
      cJSON_GetObjectItemCaseSensitive(rp, "partial_rotary_factor") != NULL) {
    return memi_cfg_num(rp, "partial_rotary_factor", 1.0, 0.0, 1.0, &mc->partial_rotary, err);
  }
  return memi_cfg_num(root, "partial_rotary_factor", 1.0, 0.0, 1.0, &mc->partial_rotary, err);
}

static memest_code qwen35_read(const cJSON *root, model_config *mc, memest_error *err) {
  static const char *const names[] = {"linear_attention", "full_attention"};
  static const unsigned char kinds[] = {ATTN_LINEAR, ATTN_FULL};
  memest_code rc;
  int64_t i, linear = 0;
  int present, gate;
  if ((rc = memi_cfg_common(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, memi_qwen_moe_keys, MEMI_QWEN_MOE_KEYS, mc, err)) ||
      (rc = memi_cfg_read_keys(root, qwen35_keys, sizeof qwen35_keys / sizeof qwen35_keys[0], mc,
                               err)) ||
      (rc = memi_cfg_check_top_k(mc, "num_experts_per_tok", err)) ||
      (rc = read_rotary(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, qwen35_layer_keys,
                               sizeof qwen35_layer_keys / sizeof qwen35_layer_keys[0], mc, err)) ||
      (rc = memi_cfg_check_kv_heads(mc, err)))
    return rc;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = (i + 1) % mc->full_interval ? ATTN_LINEAR : ATTN_FULL;
    mc->layer_dense[i] = 0;
  }
  /* Qwen35MoeModel builds experts on every layer, and an output gate in every
  ** full-attention layer, whatever a config says. */
  if ((rc = memi_cfg_dense_as_built(root, qwen35_selectors, mc, "experts on every layer", err)) ||
      (rc = memi_cfg_bool(root, "attn_output_gate", 1, &gate, err)))
    return rc;
  if (!gate) {
    memi_cfg_warn(mc,
             "config key 'attn_output_gate' is false, but the trainer's Qwen3.5 attention "
             "always has the output gate (q_proj twice as wide): estimated as the trainer "
             "builds it");
  }
  if ((rc = memi_arch_layer_types(root, mc, names, kinds, 2, &present, err))) return rc;
  for (i = 0; i < mc->layers; i++) linear += mc->layer_attn[i] == ATTN_LINEAR;
  if (linear > 0 && (rc = read_linear(root, mc, err))) return rc;
  if (mc->mtp_layers > 0) {
    memi_cfg_warn(mc,
             "mtp_num_hidden_layers = %lld: the trainer builds no multi-token-prediction module "
             "for Qwen3.5, so it is counted nowhere (neither parameters nor activations)",
             (long long)mc->mtp_layers);
  }
  return MEMEST_OK;
}

static int64_t conv_dim(const model_config *mc) {
  return 2 * mc->lin_k_heads * mc->lin_k_dim + mc->lin_v_heads * mc->lin_v_dim;
}

static void qwen35_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, q = mc->heads * mc->head_dim, kv = mc->kv_heads * mc->head_dim;
  int64_t vdim = mc->lin_v_heads * mc->lin_v_dim, I = mc->moe_inter, Ish = mc->shared_inter;
  int b = mc->attention_bias, i;
  if (mc->layer_attn[layer] == ATTN_LINEAR) {
    memi_params_add(pl, "linear_attn.conv1d.weight", conv_dim(mc), 1, mc->conv_kernel, 3, 0, 1);
    memi_params_add(pl, "linear_attn.dt_bias", mc->lin_v_heads, 1, 1, 1, 0, 0);
    memi_params_add(pl, "linear_attn.A_log", mc->lin_v_heads, 1, 1, 1, 0, 0);
    memi_params_add(pl, "linear_attn.norm.weight", mc->lin_v_dim, 1, 1, 1, 0, 0);
    memi_params_add(pl, "linear_attn.in_proj_qkv.weight", conv_dim(mc), H, 1, 2, 0, 1);
    memi_params_add(pl, "linear_attn.in_proj_z.weight", vdim, H, 1, 2, 0, 1);
    memi_params_add(pl, "linear_attn.in_proj_b.weight", mc->lin_v_heads, H, 1, 2, 0, 1);
    memi_params_add(pl, "linear_attn.in_proj_a.weight", mc->lin_v_heads, H, 1, 2, 0, 1);
    memi_params_add(pl, "linear_attn.out_proj.weight", H, vdim, 1, 2, 0, 1);
  } else {
    memi_params_add(pl, "self_attn.q_proj.weight", 2 * q, H, 1, 2, 0, 1);
    if (b) memi_params_add(pl, "self_attn.q_proj.bias", 2 * q, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.k_proj.weight", kv, H, 1, 2, 0, 1);
    if (b) memi_params_add(pl, "self_attn.k_proj.bias", kv, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.v_proj.weight", kv, H, 1, 2, 0, 1);
    if (b) memi_params_add(pl, "self_attn.v_proj.bias", kv, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.o_proj.weight", H, q, 1, 2, 0, 1);
    if (b) memi_params_add(pl, "self_attn.o_proj.bias", H, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.q_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.k_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
  }
  memi_params_add(pl, "mlp.gate.weight", mc->experts, H, 1, 2, 0, 0);
  memi_mlp_add_swiglu(pl, memi_shared_expert_names, Ish, H);
  /* Not ".gate.weight", so is_muon_param sends this (1, H) matrix to Muon. */
  memi_params_add(pl, "mlp.shared_expert_gate.weight", 1, H, 1, 2, 0, 1);
  memi_params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "mlp.experts.gate_up_proj.weight", e_loc, 2 * I, H, 3, 1, 1);
  memi_params_add(pl, "mlp.experts.down_proj.weight", e_loc, H, I, 3, 1, 1);
  for (i = pl->n - 2; i < pl->n; i++) pl->p[i].deferred = pl->p[i].fp8 = 1;
}

/* Gated DeltaNet inside the compiled stage 1 (memory-model.md §4.5): the conv input
** and (padded) output, z, the delta-rule op's A/g/beta/o, the norms' rstd.
** q and k are repeated to the value heads before the op. */
static void gdn_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, H = mc->hidden, cd = conv_dim(mc), hv = mc->lin_v_heads;
  int64_t vdim = hv * mc->lin_v_dim, qk_rep = ck_mul4(o, 2, m, hv * mc->lin_k_dim, 2);
  int64_t x1 = ck_mul4(o, m, H, 2, 1), silu = ck_mul4(o, m, cd, 2, 1), fwd, bwd;
  proj_kn p[3];
  memi_rows_add(&lp->s1, o, "in_proj_qkv output (conv1d input)", "(m, conv_dim)", 'C', m, cd, 2, 1);
  memi_rows_add(&lp->s1, o, "conv1d output (padded)", "(b*(s+Kc-1), conv_dim)", 'C',
           d->b * (d->s + mc->conv_kernel - 1), cd, 2, 1);
  memi_rows_add(&lp->s1, o, "z (output-gate input)", "(m, Hv*dv)", 'C', m, vdim, 2, 1);
  memi_rows_add(&lp->s1, o, "A (WY factor, chunk 64)", "(m, Hv, 64)", 'C', m, hv * GDN_CHUNK, 2, 1);
  memi_rows_add(&lp->s1, o, "g (fp32 decay)", "(m, Hv)", 'C', m, hv, 4, 1);
  memi_rows_add(&lp->s1, o, "beta", "(m, Hv)", 'C', m, hv, 2, 1);
  memi_rows_add(&lp->s1, o, "o (delta-rule output)", "(m, Hv*dv)", 'C', m, vdim, 2, 1);
  memi_rows_add(&lp->s1, o, "gated-norm rstd", "(m*Hv)", 'C', m, hv, 4, 1);
  memi_rows_add(&lp->s1, o, "q/k l2-norm norms", "2 x (m, Hk)", 'C', 2, m, mc->lin_k_heads, 4);
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "SiLU output, repeated q/k, out_proj input",
             "(m, conv_dim) + 2 x (m, Hv*dk) + (m, Hv*dv)", 'C',
             ck_add(o, ck_add(o, silu, qk_rep), ck_mul4(o, m, vdim, 2, 1)), 1, 1, 1);
  }
  /* Forward: x1, the SiLU output, repeated q/k, b and a, the gated-norm
  ** output (FLA's own workspaces are not modelled). */
  fwd = ck_add(o, ck_add(o, x1, silu), ck_add(o, qk_rep, ck_mul4(o, 2, m, hv, 2)));
  fwd = ck_add(o, fwd, ck_mul4(o, m, vdim, 2, 1));
  /* Backward: the recomputed forward, dq/dk/dv at the value heads, the
  ** conv-input and z grads, m*H buffers. */
  bwd = ck_add(o, ck_add(o, x1, silu), ck_mul(o, 2, qk_rep));
  bwd = ck_add(o, bwd, ck_add(o, ck_mul4(o, m, vdim, 4, 1), ck_mul4(o, m, cd, 2, 1)));
  bwd = ck_add(o, bwd, ck_mul4(o, CHOICE_S1_BWD_HIDDEN_BUFFERS, m, H, 2));
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, fwd);
  lp->s1_bwd_scratch = ck_add(o, lp->s1_bwd_scratch, bwd);
  /* FP8: in_proj_qkv, in_proj_z and out_proj; in_proj_b/a stay bf16. */
  p[0].k = p[1].k = H;
  p[0].n = cd;
  p[1].n = vdim;
  p[2].k = vdim;
  p[2].n = H;
  memi_fp8_compiled_rows(d, p, 3, "FP8 in_proj_qkv/z, out_proj: transposed fp8 weights and inputs", lp);
}

/* Qwen35MoeExperts.forward: the fused gate_up output is split into two
** contiguous copies for silu_mul; the down projection keeps act. */
static void expert_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t M = d->m_act, I = mc->moe_inter;
  memi_rows_add(&lp->s3, o, "gate, up (contiguous copies; silu_mul inputs)", "2 x (M_act, I)", 'S', 2,
           M, I, 2);
  lp->s3_fwd_scratch = ck_mul4(o, M, 2 * I, 2, 1); /* the fused gate_up */
  memi_experts_fused_act_rows(mc, d, I, "act (down-proj input)",
                         "fp8 per-channel copy of act (down input)", lp);
}

static void qwen35_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  int *o = &lp->ovf;
  attn_shape a;
  lp->moe = 1;
  lp->mlp_inter = mc->moe_inter;
  memi_norm_rows(mc, d, lp);
  if (mc->layer_attn[layer] == ATTN_LINEAR) {
    lp->kind = "MoE (Gated DeltaNet)";
    gdn_rows(mc, d, lp);
  } else {
    lp->kind = "MoE (gated full attention)";
    a.heads = mc->heads;
    a.kv_heads = mc->kv_heads;
    a.head_dim = mc->head_dim;
    a.qk_norm = 1;
    a.gated = 1;
    memi_attn_gqa_rows(mc, d, &a, lp);
  }
  memi_shared_swiglu_rows(mc, d, mc->shared_inter, lp);
  memi_rows_add(&lp->s1, o, "shared expert output (sigmoid-gate product)", "(m, H)", 'C', d->m,
           mc->hidden, 2, 1);
  memi_rows_add(&lp->s1, o, "shared expert gate sigmoid", "(m, 1)", 'C', d->m, 2, 1, 1);
  memi_router_softmax_rows(mc, d, 1, lp);
  expert_rows(mc, d, lp);
}

/* Qwen35MoeRotaryEmbedding: int(head_dim * partial_rotary_factor). */
static int64_t qwen35_rotary(const model_config *mc) {
  return (int64_t)((double)mc->head_dim * mc->partial_rotary);
}

const arch_ops memi_arch_qwen35_moe = {
  "qwen3_5_moe_text", "Qwen3.5-MoE", "Qwen3_5MoeForCausalLM", 0, qwen35_read, qwen35_params,
  qwen35_plan, qwen35_rotary, 1, qwen35_quiet,
};
