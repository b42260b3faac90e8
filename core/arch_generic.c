/*
** arch_generic.c — configs whose model_type the trainer does not run
** (Mixtral, Qwen2-MoE, OLMoE, Llama 4, DBRX, Arctic, Llama-style dense
** models, ...),
** estimated from the widely used HuggingFace keys (DBRX's own, nested
** ones for DBRX) with a Qwen3-style
** layer: GQA attention (with the config's biases and q/k norms), a softmax
** top-k router, SwiGLU experts and shared experts, or a dense SwiGLU MLP on
** the layers the config's dense-layer selectors name. config.c warns that
** it approximates; config_keys.c names unread keys that carry parameters.
*/
#include <string.h>

#include "attention.h"
#include "model.h"

/* What a family's HF modelling file builds without a key saying so. */
typedef struct generic_convention {
  const char *model_type;
  int qk_norm;          /* QK_* with no q/k-norm key */
  int qk_norm_on;       /* QK_* when use_qk_norm (or a spelling) is true */
  int qkv_bias;         /* q/k/v biases with no bias key */
  int shared_is_inter;  /* every MoE layer has a shared expert of width intermediate_size */
} generic_convention;

static const generic_convention conventions[] = {
  {"qwen2_moe", QK_NONE, QK_HEAD, 1, 0},    /* Qwen2MoeAttention: bias=True on q/k/v */
  {"olmoe", QK_FULL, QK_FULL, 0, 0},        /* OlmoeAttention: q_norm/k_norm over the width */
  {"llama4_text", QK_NONE, QK_L2, 0, 1},    /* Llama4TextL2Norm has no weight; shared_expert */
  {"", QK_NONE, QK_HEAD, 0, 0},
};

static const generic_convention *convention_for(const char *model_type) {
  size_t i;
  for (i = 0; conventions[i].model_type[0]; i++) {
    if (strcmp(conventions[i].model_type, model_type) == 0) return &conventions[i];
  }
  return &conventions[i];
}

static const char *const expert_keys[] = {"num_local_experts", "num_experts", "n_routed_experts",
                                          "moe_num_experts"};
static const char *const shared_count_keys[] = {"n_shared_experts", "num_shared_experts",
                                                "moe_num_shared_experts", "num_shared_expert"};
static const char *const qk_norm_keys[] = {"use_qk_norm", "qk_layernorm", "qk_norm"};
/* Routed experts per token: the HF name, then ERNIE 4.5's and Hunyuan's. */
static const char *const top_k_keys[] = {"num_experts_per_tok", "moe_k", "moe_topk"};

static int present(const cJSON *root, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  return v != NULL && !cJSON_IsNull(v);
}

/* The first of a key's n spellings the config gives, or NULL. */
static const char *spelling(const cJSON *root, const char *const *keys, size_t n) {
  size_t k;
  for (k = 0; k < n; k++) {
    if (present(root, keys[k])) return keys[k];
  }
  return NULL;
}

/* q/k norms: a boolean key in one of its spellings, else the convention. */
static memest_code read_qk_norm(const cJSON *root, const generic_convention *cv,
                                model_config *mc, memest_error *err) {
  const char *key = spelling(root, qk_norm_keys, sizeof qk_norm_keys / sizeof qk_norm_keys[0]);
  memest_code rc;
  int on;
  mc->qk_norm = cv->qk_norm;
  if (key == NULL) return MEMEST_OK;
  if ((rc = memi_cfg_bool(root, key, 0, &on, err))) return rc;
  mc->qk_norm = on ? cv->qk_norm_on : QK_NONE;
  return MEMEST_OK;
}

