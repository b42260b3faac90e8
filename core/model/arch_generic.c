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

#include "model/attention.h"
#include "model/model.h"

/* What a family's HF modelling file builds without a key saying so. */
typedef struct generic_convention {
  const char *model_type;
  int qk_norm;          /* QK_* with no q/k-norm key */
  int qk_norm_on;       /* QK_* when use_qk_norm (or a spelling) is true */
  int qkv_bias;         /* q/k/v biases with no bias key */
  int shared_is_inter;  /* every MoE layer has a shared expert of width intermediate_size */
  int attention_experts;/* JetMoE's mixture of attention heads (model.h) */
} generic_convention;

static const generic_convention conventions[] = {
  {"qwen2_moe", QK_NONE, QK_HEAD, 1, 0, 0}, /* Qwen2MoeAttention: bias=True on q/k/v */
  {"olmoe", QK_FULL, QK_FULL, 0, 0, 0},     /* OlmoeAttention: q_norm/k_norm over the width */
  {"llama4_text", QK_NONE, QK_L2, 0, 1, 0}, /* Llama4TextL2Norm has no weight; shared_expert */
  {"jetmoe", QK_NONE, QK_HEAD, 0, 0, 1},    /* JetMoeMoA: the attention's experts */
  {"", QK_NONE, QK_HEAD, 0, 0, 0},
};

static const generic_convention *convention_for(const char *model_type) {
  size_t i;
  for (i = 0; conventions[i].model_type[0]; i++) {
    if (strcmp(conventions[i].model_type, model_type) == 0) return &conventions[i];
  }
  return &conventions[i];
}

