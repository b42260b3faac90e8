/*
** config.c — reading a HuggingFace config.json: its text checked
** (config_text.c) and parsed, the typed key readers the architecture files use,
** and the choice of architecture from model_type. It knows no family's
** keys beyond the four every decoder has.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

extern MEMEST_HIDDEN const arch_ops *const memi_arch_table[];

static const char *type_name(const cJSON *v) {
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  if (cJSON_IsNumber(v)) return "a number";
  return "null";
}

/* A list with one value per layer (Hunyuan's moe_topk, say) stands for
** that value when every entry is the same number: its first entry, or the
** list itself when the entries differ or are not numbers. */
static const cJSON *one_per_layer(const cJSON *v) {
  const cJSON *e;
  if (!cJSON_IsArray(v) || v->child == NULL || !cJSON_IsNumber(v->child)) return v;
  cJSON_ArrayForEach(e, v) {
    if (!cJSON_IsNumber(e) || e->valuedouble != v->child->valuedouble) return v;
  }
  return v->child;
}

memest_code memi_cfg_int(const cJSON *root, const char *key, int required, int64_t dflt, int64_t lo,
                    int64_t hi, const char *limit, int64_t *out, memest_error *err) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
  const cJSON *v = one_per_layer(item);
  double x;
  memi_cfg_note(root, key, item);
  if (cJSON_IsArray(v)) {
    return memi_err_set(err, MEMEST_E_UNSUPPORTED, key,
                   "config key '%s' is a list, not one whole number; memest takes one value "
                   "for every layer, so a per-layer list must hold the same number throughout",
                   key);
  }
  if (v == NULL || cJSON_IsNull(v)) {
    if (required) {
      return memi_err_set(err, MEMEST_E_CONFIG, key,
                     "config key '%s' is missing; add it from the model's published config.json",
                     key);
    }
    if (dflt < lo || dflt > hi) {
      /* A default derived from other keys (head_dim = hidden/heads) can
      ** fall outside the range the key itself must keep. */
      return memi_err_set(err, MEMEST_E_CONFIG, key,
                     "config key '%s' is missing and the value it defaults to, %lld, is not "
                     "between %lld and %lld; add it from the model's published config.json",
                     key, (long long)dflt, (long long)lo, (long long)hi);
    }
    *out = dflt;
    return MEMEST_OK;
  }
  if (!cJSON_IsNumber(v)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' must be a whole number, got %s",
                   key, type_name(v));
  }
  x = v->valuedouble;
  if (!isfinite(x) || x != floor(x)) {
    char num[48];
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' must be a whole number, got %s",
                   key, memi_fmt_num(num, sizeof num, x));
  }
  if (x < (double)lo || x > (double)hi) {
    char a[48], b[32], c[32];
    if (x > (double)hi && limit != NULL) {
      return memi_err_set(err, MEMEST_E_LIMIT, key,
                          "config key '%s' is %s; it must be between %s and %s (the limit %s, "
                          "docs/limits.md)",
                          key, memi_fmt_num(a, sizeof a, x), memi_fmt_int(b, sizeof b, lo),
                          memi_fmt_int(c, sizeof c, hi), limit);
    }
    return memi_err_set(err, x > (double)hi ? MEMEST_E_LIMIT : MEMEST_E_CONFIG, key,
                   "config key '%s' is %s; it must be between %s and %s", key,
                   memi_fmt_num(a, sizeof a, x), memi_fmt_int(b, sizeof b, lo), memi_fmt_int(c, sizeof c, hi));
  }
  *out = (int64_t)x;
  return MEMEST_OK;
}

memest_code memi_cfg_num(const cJSON *root, const char *key, double dflt, double lo, double hi,
                    double *out, memest_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  memi_cfg_note(root, key, v);
  if (v == NULL || cJSON_IsNull(v)) {
    *out = dflt;
    return MEMEST_OK;
  }
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' must be a number, got %s", key,
                   type_name(v));
  }
  if (v->valuedouble < lo || v->valuedouble > hi) {
    char a[48], b[48], c[48];
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' is %s; it must be between %s and %s",
                   key, memi_fmt_num(a, sizeof a, v->valuedouble), memi_fmt_num(b, sizeof b, lo),
                   memi_fmt_num(c, sizeof c, hi));
  }
  *out = v->valuedouble;
  return MEMEST_OK;
}

memest_code memi_cfg_bool(const cJSON *root, const char *key, int dflt, int *out, memest_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  memi_cfg_note(root, key, v);
  if (v == NULL || cJSON_IsNull(v)) {
    *out = dflt;
    return MEMEST_OK;
  }
  if (!cJSON_IsBool(v)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' must be true or false, got %s", key,
                   type_name(v));
  }
  *out = cJSON_IsTrue(v);
  return MEMEST_OK;
}

memest_code memi_cfg_check_top_k(const model_config *mc, const char *key, memest_error *err) {
  if (mc->top_k <= mc->experts) return MEMEST_OK;
  return memi_err_set(err, MEMEST_E_CONFIG, key,
                 "config key '%s' is %lld but there are only %lld experts", key,
                 (long long)mc->top_k, (long long)mc->experts);
}