/* Shared experts: Qwen2-MoE's shared_expert_intermediate_size (with its
** sigmoid gate), DeepSeek's count of moe_intermediate_size-wide experts,
** Snowflake Arctic's residual MLP (use_residual), or the family's
** convention. Arctic's is a dense SwiGLU MLP of width hidden_size beside
** the experts of every MoE layer, after an RMSNorm of its own
** (residual_layernorm); parallel_attn_mlp_res only says which of the
** layer's tensors the experts read, not their sizes. */
static memest_code read_shared(const cJSON *root, const generic_convention *cv, int64_t inter,
                               model_config *mc, memest_error *err) {
  const char *count = spelling(root, shared_count_keys,
                               sizeof shared_count_keys / sizeof shared_count_keys[0]);
  memest_code rc;
  int on, parallel;
  mc->shared_inter = 0;
  mc->n_shared = 0;
  mc->shared_gate = 0;
  mc->shared_norm = 0;
  if (present(root, "use_residual")) {
    if ((rc = memi_cfg_bool(root, "use_residual", 0, &on, err)) ||
        (rc = memi_cfg_bool(root, "parallel_attn_mlp_res", 0, &parallel, err)))
      return rc;
    if (on) {
      mc->n_shared = 1;
      mc->shared_inter = mc->hidden;
      mc->shared_norm = 1;
      return MEMEST_OK;
    }
  }
  if (present(root, "shared_expert_intermediate_size")) {
    if ((rc = memi_cfg_int(root, "shared_expert_intermediate_size", 0, 0, 0, MEMEST_MAX_INTERMEDIATE,
                           "MEMEST_MAX_INTERMEDIATE",
                      &mc->shared_inter, err)))
      return rc;
    mc->n_shared = mc->shared_inter > 0;
    mc->shared_gate = mc->shared_inter > 0;
    return MEMEST_OK;
  }
  if (count != NULL) {
    /* Hunyuan's switch for its shared MLP, when it turns it off. */
    if ((rc = memi_cfg_bool(root, "use_mixed_mlp_moe", 1, &on, err))) return rc;
    if (!on) return MEMEST_OK;
    if ((rc = memi_cfg_int(root, count, 0, 0, 0, MEMEST_MAX_SHARED_EXPERTS,
                           "MEMEST_MAX_SHARED_EXPERTS",
                      &mc->n_shared, err)))
      return rc;
    mc->shared_inter = mc->n_shared * mc->moe_inter;
    return MEMEST_OK;
  }
  if (cv->shared_is_inter) {
    mc->n_shared = 1;
    mc->shared_inter = inter;
  }
  return MEMEST_OK;
}

/* Which layers are dense: first_k_dense_replace and moe_layer_freq
** (DeepSeek), decoder_sparse_step and mlp_only_layers (Qwen2-MoE),
** moe_layer_frequency (Arctic: MoE where (i + 1) is a multiple of it),
** interleave_moe_layer_step or an explicit moe_layers list (Llama 4),
** moe_layer_start_index, moe_layer_end_index (-1: the last layer) and
** moe_layer_interval (ERNIE 4.5: MoE from start to end where (i + 1) is a
** multiple of the interval). */
static memest_code read_dense_layers(const cJSON *root, model_config *mc, memest_error *err) {
  unsigned char listed[MEMEST_MAX_LAYERS];
  int64_t first_k, freq, sparse, arctic, interleave, start, end, step, i;
  int has_list;
  memest_code rc;
  if ((rc = memi_cfg_int(root, "first_k_dense_replace", 0, 0, 0, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &first_k, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "moe_layer_start_index", 0, 0, 0, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &start, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "moe_layer_end_index", 0, -1, -1, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &end, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "moe_layer_interval", 0, 1, 1, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &step, err)))
    return rc;
  if (end < 0) end = mc->layers - 1;
  if (start > first_k) first_k = start;
  if ((rc = memi_cfg_int(root, "moe_layer_freq", 0, 1, 1, MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS",
                         &freq, err))) return rc;
  if ((rc = memi_cfg_int(root, "decoder_sparse_step", 0, 1, 1, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &sparse, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "moe_layer_frequency", 0, 1, 1, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &arctic, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "interleave_moe_layer_step", 0, 1, 1, MEMEST_MAX_LAYERS,
                         "MEMEST_MAX_LAYERS", &interleave,
                    err)))
    return rc;
  mc->first_k_dense = first_k;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_dense[i] = i < first_k || i > end || i % freq != 0 || (i + 1) % sparse != 0 ||
                         (i + 1) % arctic != 0 || (i + 1) % interleave != 0 || (i + 1) % step != 0;
  }
  memset(listed, 0, sizeof listed);
  if ((rc = memi_cfg_layer_list(root, "moe_layers", mc, listed, &has_list, err))) return rc;
  if (has_list) {
    for (i = 0; i < mc->layers; i++) mc->layer_dense[i] = !listed[i];
  }
  memset(listed, 0, sizeof listed);
  if ((rc = memi_cfg_layer_list(root, "mlp_only_layers", mc, listed, &has_list, err))) return rc;
  for (i = 0; i < mc->layers; i++) mc->layer_dense[i] |= listed[i];
  return MEMEST_OK;
}

