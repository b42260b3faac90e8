/*
** arch_deepseek.c — the DeepSeek family (model_type "deepseek_v2", and
** "deepseek_v3" estimated with the same layer): the keys the trainer reads,
** the parameter inventory of one decoder layer (memory-model.md §3.3) and the tensors
** stage 1 saves (§4.5): multi-head latent attention (or its latent ring
** under CP, §5.6), the shared experts and the fp32 router. Layers below
** first_k_dense_replace carry a dense MLP (layer.c's dense block, §4.4).
** Design note: docs/architectures/deepseek.md.
*/
#include <stdio.h>
#include <string.h>

#include "model/attention.h"
#include "model/model.h"

/* HF DeepseekV2Config's q_lora_rank when the key is absent (null means none). */
#define DS_DEFAULT_Q_LORA_RANK 1536

/* q_lora_rank: absent -> the HF default, null -> a single q_proj. */
static memest_code read_q_lora(const cJSON *root, model_config *mc, memest_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "q_lora_rank");
  memi_cfg_note(root, "q_lora_rank", v);
  if (v == NULL) {
    mc->q_lora_rank = DS_DEFAULT_Q_LORA_RANK;
    return MEMEST_OK;
  }
  if (cJSON_IsNull(v)) {
    mc->q_lora_rank = 0;
    return MEMEST_OK;
  }
  return memi_cfg_int(root, "q_lora_rank", 1, 0, 1, MEMEST_MAX_INTERMEDIATE,
                      "MEMEST_MAX_INTERMEDIATE", &mc->q_lora_rank, err);
}

/* rope_scaling.rope_type (or its older spelling "type") must be one the
** trainer's DeepSeekV2RotaryEmbedding builds. */
static memest_code check_rope(const cJSON *root, memest_error *err) {
  const cJSON *rs = cJSON_GetObjectItemCaseSensitive(root, "rope_scaling");
  const cJSON *t;
  memi_cfg_note(root, "rope_scaling", rs);
  if (!cJSON_IsObject(rs)) return MEMEST_OK;
  t = cJSON_GetObjectItemCaseSensitive(rs, "rope_type");
  if (t == NULL) t = cJSON_GetObjectItemCaseSensitive(rs, "type");
  if (!cJSON_IsString(t)) return MEMEST_OK;
  if (strcmp(t->valuestring, "default") == 0 || strcmp(t->valuestring, "yarn") == 0) {
    return MEMEST_OK;
  }
  return memi_err_set(err, MEMEST_E_UNSUPPORTED, "rope_scaling",
                 "config key 'rope_scaling' has rope_type '%.40s'; the trainer builds only "
                 "'default' and 'yarn' rotary tables for DeepSeek (it raises ValueError)",
                 t->valuestring);
}

/* DeepSeek's dense-layer selector that the trainer's DeepSeekV2DecoderLayer
** does not read (it reads first_k_dense_replace): moe_layer_freq, which
** DeepSeek's own modelling code does (MoE where layer % freq == 0). */
static const char *const ds_selectors[] = {"moe_layer_freq", NULL};
/* MLA has one latent, not num_key_value_heads. */
static const char *const ds_quiet[] = {"num_key_value_heads", NULL};

