/*
** config.c — reading a HuggingFace config.json: its text checked
** (config_text.c) and parsed into an object, and the typed key readers the
** architecture files use. It knows no family: archs.c chooses one and
** calls its reader.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

const char *memi_cfg_type_name(const cJSON *v) {
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
                   key, memi_cfg_type_name(v));
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
                   memi_cfg_type_name(v));
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
                   memi_cfg_type_name(v));
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

size_t memest_config_max_bytes(void) { return MEMEST_MAX_CONFIG_BYTES; }

memest_code memi_cfg_open(const char *text, size_t len, model_config *mc, cJSON **root,
                          memest_error *err) {
  char *copy = NULL;
  memest_code rc;
  memset(mc, 0, sizeof *mc);
  *root = NULL;
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
  *root = cJSON_ParseWithLength(copy, len);
  free(copy);
  if (*root == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory parsing a %llu-byte config",
                        (unsigned long long)len);
  }
  if (!cJSON_IsObject(*root)) {
    rc = memi_err_set(err, MEMEST_E_CONFIG, "config",
                      "the config must be a JSON object (a model config.json), got %s",
                      memi_cfg_type_name(*root));
  } else {
    rc = memi_cfg_text_resolve(*root, mc, err);
  }
  if (rc != MEMEST_OK) {
    cJSON_Delete(*root);
    *root = NULL;
  }
  return rc;
}