static memest_code read_experts(const cJSON *root, const generic_convention *cv,
                                model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t inter, i;
  int any_dense = 0;
  const char *top_k = spelling(root, top_k_keys, sizeof top_k_keys / sizeof top_k_keys[0]);
  if (top_k == NULL) top_k = top_k_keys[0]; /* none: the HF name is the one asked for */
  if ((rc = memi_cfg_int(root, top_k, 1, 0, 1, MEMEST_MAX_TOP_K, "MEMEST_MAX_TOP_K",
                         &mc->top_k, err)))
    return rc;
  if ((rc = memi_cfg_check_top_k(mc, top_k, err))) return rc;
  if ((rc = memi_cfg_bool(root, "norm_topk_prob", 0, &mc->norm_topk_prob, err))) return rc;
  if ((rc = read_dense_layers(root, mc, err))) return rc;
  for (i = 0; i < mc->layers; i++) any_dense |= mc->layer_dense[i];
  if (present(root, "moe_intermediate_size")) {
    /* Experts of their own width; intermediate_size is the dense MLP's. */
    if ((rc = memi_cfg_int(root, "moe_intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE,
                           "MEMEST_MAX_INTERMEDIATE",
                      &mc->moe_inter, err)))
      return rc;
    if ((rc = memi_cfg_int(root, "intermediate_size", any_dense, mc->moe_inter, 1,
                      MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE", &inter, err)))
      return rc;
    mc->dense_inter = inter;
  } else {
    /* Mixtral, OLMoE, Llama 4: intermediate_size is the experts' width;
    ** Llama 4 names its dense MLP's intermediate_size_mlp. */
    if ((rc = memi_cfg_int(root, "intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE,
                           "MEMEST_MAX_INTERMEDIATE",
                      &mc->moe_inter, err)))
      return rc;
    inter = mc->moe_inter;
    if ((rc = memi_cfg_int(root, "intermediate_size_mlp", 0, inter, 1, MEMEST_MAX_INTERMEDIATE,
                           "MEMEST_MAX_INTERMEDIATE",
                      &mc->dense_inter, err)))
      return rc;
  }
  return read_shared(root, cv, inter, mc, err);
}

/* The generic layer is attention and an MLP. A config that says it has
** state-space (Mamba) or linear-attention layers as well (Jamba,
** Nemotron-H, Qwen3-Next, Kimi-Linear) would be miscounted as all
** attention, so it is refused by the first key that says so (config.c
** asks too, before it reads an MLA config with DeepSeek's layer). */
memest_code memi_generic_hybrid_layers(const cJSON *root, memest_error *err) {
  /* Key prefixes (a whole name is its own prefix) and the layers they show. */
  static const char *const shows[][2] = {
      {"linear_", "linear-attention"},          {"mamba_", "state-space (Mamba)"},
      {"ssm_", "state-space (Mamba)"},          {"hybrid_override_pattern", "state-space (Mamba)"},
      {"attn_layer_period", "state-space (Mamba)"}, {"layers_block_type", "state-space (Mamba)"},
  };
  const cJSON *item, *lt = cJSON_GetObjectItemCaseSensitive(root, "layer_types");
  size_t k;
  cJSON_ArrayForEach(item, root) {
    for (k = 0; k < sizeof shows / sizeof shows[0]; k++) {
      if (strncmp(item->string, shows[k][0], strlen(shows[k][0])) != 0) continue;
      return memi_err_set(err, MEMEST_E_CONFIG, item->string,
                     "config key '%.60s' says the model has %s layers, which the generic "
                     "layer (attention and an MLP) does not model",
                     item->string, shows[k][1]);
    }
  }
  /* MiniMax's attn_type_list: 1 is softmax attention, 0 lightning (linear). */
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "attn_type_list")) {
    if (cJSON_IsNumber(item) && item->valuedouble != 1) {
      return memi_err_set(err, MEMEST_E_CONFIG, "attn_type_list",
                     "config key 'attn_type_list' has a layer of type %g (1 is softmax "
                     "attention), a linear-attention layer, which the generic layer (attention "
                     "and an MLP) does not model",
                     item->valuedouble);
    }
  }
  if (!cJSON_IsArray(lt)) return MEMEST_OK;
  cJSON_ArrayForEach(item, lt) {
    if (cJSON_IsString(item) && strcmp(item->valuestring, "full_attention") != 0 &&
        strcmp(item->valuestring, "sliding_attention") != 0 &&
        strcmp(item->valuestring, "attention") != 0) {
      return memi_err_set(err, MEMEST_E_CONFIG, "layer_types",
                     "config key 'layer_types' lists '%.40s' layers, which the generic layer "
                     "(attention and an MLP) does not model",
                     item->valuestring);
    }
  }
  return MEMEST_OK;
}

/* A whole number DBRX nests in ffn_config, which it cannot do without. */
static memest_code ffn_int(const cJSON *ffn, const char *key, int64_t hi, const char *limit,
                           int64_t *out, memest_error *err) {
  if (!present(ffn, key)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key,
                        "config key '%s' in ffn_config is missing; add it from the model's "
                        "published config.json",
                        key);
  }
  return memi_cfg_int(ffn, key, 1, 0, 1, hi, limit, out, err);
}