static const cfg_key ds_keys[] = {
  {{"kv_lora_rank"}, CFG_FIELD(kv_lora_rank), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"qk_nope_head_dim"}, CFG_FIELD(qk_nope), CK_INT, CF_REQUIRED, 0, 0, CB_HEAD_DIM, 0},
  {{"qk_rope_head_dim"}, CFG_FIELD(qk_rope), CK_INT, CF_REQUIRED, 0, 2, CB_HEAD_DIM, 0},
  {{"v_head_dim"}, CFG_FIELD(v_head), CK_INT, CF_REQUIRED, 0, 1, CB_HEAD_DIM, 0},
  /* DeepseekV2Config's attribute_map reads num_experts as n_routed_experts. */
  {{"n_routed_experts", "num_experts"}, CFG_FIELD(experts), CK_INT, CF_REQUIRED, 0, 1,
   CB_EXPERTS, 0},
  {{"num_experts_per_tok"}, CFG_FIELD(top_k), CK_INT, CF_REQUIRED, 0, 1, CB_TOP_K, 0},
  {{"moe_intermediate_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"intermediate_size"}, CFG_FIELD(dense_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"first_k_dense_replace"}, CFG_FIELD(first_k_dense), CK_INT, CF_VALUE, 0, 0, CB_LAYERS, 0},
};

/* n_shared_experts when absent: the default of the config's own class
** (DeepseekV2Config 2, DeepseekV3Config 1). */
enum { DS_SHARED_V2, DS_SHARED_V3 };
static const cfg_key ds_shared_keys[] = {
  {{"n_shared_experts"}, CFG_FIELD(n_shared), CK_INT, CF_VALUE, 2, 0, CB_SHARED_EXPERTS, 0},
  {{"n_shared_experts"}, CFG_FIELD(n_shared), CK_INT, CF_VALUE, 1, 0, CB_SHARED_EXPERTS, 0},
};

/* DeepSeekV2MoE builds its shared MLP as DeepSeekV2MLP(moe_intermediate_size
** x n_shared_experts), which falls back to intermediate_size when that
** product is 0 ("x or default"); a null count makes it raise. */
static memest_code read_shared(const cJSON *root, const cfg_key *row, model_config *mc,
                               memest_error *err) {
  char a[32];
  memest_code rc;
  if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "n_shared_experts"))) {
    return memi_err_set(err, MEMEST_E_CONFIG, "n_shared_experts",
                        "config key 'n_shared_experts' is null, and the trainer multiplies "
                        "moe_intermediate_size by it (DeepSeekV2MoE); give the count of shared "
                        "experts");
  }
  if ((rc = memi_cfg_read_keys(root, row, 1, mc, err))) return rc;
  mc->shared_inter = mc->moe_inter * mc->n_shared;
  if (mc->shared_inter > 0) return MEMEST_OK;
  mc->shared_inter = mc->dense_inter;
  mc->n_shared = 1;
  memi_cfg_warn(mc,
           "n_shared_experts is 0, but the trainer's DeepSeekV2MoE still builds a shared MLP: "
           "moe_intermediate_size x 0 falls back to intermediate_size, so every MoE layer has a "
           "shared MLP of %s, counted here",
           memi_fmt_int(a, sizeof a, mc->dense_inter));
  return MEMEST_OK;
}

static memest_code ds_read_shared(const cJSON *root, model_config *mc, int shared,
                                  memest_error *err) {
  memest_code rc;
  int64_t i;
  if ((rc = memi_cfg_common(root, mc, err))) return rc;
  mc->kv_heads = mc->heads; /* num_key_value_heads is not read: MLA has one latent */
  if ((rc = read_q_lora(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, ds_keys, sizeof ds_keys / sizeof ds_keys[0], mc, err)) ||
      (rc = check_rope(root, err)) ||
      (rc = memi_cfg_check_top_k(mc, "num_experts_per_tok", err)) ||
      (rc = read_shared(root, &ds_shared_keys[shared], mc, err)))
    return rc;
  mc->head_dim = mc->qk_nope + mc->qk_rope;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = ATTN_FULL;
    mc->layer_dense[i] = i < mc->first_k_dense;
  }
  return memi_cfg_dense_as_built(root, ds_selectors, mc,
                                 "experts on every layer from first_k_dense_replace on", err);
}

static memest_code ds_read(const cJSON *root, model_config *mc, memest_error *err) {
  return ds_read_shared(root, mc, DS_SHARED_V2, err);
}