/* The generic keys, in their common spellings (HF's first). */
static const cfg_key attention_keys[] = {
  {{"num_key_value_heads"}, CFG_FIELD(kv_heads), CK_INT, CF_FIELD, CFG_FIELD(heads), 1, CB_HEADS, 0},
  /* head_dim, or Hunyuan's attention_head_dim, or hidden / heads. */
  {{"head_dim", "attention_head_dim"}, CFG_FIELD(head_dim), CK_INT, CF_PER_HEAD, 0, 1,
   CB_HEAD_DIM, 0},
  /* attention_bias: Llama's spelling, biases on q, k, v and o. */
  {{"attention_bias"}, CFG_FIELD(bias_o), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
  /* Hunyuan gives its expert count, top-k, widths and shared count one per layer. */
  /* Absent: a dense model; given, at least one expert (0 is refused, as
  ** every family refuses it). */
  {{"num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"},
   CFG_FIELD(experts), CK_INT, CF_NONE, 0, 1, CB_EXPERTS, 1},
};
/* The rotary tables' width: rotary_dim outright (MiniMax), else
** head_dim x partial_rotary_factor (GLM-4.5); read below. */
static const cfg_key rotary_key = {{"rotary_dim"}, CFG_FIELD(rotary_dim), CK_INT, CF_NONE, 0, 2,
                                   CB_HEAD_DIM, 0};

static const cfg_key router_keys[] = {
  /* Routed experts per token: the HF name, then ERNIE 4.5's and Hunyuan's. */
  {{"num_experts_per_tok", "moe_k", "moe_topk"}, CFG_FIELD(top_k), CK_INT, CF_REQUIRED, 0, 1,
   CB_TOP_K, 1},
  {{"norm_topk_prob"}, CFG_FIELD(norm_topk_prob), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
};
/* The widths, as the config names them: experts of moe_intermediate_size
** with dense layers of intermediate_size (Qwen2-MoE, DeepSeekMoE), which
** only a config with dense layers must give; or experts of
** intermediate_size with dense layers of intermediate_size_mlp (Mixtral,
** OLMoE, Llama 4); or a dense model's intermediate_size. */
enum { W_MOE, W_DENSE_BESIDE, W_DENSE_BESIDE_NEEDED, W_EXPERTS, W_DENSE_MLP, W_DENSE_MODEL };
static const cfg_key width_keys[] = {
  {{"moe_intermediate_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 1},
  {{"intermediate_size"}, CFG_FIELD(dense_inter), CK_INT, CF_FIELD, CFG_FIELD(moe_inter), 1,
   CB_INTERMEDIATE, 0},
  {{"intermediate_size"}, CFG_FIELD(dense_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"intermediate_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"intermediate_size_mlp"}, CFG_FIELD(dense_inter), CK_INT, CF_FIELD, CFG_FIELD(moe_inter), 1,
   CB_INTERMEDIATE, 0},
  {{"intermediate_size"}, CFG_FIELD(dense_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
};
/* Shared experts: Qwen2-MoE's width, or DeepSeek's count (Hunyuan's per layer). */
enum { S_WIDTH, S_COUNT };
static const cfg_key shared_keys[] = {
  {{"shared_expert_intermediate_size"}, CFG_FIELD(shared_inter), CK_INT, CF_VALUE, 0, 0,
   CB_INTERMEDIATE, 0},
  {{"n_shared_experts", "num_shared_experts", "moe_num_shared_experts", "num_shared_expert"},
   CFG_FIELD(n_shared), CK_INT, CF_VALUE, 0, 0, CB_SHARED_EXPERTS, 1},
};
/* JetMoE's head width: kv_channels (JetMoeConfig maps head_dim to it), HF's
** default 128. */
static const cfg_key kv_channels_key = {{"kv_channels", "head_dim"}, CFG_FIELD(head_dim), CK_INT,
                                        CF_VALUE, 128, 1, CB_HEAD_DIM, 0};
static const cfg_key qk_norm_key = {{"use_qk_norm", "qk_layernorm", "qk_norm"}, 0, CK_BOOL,
                                    CF_VALUE, 0, 0, CB_BOOL, 0};

static int present(const cJSON *root, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  return v != NULL && !cJSON_IsNull(v);
}

static memest_code read_row(const cJSON *root, const cfg_key *row, model_config *mc,
                            memest_error *err) {
  return memi_cfg_read_keys(root, row, 1, mc, err);
}

/* q/k norms: a boolean key in one of its spellings, else the convention. */
static memest_code read_qk_norm(const cJSON *root, const generic_convention *cv,
                                model_config *mc, memest_error *err) {
  const char *key = memi_cfg_given(root, &qk_norm_key);
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
    if ((rc = read_row(root, &shared_keys[S_WIDTH], mc, err))) return rc;
    mc->n_shared = mc->shared_inter > 0;
    mc->shared_gate = mc->shared_inter > 0;
    return MEMEST_OK;
  }
  if (memi_cfg_given(root, &shared_keys[S_COUNT]) != NULL) {
    /* Hunyuan's switch for its shared MLP, when it turns it off. */
    if ((rc = memi_cfg_bool(root, "use_mixed_mlp_moe", 1, &on, err))) return rc;
    if (!on) return MEMEST_OK;
    if ((rc = read_row(root, &shared_keys[S_COUNT], mc, err))) return rc;
    mc->shared_inter = mc->n_shared * mc->moe_inter;
    return MEMEST_OK;
  }
  if (cv->shared_is_inter) {
    mc->n_shared = 1;
    mc->shared_inter = inter;
  }
  return MEMEST_OK;
}

static memest_code read_experts(const cJSON *root, const generic_convention *cv,
                                model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t i;
  int any_dense = 0;
  const char *top_k;
  if ((rc = memi_cfg_read_keys(root, router_keys, 1, mc, err))) return rc;
  top_k = memi_cfg_given(root, &router_keys[0]);
  if ((rc = memi_cfg_check_top_k(mc, top_k ? top_k : router_keys[0].names[0], err)) ||
      (rc = read_row(root, &router_keys[1], mc, err)) ||
      (rc = memi_cfg_dense_layers(root, NULL, mc, mc->layer_dense, &mc->first_k_dense, err)))
    return rc;
  for (i = 0; i < mc->layers; i++) any_dense |= mc->layer_dense[i];
  if (present(root, "moe_intermediate_size")) {
    /* Experts of their own width; intermediate_size is the dense MLP's. */
    if ((rc = read_row(root, &width_keys[W_MOE], mc, err)) ||
        (rc = read_row(root, &width_keys[any_dense ? W_DENSE_BESIDE_NEEDED : W_DENSE_BESIDE], mc,
                       err)))
      return rc;
    return read_shared(root, cv, mc->dense_inter, mc, err);
  }
  if ((rc = read_row(root, &width_keys[W_EXPERTS], mc, err)) ||
      (rc = read_row(root, &width_keys[W_DENSE_MLP], mc, err)))
    return rc;
  return read_shared(root, cv, mc->moe_inter, mc, err);
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
  const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "attn_type_list");
  size_t k;
  /* Read: what they say of every layer is checked below. */
  memi_cfg_note(root, "layer_types", lt);
  memi_cfg_note(root, "attn_type_list", types);
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
  cJSON_ArrayForEach(item, types) {
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

/* DBRX's keys: the ones every decoder has, named after MPT; kv_n_heads in
** attn_config; the experts' in ffn_config, which it cannot do without. */
static const cfg_key dbrx_keys[] = {
  {{"d_model"}, CFG_FIELD(hidden), CK_INT, CF_REQUIRED, 0, 1, CB_HIDDEN, 0},
  {{"n_heads"}, CFG_FIELD(heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"n_layers"}, CFG_FIELD(layers), CK_INT, CF_REQUIRED, 0, 1, CB_LAYERS, 0},
  {{"vocab_size"}, CFG_FIELD(vocab), CK_INT, CF_REQUIRED, 0, 1, CB_VOCAB, 0},
  {{"max_seq_len"}, CFG_FIELD(max_positions), CK_INT, CF_VALUE, 0, 0, CB_POSITIONS, 0},
  {{"tie_word_embeddings"}, CFG_FIELD(tied_embeddings), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
};
static const cfg_key dbrx_attn_keys[] = {
  {{"kv_n_heads"}, CFG_FIELD(kv_heads), CK_INT, CF_FIELD, CFG_FIELD(heads), 1, CB_HEADS, 0},
};
static const cfg_key dbrx_ffn_keys[] = {
  {{"ffn_hidden_size"}, CFG_FIELD(moe_inter), CK_INT, CF_REQUIRED, 0, 1, CB_INTERMEDIATE, 0},
  {{"moe_num_experts"}, CFG_FIELD(experts), CK_INT, CF_REQUIRED, 0, 1, CB_EXPERTS, 0},
  {{"moe_top_k"}, CFG_FIELD(top_k), CK_INT, CF_REQUIRED, 0, 1, CB_TOP_K, 0},
};

/* DBRX names the keys every decoder has after MPT (d_model, n_heads,
** n_layers, max_seq_len) and nests its attention's and experts' keys in
** attn_config and ffn_config. Its layer is the generic one: fused Wqkv
** (GQA, no biases), bias-free LayerNorms (a weight each, as RMSNorm), a
** softmax router and GLU experts (w1, v1, w2: SwiGLU's three matrices),
** with no shared expert and no dense layer. */
static memest_code read_dbrx(const cJSON *root, const cJSON *attn, const cJSON *ffn,
                             model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t i;
  size_t k;
  memi_cfg_note(root, "attn_config", attn);
  memi_cfg_note(root, "ffn_config", ffn);
  if ((rc = memi_cfg_read_keys(root, dbrx_keys, sizeof dbrx_keys / sizeof dbrx_keys[0], mc, err)) ||
      (rc = memi_cfg_read_keys(attn, dbrx_attn_keys, 1, mc, err)))
    return rc;
  for (k = 0; k < sizeof dbrx_ffn_keys / sizeof dbrx_ffn_keys[0]; k++) {
    const char *key = dbrx_ffn_keys[k].names[0];
    if (!present(ffn, key)) {
      return memi_err_set(err, MEMEST_E_CONFIG, key,
                          "config key '%s' in ffn_config is missing; add it from the model's "
                          "published config.json",
                          key);
    }
    if ((rc = read_row(ffn, &dbrx_ffn_keys[k], mc, err))) return rc;
  }
  if ((rc = memi_cfg_check_top_k(mc, "moe_top_k", err))) return rc;
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
  mc->partial_rotary = 1.0;
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

/* JetMoE (JetMoeConfig, JetMoeMoA): every layer's attention routes each
** token to top_k of the experts, each a query projection of
** num_key_value_heads x kv_channels and an output projection back, beside
** one k/v projection; so it has num_key_value_heads x top_k query heads,
** whatever num_attention_heads says. */
static memest_code read_attention_experts(const cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  int64_t heads = mc->kv_heads * mc->top_k, i;
  if ((rc = read_row(root, &kv_channels_key, mc, err))) return rc;
  if (heads != mc->heads) {
    memi_cfg_warn(mc,
             "num_attention_heads = %lld is not used: JetMoE's attention has num_key_value_heads "
             "x num_experts_per_tok = %lld query heads (JetMoeConfig sets it so)",
             (long long)mc->heads, (long long)heads);
    mc->heads = heads;
  }
  mc->attention_experts = 1;
  for (i = 0; i < mc->layers; i++) mc->layer_dense[i] = 0;
  return MEMEST_OK;
}

static memest_code generic_read(const cJSON *root, model_config *mc, memest_error *err) {
  const generic_convention *cv = convention_for(mc->model_type);
  const cJSON *attn = cJSON_GetObjectItemCaseSensitive(root, "attn_config");
  const cJSON *ffn = cJSON_GetObjectItemCaseSensitive(root, "ffn_config");
  const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "attn_type_list");
  memest_code rc;
  int64_t i;
  int qkv_bias;
  if ((rc = memi_generic_hybrid_layers(root, err))) return rc;
  if (cJSON_IsObject(attn) && cJSON_IsObject(ffn) && present(root, "d_model"))
    return read_dbrx(root, attn, ffn, mc, err);
  if ((rc = memi_cfg_common(root, mc, err)) ||
      (rc = memi_cfg_read_keys(root, attention_keys, 3, mc, err)))
    return rc;
  /* MiniMax's attention kinds, one per layer (all softmax, checked above). */
  if (cJSON_IsArray(types) && cJSON_GetArraySize(types) != mc->layers) {
    return memi_err_set(err, MEMEST_E_CONFIG, "attn_type_list",
                        "config key 'attn_type_list' has %d entries, but the model has %lld "
                        "layers; give one per layer",
                        cJSON_GetArraySize(types), (long long)mc->layers);
  }
  /* qkv_bias: biases on q, k and v only (Qwen2-MoE has them without a key). */
  if ((rc = memi_cfg_bool(root, "qkv_bias", cv->qkv_bias || mc->bias_o, &qkv_bias, err))) return rc;
  mc->attention_bias = qkv_bias;
  if ((rc = read_qk_norm(root, cv, mc, err)) ||
      (rc = read_row(root, &rotary_key, mc, err)) ||
      (rc = memi_cfg_num(root, "partial_rotary_factor", 1.0, 0.0, 1.0, &mc->partial_rotary, err)) ||
      (rc = read_row(root, &attention_keys[3], mc, err)))
    return rc;
  for (i = 0; i < mc->layers; i++) mc->layer_attn[i] = ATTN_FULL;
  if (mc->experts > 0) {
    if ((rc = read_experts(root, cv, mc, err))) return rc;
    if (cv->attention_experts && (rc = read_attention_experts(root, mc, err))) return rc;
  } else {
    if ((rc = read_row(root, &width_keys[W_DENSE_MODEL], mc, err))) return rc;
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

/* JetMoeMoA: the routed experts' query and output projections (sharded
** over EP like the MLP's experts; their wgrads are not deferred), the
** router, the output bias, and the shared k/v projection. */
static void attention_experts_params(const model_config *mc, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, kv = mc->kv_heads * mc->head_dim;
  memi_params_add(pl, "self_attention.experts.input_linear.weight", e_loc, kv, H, 3, 1, 1);
  memi_params_add(pl, "self_attention.experts.output_linear.weight", e_loc, H, kv, 3, 1, 1);
  memi_params_add(pl, "self_attention.experts.router.layer.weight", mc->experts, H, 1, 2, 0, 0);
  memi_params_add(pl, "self_attention.experts.bias", H, 1, 1, 1, 0, 0);
  memi_params_add(pl, "self_attention.kv_proj.weight", 2 * kv, H, 1, 2, 0, 1);
}

static void generic_params(const model_config *mc, int layer, int64_t e_loc, param_list *pl) {
  int64_t H = mc->hidden, q = mc->heads * mc->head_dim, kv = mc->kv_heads * mc->head_dim;
  int i;
  if (mc->attention_experts) attention_experts_params(mc, e_loc, pl);
  else memi_attn_add_gqa(pl, H, mc->heads, mc->kv_heads, mc->head_dim, mc->attention_bias, mc->bias_o);
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
    if (mc->attention_experts) memi_params_add(pl, "mlp.bias", H, 1, 1, 1, 0, 0);
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
  /* JetMoE's attention experts: its query heads' rows, and its own router's. */
  memi_attn_gqa_rows(mc, d, &a, lp);
  if (mc->attention_experts) memi_router_softmax_rows(mc, d, 1, lp);
  if (!generic_dense(mc, layer)) {
    lp->kind = mc->attention_experts ? "MoE (attention experts)" : "MoE";
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

static int64_t generic_rotary(const model_config *mc) {
  return mc->rotary_dim > 0 ? mc->rotary_dim : (int64_t)((double)mc->head_dim * mc->partial_rotary);
}

const arch_ops memi_arch_generic_moe = {
  "", "generic (Qwen3-style layer)", "", 1, generic_read, generic_params, generic_plan,
  generic_rotary, 1, NULL,
};