/* DBRX names the keys every decoder has after MPT (d_model, n_heads,
** n_layers, max_seq_len) and nests its attention's and experts' keys in
** attn_config and ffn_config. Its layer is the generic one: fused Wqkv
** (GQA, no biases), bias-free LayerNorms (a weight each, as RMSNorm), a
** softmax router and GLU experts (w1, v1, w2: SwiGLU's three matrices),
** with no shared expert and no dense layer. */
static memest_code read_dbrx(const cJSON *root, const cJSON *attn, const cJSON *ffn,
                             model_config *mc, memest_error *err) {
  static const cfg_common_names mpt = {"d_model", "n_heads", "n_layers", "max_seq_len"};
  memest_code rc;
  int64_t i;
  memi_cfg_note(root, "attn_config", attn);
  memi_cfg_note(root, "ffn_config", ffn);
  if ((rc = memi_cfg_common_named(root, &mpt, mc, err))) return rc;
  if ((rc = memi_cfg_int(attn, "kv_n_heads", 0, mc->heads, 1, MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS",
                         &mc->kv_heads, err)) ||
      (rc = ffn_int(ffn, "ffn_hidden_size", MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE",
                    &mc->moe_inter, err)) ||
      (rc = ffn_int(ffn, "moe_num_experts", MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS",
                    &mc->experts, err)) ||
      (rc = ffn_int(ffn, "moe_top_k", MEMEST_MAX_TOP_K, "MEMEST_MAX_TOP_K", &mc->top_k, err)) ||
      (rc = memi_cfg_check_top_k(mc, "moe_top_k", err)))
    return rc;
  if (mc->hidden % mc->heads != 0) {
    return memi_err_set(err, MEMEST_E_CONFIG, "n_heads",
                        "config key 'n_heads' (%lld) must divide d_model (%lld)",
                        (long long)mc->heads, (long long)mc->hidden);
  }
  if (mc->heads % mc->kv_heads != 0) {
    return memi_err_set(err, MEMEST_E_CONFIG, "kv_n_heads",
                        "config key 'kv_n_heads' in attn_config (%lld) must divide n_heads (%lld)",
                        (long long)mc->kv_heads, (long long)mc->heads);
  }
  mc->head_dim = mc->hidden / mc->heads;
  mc->attention_bias = mc->bias_o = 0;
  mc->qk_norm = QK_NONE;
  mc->dense_inter = mc->moe_inter;
  mc->shared_inter = mc->n_shared = 0;
  mc->shared_gate = mc->shared_norm = 0;
  for (i = 0; i < mc->layers; i++) {
    mc->layer_attn[i] = ATTN_FULL;
    mc->layer_dense[i] = 0;
  }
  return MEMEST_OK;
}