static const cfg_key ds3_keys[] = {
  {{"num_nextn_predict_layers"}, CFG_FIELD(mtp_layers), CK_INT, CF_VALUE, 0, 0, CB_LAYERS, 0},
};

/* A deepseek_v3 config: the trainer accepts only model_type deepseek_v2;
** with that model_type it builds this same layer (its gate ignores the V3
** routing keys) and no multi-token-prediction layers. */
static memest_code ds3_read(const cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  if ((rc = ds_read_shared(root, mc, DS_SHARED_V3, err)) ||
      (rc = memi_cfg_read_keys(root, ds3_keys, 1, mc, err)))
    return rc;
  memi_cfg_warn(mc,
           "model_type '%s' is estimated with the DeepSeek-V2 layer: the trainer runs "
           "only model_type deepseek_v2, and with it builds the softmax greedy gate, not V3's "
           "sigmoid noaux_tc routing (its saved scores differ by a few MB per layer)",
           mc->model_type);
  if (mc->mtp_layers > 0) {
    memi_cfg_warn(mc,
             "num_nextn_predict_layers = %lld: the trainer builds no multi-token-prediction "
             "layers, so they are counted nowhere (neither parameters nor activations)",
             (long long)mc->mtp_layers);
  }
  return MEMEST_OK;
}

/* DeepseekV2MoE's shared_experts: one MLP of all of them, side by side. */
static const char *const shared_experts_names[3] = {"mlp.shared_experts.gate_proj.weight",
                                                    "mlp.shared_experts.up_proj.weight",
                                                    "mlp.shared_experts.down_proj.weight"};

static void ds_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, nh = mc->heads, qk = mc->qk_nope + mc->qk_rope;
  int i;
  if (mc->q_lora_rank == 0) {
    memi_params_add(pl, "self_attn.q_proj.weight", nh * qk, H, 1, 2, 0, 1);
  } else {
    memi_params_add(pl, "self_attn.q_a_proj.weight", mc->q_lora_rank, H, 1, 2, 0, 1);
    memi_params_add(pl, "self_attn.q_a_layernorm.weight", mc->q_lora_rank, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.q_b_proj.weight", nh * qk, mc->q_lora_rank, 1, 2, 0, 1);
  }
  memi_params_add(pl, "self_attn.kv_a_proj_with_mqa.weight", mc->kv_lora_rank + mc->qk_rope, H, 1, 2,
             0, 1);
  memi_params_add(pl, "self_attn.kv_a_layernorm.weight", mc->kv_lora_rank, 1, 1, 1, 0, 0);
  memi_params_add(pl, "self_attn.kv_b_proj.weight", nh * (mc->qk_nope + mc->v_head), mc->kv_lora_rank,
             1, 2, 0, 1);
  memi_params_add(pl, "self_attn.o_proj.weight", H, nh * mc->v_head, 1, 2, 0, 1);
  if (mc->layer_dense[layer]) {
    memi_mlp_add_swiglu(pl, memi_mlp_names, mc->dense_inter, H);
    /* Eager FP8Linear (forward_stage3): its quantised weight is cached. */
    for (i = pl->n - 3; i < pl->n; i++) pl->p[i].fp8 = 1;
  } else {
    memi_params_add(pl, "mlp.gate.weight", mc->experts, H, 1, 2, 0, 0);
    memi_mlp_add_swiglu(pl, shared_experts_names, mc->shared_inter, H);
  }
  memi_params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  if (!mc->layer_dense[layer]) memi_experts_add_swiglu(pl, e_loc, mc->moe_inter, H);
}

/* Appends projection (k -> n) at p[n_p]; returns the new count. */
static int proj(proj_kn *p, int n_p, int64_t k, int64_t n) {
  p[n_p].k = k;
  p[n_p].n = n;
  return n_p + 1;
}