memest_code memi_cfg_check_kv_heads(const model_config *mc, memest_error *err) {
  if (mc->heads % mc->kv_heads == 0) return MEMEST_OK;
  return memi_err_set(err, MEMEST_E_CONFIG, "num_key_value_heads",
                 "config key 'num_key_value_heads' (%lld) must divide num_attention_heads (%lld)",
                 (long long)mc->kv_heads, (long long)mc->heads);
}

/* The keys every decoder-only transformer config carries, by `names`. */
memest_code memi_cfg_common_named(const cJSON *root, const cfg_common_names *names,
                                  model_config *mc, memest_error *err) {
  memest_code rc;
  if ((rc = memi_cfg_int(root, names->hidden, 1, 0, 1, MEMEST_MAX_HIDDEN, "MEMEST_MAX_HIDDEN",
                         &mc->hidden, err))) return rc;
  if ((rc = memi_cfg_int(root, names->heads, 1, 0, 1, MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS",
                         &mc->heads, err)))
    return rc;
  if ((rc = memi_cfg_int(root, names->layers, 1, 0, 1, MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS",
                         &mc->layers, err)))
    return rc;
  if ((rc = memi_cfg_int(root, "vocab_size", 1, 0, 1, MEMEST_MAX_VOCAB, "MEMEST_MAX_VOCAB",
                         &mc->vocab, err))) return rc;
  /* Not a limit of the estimate: the sequence is warned about, not refused. */
  if ((rc = memi_cfg_int(root, names->positions, 0, 0, 0, (int64_t)1 << 53, NULL,
                    &mc->max_positions, err)))
    return rc;
  return memi_cfg_bool(root, "tie_word_embeddings", 0, &mc->tied_embeddings, err);
}

memest_code memi_cfg_common(const cJSON *root, model_config *mc, memest_error *err) {
  static const cfg_common_names hf = {"hidden_size", "num_attention_heads", "num_hidden_layers",
                                      "max_position_embeddings"};
  return memi_cfg_common_named(root, &hf, mc, err);
}

/* Picks the family: the top-level model_type, or, for a multimodal config
** that nests the decoder, text_config's. */
static const arch_ops *arch_for(const char *model_type) {
  int i;
  for (i = 0; memi_arch_table[i] != NULL; i++) {
    if (strcmp(memi_arch_table[i]->model_type, model_type) == 0) return memi_arch_table[i];
  }
  return NULL;
}

/* For a model_type that names no family: the family whose HF class the
** config's `architectures` lists (a model renamed on an unchanged class,
** such as Kimi K2's kimi_k2 on DeepseekV3ForCausalLM), else DeepSeek-V3's
** for a config with multi-head latent attention (kv_lora_rank: DeepSeek-V3.2,
** GLM's MLA models), or NULL. `why` says which; `*unread` is set when keys
** of the config's own may be left unread (the MLA guess). */
static const arch_ops *arch_by_shape(const cJSON *root, char *why, size_t size, int *unread) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "architectures");
  const cJSON *e;
  int i;
  memi_cfg_note(root, "architectures", list);
  *unread = 0;
  for (e = cJSON_IsArray(list) ? list->child : NULL; e != NULL; e = e->next) {
    if (!cJSON_IsString(e)) continue;
    for (i = 0; memi_arch_table[i] != NULL; i++) {
      if (strcmp(memi_arch_table[i]->hf_class, e->valuestring) != 0) continue;
      snprintf(why, size, "its architectures names %s", memi_arch_table[i]->hf_class);
      return memi_arch_table[i];
    }
  }
  e = cJSON_GetObjectItemCaseSensitive(root, "kv_lora_rank");
  /* Kimi-Linear's MLA sits beside linear attention: the generic reader refuses it. */
  if (e == NULL || cJSON_IsNull(e) || memi_generic_hybrid_layers(root, NULL) != MEMEST_OK) return NULL;
  snprintf(why, size, "its kv_lora_rank says it has DeepSeek's multi-head latent attention");
  *unread = 1;
  return &memi_arch_deepseek_v3;
}

static memest_code read_model_type(const cJSON *root, char *dst, size_t size, memest_error *err) {
  const cJSON *mt = cJSON_GetObjectItemCaseSensitive(root, "model_type");
  memi_cfg_note(root, "model_type", mt);
  dst[0] = '\0';
  if (mt == NULL || cJSON_IsNull(mt)) return MEMEST_OK;
  if (!cJSON_IsString(mt)) {
    return memi_err_set(err, MEMEST_E_CONFIG, "model_type",
                   "config key 'model_type' must be a string, got %s", type_name(mt));
  }
  snprintf(dst, size, "%s", mt->valuestring);
  return MEMEST_OK;
}