static memest_code generic_read(const cJSON *root, model_config *mc, memest_error *err) {
  const generic_convention *cv = convention_for(mc->model_type);
  const cJSON *attn = cJSON_GetObjectItemCaseSensitive(root, "attn_config");
  const cJSON *ffn = cJSON_GetObjectItemCaseSensitive(root, "ffn_config");
  memest_code rc;
  int64_t i;
  int qkv_bias;
  size_t k;
  if ((rc = memi_generic_hybrid_layers(root, err))) return rc;
  if (cJSON_IsObject(attn) && cJSON_IsObject(ffn) && present(root, "d_model"))
    return read_dbrx(root, attn, ffn, mc, err);
  if ((rc = memi_cfg_common(root, mc, err))) return rc;
  if ((rc = memi_cfg_int(root, "num_key_value_heads", 0, mc->heads, 1, MEMEST_MAX_HEADS,
                         "MEMEST_MAX_HEADS",
                    &mc->kv_heads, err)))
    return rc;
  /* head_dim, or Hunyuan's attention_head_dim, or hidden / heads. */
  mc->head_dim = mc->hidden / mc->heads;
  if (present(root, "attention_head_dim") &&
      (rc = memi_cfg_int(root, "attention_head_dim", 0, 0, 1, MEMEST_MAX_HEAD_DIM,
                         "MEMEST_MAX_HEAD_DIM", &mc->head_dim, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "head_dim", 0, mc->head_dim, 1, MEMEST_MAX_HEAD_DIM,
                         "MEMEST_MAX_HEAD_DIM",
                    &mc->head_dim, err)))
    return rc;
  /* attention_bias: Llama's spelling, biases on q, k, v and o; qkv_bias: q, k, v only. */
  if ((rc = memi_cfg_bool(root, "attention_bias", 0, &mc->bias_o, err))) return rc;
  if ((rc = memi_cfg_bool(root, "qkv_bias", cv->qkv_bias || mc->bias_o, &qkv_bias, err))) return rc;
  mc->attention_bias = qkv_bias;
  if ((rc = read_qk_norm(root, cv, mc, err))) return rc;
  mc->experts = 0;
  for (k = 0; k < sizeof expert_keys / sizeof expert_keys[0] && mc->experts == 0; k++) {
    if (!present(root, expert_keys[k])) continue;
    if ((rc = memi_cfg_int(root, expert_keys[k], 0, 0, 0, MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS",
                           &mc->experts, err)))
      return rc;
  }
  for (i = 0; i < mc->layers; i++) mc->layer_attn[i] = ATTN_FULL;
  if (mc->experts > 0) {
    if ((rc = read_experts(root, cv, mc, err))) return rc;
  } else {
    if ((rc = memi_cfg_int(root, "intermediate_size", 1, 0, 1, MEMEST_MAX_INTERMEDIATE,
                           "MEMEST_MAX_INTERMEDIATE",
                      &mc->dense_inter, err)))
      return rc;
    for (i = 0; i < mc->layers; i++) mc->layer_dense[i] = 1;
  }
  return memi_cfg_check_kv_heads(mc, err);
}