/* MLA inside the compiled stage 1 (memory-model.md §4.5): cp = 1 runs FA4 on the
** decompressed q/k/v; cp > 1 runs the latent ring, which saves the latent
** and the RoPE'd parts instead of the decompressed K/V. */
static void mla_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m, H = mc->hidden, nh = mc->heads, qk = mc->qk_nope + mc->qk_rope;
  int64_t kvo = mc->qk_nope + mc->v_head, kvl = mc->kv_lora_rank, dr = mc->qk_rope;
  int64_t fa_in = ck_add(o, ck_mul4(o, 2, m, nh * qk, 2), ck_mul4(o, m, nh, mc->v_head, 2));
  int64_t x1 = ck_mul4(o, m, H, 2, 1), fwd, bwd;
  mla_shape a;
  proj_kn p[5];
  int np = 0;
  a.heads = nh;
  a.nope = mc->qk_nope;
  a.rope = dr;
  a.v_dim = mc->v_head;
  a.kv_lora = kvl;
  if (mc->q_lora_rank > 0) {
    memi_rows_add(&lp->s1, o, "q_a_proj output", "(m, q_lora)", 'C', m, mc->q_lora_rank, 2, 1);
    memi_rows_add(&lp->s1, o, "q_a_layernorm rstd", "(m)", 'C', m, 4, 1, 1);
  }
  memi_rows_add(&lp->s1, o, "q (q projection output)", "(m, nh*(dn+dr))", 'C', m, nh * qk, 2, 1);
  memi_rows_add(&lp->s1, o, "kv_a output (latent and k_pe)", "(m, kvl+dr)", 'C', m, kvl + dr, 2, 1);
  memi_rows_add(&lp->s1, o, "kv_a_layernorm rstd", "(m)", 'C', m, 4, 1, 1);
  memi_rows_add(&lp->s1, o, "o (attention output)", "(m, nh*dv)", 'C', m, nh * mc->v_head, 2, 1);
  memi_rows_add(&lp->s1, o, "lse (fp32)", "(b, nh, s)", 'C', m, nh, 4, 1);
  if (d->cp <= 1) {
    memi_rows_add(&lp->s1, o, "kv_b output (k_nope and v are views)", "(m, nh*(dn+dv))", 'C', m,
             nh * kvo, 2, 1);
    memi_rows_add(&lp->s1, o, "RoPE'd k_pe", "(m, dr)", 'C', m, dr, 2, 1);
    if (CHOICE_COMPILED_SAVED_UPPER) {
      memi_rows_add(&lp->s1, o, "FA-input q, k and contiguous v", "2 x (m, nh*(dn+dr)) + (m, nh*dv)",
               'C', fa_in, 1, 1, 1);
      memi_rows_add(&lp->s1, o, "normed_kv", "(m, kvl)", 'C', m, kvl, 2, 1);
    }
    /* Forward: x1, and (default set) the FA inputs and normed_kv. */
    fwd = x1;
    if (!CHOICE_COMPILED_SAVED_UPPER) {
      fwd = ck_add(o, fwd, ck_add(o, fa_in, ck_mul4(o, m, kvl, 2, 1)));
    }
    /* Backward: recomputed x1 and FA inputs, dq/dk/dv, FA4's fp32 dq
    ** accumulator, the kv_b output grad and m*H buffers. */
    bwd = ck_add(o, ck_add(o, x1, ck_mul(o, 2, fa_in)), ck_mul4(o, m, nh * qk, 4, 1));
    bwd = ck_add(o, bwd, ck_mul4(o, m, nh * kvo, 2, 1));
  } else {
    memi_rows_add(&lp->s1, o, "RoPE'd q_pe (ring input)", "(m, nh*dr)", 'C', m, nh * dr, 2, 1);
    memi_rows_add(&lp->s1, o, "normed_kv (ring input)", "(m, kvl)", 'C', m, kvl, 2, 1);
    memi_rows_add(&lp->s1, o, "RoPE'd k_pe (ring input)", "(m, dr)", 'C', m, dr, 2, 1);
    fwd = ck_add(o, x1, memi_mla_ring_fwd_bytes(d, &a, o));
    bwd = ck_add(o, x1, memi_mla_ring_bwd_bytes(d, &a, o));
  }
  bwd = ck_add(o, bwd, ck_mul4(o, CHOICE_S1_BWD_HIDDEN_BUFFERS, m, H, 2));
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, fwd);
  lp->s1_bwd_scratch = ck_add(o, lp->s1_bwd_scratch, bwd);
  /* FP8 (memory-model.md §4.8): every MLA projection is an FP8Linear inside the graph;
  ** under CP kv_b runs inside the ring on in-graph quantised weights. */
  if (mc->q_lora_rank > 0) {
    np = proj(p, np, H, mc->q_lora_rank);
    np = proj(p, np, mc->q_lora_rank, nh * qk);
  } else {
    np = proj(p, np, H, nh * qk);
  }
  np = proj(p, np, H, kvl + dr);
  if (d->cp <= 1) np = proj(p, np, kvl, nh * kvo);
  np = proj(p, np, nh * mc->v_head, H);
  memi_fp8_compiled_rows(d, p, np, "FP8 MLA projections: transposed fp8 weights and inputs", lp);
  if (d->fp8 && d->cp > 1) {
    memi_rows_add(&lp->s1, o, "FP8 kv_b weight and its transpose (ring ctx)", "2 x (nh*(dn+dv), kvl)",
             'C', 2, memi_fp8_block_t_bytes(kvl, nh * kvo, o), 1, 1);
  }
}