static memest_code cfg_dispatch(const cJSON *root, model_config *mc, memest_error *err) {
  const cJSON *keys = root;
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text_config");
  char outer[48], why[96];
  memest_error inner;
  memest_code rc;
  int unread;
  if ((rc = read_model_type(root, mc->model_type, sizeof mc->model_type, err))) return rc;
  if (cJSON_IsObject(text) && arch_for(mc->model_type) == NULL) {
    snprintf(outer, sizeof outer, "%s", mc->model_type);
    keys = text;
    if ((rc = read_model_type(text, mc->model_type, sizeof mc->model_type, err))) return rc;
    memi_cfg_warn(mc,
             "the model keys were read from text_config (model_type '%s'); the trainer loads "
             "only flat text configs, so pass it the text_config part",
             outer);
  }
  mc->arch = arch_for(mc->model_type);
  if (mc->arch == NULL && (mc->arch = arch_by_shape(keys, why, sizeof why, &unread)) != NULL) {
    memi_cfg_warn(mc,
             "model_type '%s' is not one the trainer runs; %s, so it is read as model_type "
             "'%s' (the trainer itself loads a config only under a model_type it runs)",
             mc->model_type[0] ? mc->model_type : "(none)", why, mc->arch->model_type);
    memi_err_clear(&inner);
    if ((rc = mc->arch->read(keys, mc, &inner)) != MEMEST_OK) {
      memi_err_set_at(err, inner.code, inner.field, inner.line, inner.column,
                 "%.600s (read as model_type '%s', since %s)", inner.message,
                 mc->arch->model_type, why);
      memi_err_fix(err, "%s", inner.fix);
      return rc;
    }
    memi_cfg_keys_summarise(keys, mc, unread);
    return MEMEST_OK;
  }
  if (mc->arch == NULL) {
    mc->arch = &memi_arch_generic_moe;
    memi_err_clear(&inner);
    rc = mc->arch->read(keys, mc, &inner);
    if (rc != MEMEST_OK) {
      if (inner.code != MEMEST_E_CONFIG) {
        if (err != NULL) *err = inner;
        return rc;
      }
      memi_err_set_at(err, MEMEST_E_UNSUPPORTED, inner.field, inner.line, inner.column,
                 "unknown model_type '%.40s' (the trainer runs qwen3_moe, deepseek_v2, gpt_oss "
                 "and qwen3_5_moe_text), and it cannot be estimated from the generic keys: %.500s",
                 mc->model_type, inner.message);
      memi_err_fix(err, "%s", inner.fix);
      return MEMEST_E_UNSUPPORTED;
    }
    memi_cfg_warn(mc,
             "model_type '%s' is not one the trainer runs; estimated from the generic keys with a "
             "Qwen3-style layer (GQA attention), so treat the figures as approximate",
             mc->model_type[0] ? mc->model_type : "(none)");
    memi_cfg_keys_summarise(keys, mc, 1);
    return MEMEST_OK;
  }
  if ((rc = mc->arch->read(keys, mc, err))) return rc;
  memi_cfg_keys_summarise(keys, mc, 0);
  return MEMEST_OK;
}

/* The parsed document: an object, duplicates resolved. */
static memest_code cfg_read_root(cJSON *root, model_config *mc, memest_error *err) {
  memest_code rc;
  if (!cJSON_IsObject(root)) {
    return memi_err_set(err, MEMEST_E_CONFIG, "config",
                   "the config must be a JSON object (a model config.json), got %s",
                   type_name(root));
  }
  if ((rc = memi_cfg_text_resolve(root, mc, err))) return rc;
  if ((rc = cfg_dispatch(root, mc, err))) return rc;
  if (mc->tied_embeddings) {
    char n[32];
    memi_cfg_warn(mc,
             "tie_word_embeddings is true, but the trainer builds lm_head as a matrix of its "
             "own: the run holds %s parameters (vocab_size x hidden_size) more than the "
             "config's model, which the memory counts and the parameter count does not",
             memi_fmt_int(n, sizeof n, mc->vocab * mc->hidden));
  }
  if (memi_cfg_keys_out_of_memory(root)) {
    return memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory noting the config's keys");
  }
  return memi_cfg_check_params(mc, err);
}

size_t memest_config_max_bytes(void) { return MEMEST_MAX_CONFIG_BYTES; }

memest_code memi_cfg_parse(const char *text, size_t len, model_config *mc, memest_error *err) {
  char *copy = NULL;
  cJSON *root;
  memest_code rc;
  memset(mc, 0, sizeof *mc);
  if (text == NULL || len == 0) {
    return memi_err_set(err, MEMEST_E_JSON, "config", "the config is empty; give a model config.json");
  }
  if (len > MEMEST_MAX_CONFIG_BYTES) {
    return memi_err_set(err, MEMEST_E_LIMIT, "config",
                   "the config is %llu bytes, over MEMEST_MAX_CONFIG_BYTES = %d; a model "
                   "config.json is a few kilobytes",
                   (unsigned long long)len, MEMEST_MAX_CONFIG_BYTES);
  }
  if ((rc = memi_cfg_text_prepare(text, len, &copy, err))) return rc;
  /* The text passed the syntax check, so cJSON can fail only for memory. */
  root = cJSON_ParseWithLength(copy, len);
  if (root == NULL) {
    rc = memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory parsing a %llu-byte config",
                 (unsigned long long)len);
  } else {
    rc = cfg_read_root(root, mc, err);
    cJSON_Delete(root);
  }
  free(copy);
  return rc;
}

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