/* Arctic's residual MLP: w1 and w3 (gate and up), w2 (down). */
static const char *const arctic_residual_names[3] = {"residual_mlp.w1.weight", "residual_mlp.w3.weight",
                                                     "residual_mlp.w2.weight"};

static int generic_dense(const model_config *mc, int layer) {
  return mc->experts == 0 || mc->layer_dense[layer];
}

static void generic_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, q = mc->heads * mc->head_dim, kv = mc->kv_heads * mc->head_dim;
  int i;
  memi_attn_add_gqa(pl, H, mc->heads, mc->kv_heads, mc->head_dim, mc->attention_bias, mc->bias_o);
  if (mc->qk_norm == QK_HEAD) {
    memi_params_add(pl, "self_attn.q_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.k_norm.weight", mc->head_dim, 1, 1, 1, 0, 0);
  } else if (mc->qk_norm == QK_FULL) {
    memi_params_add(pl, "self_attn.q_norm.weight", q, 1, 1, 1, 0, 0);
    memi_params_add(pl, "self_attn.k_norm.weight", kv, 1, 1, 1, 0, 0);
  }
  memi_params_add(pl, "input_layernorm.weight", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "post_attention_layernorm.weight", H, 1, 1, 1, 0, 0);
  if (!generic_dense(mc, layer)) {
    memi_params_add(pl, "mlp.gate.weight", mc->experts, H, 1, 2, 0, 0);
    memi_experts_add_swiglu(pl, e_loc, mc->moe_inter, H);
    if (mc->shared_norm) {
      memi_params_add(pl, "residual_layernorm.weight", H, 1, 1, 1, 0, 0);
      memi_mlp_add_swiglu(pl, arctic_residual_names, mc->shared_inter, H);
    } else if (mc->shared_inter > 0) {
      memi_mlp_add_swiglu(pl, memi_shared_expert_names, mc->shared_inter, H);
    }
    if (mc->shared_gate) memi_params_add(pl, "mlp.shared_expert_gate.weight", 1, H, 1, 2, 0, 0);
  } else {
    memi_mlp_add_swiglu(pl, memi_mlp_names, mc->dense_inter, H);
    /* Estimated as an eager FP8Linear MLP: its quantised weights are cached. */
    for (i = pl->n - 3; i < pl->n; i++) pl->p[i].fp8 = 1;
  }
}

static void generic_plan(const model_config *mc, const run_dims *d, int layer, layer_plan *lp) {
  attn_shape a;
  a.heads = mc->heads;
  a.kv_heads = mc->kv_heads;
  a.head_dim = mc->head_dim;
  a.qk_norm = mc->qk_norm != QK_NONE;
  a.gated = 0;
  memi_norm_rows(mc, d, lp);
  memi_attn_gqa_rows(mc, d, &a, lp);
  if (!generic_dense(mc, layer)) {
    lp->kind = "MoE";
    lp->moe = 1;
    lp->mlp_inter = mc->moe_inter;
    if (mc->shared_norm) memi_residual_norm_rows(mc, d, lp);
    if (mc->shared_inter > 0) memi_shared_swiglu_rows(mc, d, mc->shared_inter, lp);
    memi_router_softmax_rows(mc, d, 1, lp);
    memi_experts_swiglu_rows(mc, d, mc->moe_inter, lp);
  } else {
    lp->kind = "dense MLP";
    lp->moe = 0;
    lp->mlp_inter = mc->dense_inter;
  }
}

static int64_t generic_rotary(const model_config *mc) { return mc->head_dim; }

const arch_ops memi_arch_generic_moe = {
  "", "generic (Qwen3-style layer)", "", 1, generic_read, generic_params, generic_plan,
  generic_rotary, 1,
};