/* DeepSeekV2MoEGate: fp32 logits of an fp32 copy of x2, fp32 softmax,
** greedy top-k (memory-model.md §4.5). */
static void router_rows(const model_config *mc, const run_dims *d, layer_plan *lp) {
  int *o = &lp->ovf;
  int64_t m = d->m;
  memi_rows_add(&lp->s1, o, "router probs (fp32 softmax)", "(m, E)", 'C', m, mc->experts, 4, 1);
  memi_rows_add(&lp->s1, o, "topk_idx (int64)", "(m, k)", 'C', m, mc->top_k, 8, 1);
  if (CHOICE_COMPILED_SAVED_UPPER) {
    memi_rows_add(&lp->s1, o, "fp32 copy of x2 (router input)", "(m, H)", 'C', m, mc->hidden, 4, 1);
  } else {
    lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, mc->hidden, 4, 1));
  }
  lp->s1_fwd_scratch = ck_add(o, lp->s1_fwd_scratch, ck_mul4(o, m, mc->experts, 4, 1));
}

static void ds_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  memi_norm_rows(mc, d, lp);
  mla_rows(mc, d, lp);
  if (mc->layer_dense[layer]) {
    lp->kind = "dense MLP";
    lp->moe = 0;
    lp->mlp_inter = mc->dense_inter;
    return;
  }
  lp->kind = "MoE";
  lp->moe = 1;
  lp->mlp_inter = mc->moe_inter;
  memi_shared_swiglu_rows(mc, d, mc->shared_inter, lp);
  router_rows(mc, d, lp);
  memi_experts_swiglu_rows(mc, d, mc->moe_inter, lp);
}

static int64_t ds_rotary(const model_config *mc) { return mc->qk_rope; }

const arch_ops memi_arch_deepseek_v2 = {
  "deepseek_v2", "DeepSeek-V2", "DeepseekV2ForCausalLM", 1, ds_read, ds_params, ds_plan,
  ds_rotary, 1, ds_quiet,
};

const arch_ops memi_arch_deepseek_v3 = {
  "deepseek_v3", "DeepSeek-V3 (as DeepSeek-V2)", "DeepseekV3ForCausalLM", 1, ds3_read,
  ds_params, ds_plan, ds_rotary, 1, ds_quiet,
};
