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

#include "model/model.h"

const char *memi_cfg_type_name(const cJSON *v) {
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  if (cJSON_IsNumber(v)) return "a number";
  return "null";
}

/* A whole number's value v of `key` (NULL or null: absent) against its
** range; a list is refused. */
static memest_code int_value(const cJSON *v, const char *key, int required, int64_t dflt,
                             int64_t lo, int64_t hi, const char *limit, int64_t *out,
                             memest_error *err) {
  double x;
  if (cJSON_IsArray(v)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key, "config key '%s' is a list, not one whole number",
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

memest_code memi_cfg_int(const cJSON *root, const char *key, int required, int64_t dflt, int64_t lo,
                    int64_t hi, const char *limit, int64_t *out, memest_error *err) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
  memi_cfg_note(root, key, item);
  return int_value(item, key, required, dflt, lo, hi, limit, out, err);
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

/* {======================================================================
** A family's table of keys (model.h's cfg_key).
** ======================================================================= */
/* The largest value of each cfg_bound and the limit of bounds.h it is. */
static const struct {
  int64_t hi;
  const char *limit;
} bounds[] = {
  {MEMEST_MAX_HIDDEN, "MEMEST_MAX_HIDDEN"},
  {MEMEST_MAX_HEADS, "MEMEST_MAX_HEADS"},
  {MEMEST_MAX_HEAD_DIM, "MEMEST_MAX_HEAD_DIM"},
  {MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS"},
  {MEMEST_MAX_VOCAB, "MEMEST_MAX_VOCAB"},
  {MEMEST_MAX_EXPERTS, "MEMEST_MAX_EXPERTS"},
  {MEMEST_MAX_TOP_K, "MEMEST_MAX_TOP_K"},
  {MEMEST_MAX_INTERMEDIATE, "MEMEST_MAX_INTERMEDIATE"},
  {MEMEST_MAX_SHARED_EXPERTS, "MEMEST_MAX_SHARED_EXPERTS"},
  {MEMEST_MAX_CONV_KERNEL, "MEMEST_MAX_CONV_KERNEL"},
  {MEMEST_MAX_SEQUENCE, "MEMEST_MAX_SEQUENCE"},
  /* Not a limit of the estimate: a longer sequence is warned about, not refused. */
  {(int64_t)1 << 53, NULL},
  {1, NULL},
};
_Static_assert(sizeof bounds / sizeof bounds[0] == CB_BOOL + 1, "a limit for every cfg_bound");

const char *memi_cfg_given(const cJSON *root, const cfg_key *row) {
  int k;
  for (k = 0; k < CFG_SPELLINGS && row->names[k] != NULL; k++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, row->names[k]);
    if (v != NULL && !cJSON_IsNull(v)) return row->names[k];
  }
  return NULL;
}

/* Whether a and b give one value: equal, or (for a per-layer row) a list
** whose every entry is the other, a number. */
static int same_value(const cJSON *a, const cJSON *b, int per_layer) {
  const cJSON *list = cJSON_IsArray(a) ? a : b, *one = list == a ? b : a, *e;
  if (cJSON_Compare(a, b, 1)) return 1;
  if (!per_layer || !cJSON_IsArray(list) || !cJSON_IsNumber(one) || list->child == NULL) return 0;
  cJSON_ArrayForEach(e, list) {
    if (!cJSON_IsNumber(e) || e->valuedouble != one->valuedouble) return 0;
  }
  return 1;
}

/* The spelling of a row to read: the first given, else the first present
** (null), else the HF name. Another spelling given with another value is
** refused: the two would say different things of one model. */
static memest_code spelling(const cJSON *root, const cfg_key *row, const char **key,
                            memest_error *err) {
  const char *given = memi_cfg_given(root, row);
  const cJSON *v = given ? cJSON_GetObjectItemCaseSensitive(root, given) : NULL;
  int k;
  *key = given;
  for (k = 0; k < CFG_SPELLINGS && row->names[k] != NULL; k++) {
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, row->names[k]);
    if (*key == NULL && e != NULL) *key = row->names[k];
    if (given == NULL || e == NULL || cJSON_IsNull(e) || e == v) continue;
    if (!same_value(v, e, row->per_layer)) {
      return memi_err_set(err, MEMEST_E_CONFIG, row->names[k],
                          "config keys '%s' and '%s' both give one value of the model, and "
                          "they differ; keep the one its published config.json has",
                          given, row->names[k]);
    }
    memi_cfg_note(root, row->names[k], e);
  }
  if (*key == NULL) *key = row->names[0];
  return MEMEST_OK;
}

/* A per-layer row's list: one entry per layer, all the same number, stands
** for that number. */
static memest_code per_layer_value(const cJSON *list, const char *key, const model_config *mc,
                                   const cJSON **v, memest_error *err) {
  const cJSON *e;
  if (cJSON_GetArraySize(list) != mc->layers) {
    return memi_err_set(err, MEMEST_E_CONFIG, key,
                        "config key '%s' has %d entries, but the model has %lld layers; give "
                        "one number, or one per layer",
                        key, cJSON_GetArraySize(list), (long long)mc->layers);
  }
  cJSON_ArrayForEach(e, list) {
    if (!cJSON_IsNumber(e) || e->valuedouble != list->child->valuedouble) {
      return memi_err_set(err, MEMEST_E_UNSUPPORTED, key,
                          "config key '%s' is a list, not one whole number; memest takes one "
                          "value for every layer, so a per-layer list must hold the same "
                          "number throughout",
                          key);
    }
  }
  *v = list->child;
  return MEMEST_OK;
}

static memest_code read_row(const cJSON *root, const cfg_key *row, model_config *mc,
                            memest_error *err) {
  const cJSON *v;
  const char *key;
  memest_code rc;
  int64_t dflt = row->dflt;
  if ((rc = spelling(root, row, &key, err))) return rc;
  v = cJSON_GetObjectItemCaseSensitive(root, key);
  memi_cfg_note(root, key, v);
  if (row->kind == CK_BOOL) {
    return memi_cfg_bool(root, key, (int)row->dflt, (int *)((char *)mc + row->field), err);
  }
  if (row->per_layer && cJSON_IsArray(v) && (rc = per_layer_value(v, key, mc, &v, err))) return rc;
  if (row->from == CF_FIELD) dflt = *(const int64_t *)((const char *)mc + row->dflt);
  if (row->from == CF_PER_HEAD) dflt = mc->hidden / mc->heads;
  if (row->from == CF_NONE && (v == NULL || cJSON_IsNull(v))) {
    *(int64_t *)((char *)mc + row->field) = 0;
    return MEMEST_OK;
  }
  return int_value(v, key, row->from == CF_REQUIRED, dflt, row->lo, bounds[row->hi].hi,
                   bounds[row->hi].limit, (int64_t *)((char *)mc + row->field), err);
}

memest_code memi_cfg_read_keys(const cJSON *root, const cfg_key *rows, size_t n,
                               model_config *mc, memest_error *err) {
  memest_code rc;
  size_t i;
  for (i = 0; i < n; i++) {
    if ((rc = read_row(root, &rows[i], mc, err))) return rc;
  }
  return MEMEST_OK;
}

/* The keys every decoder-only transformer config carries, HF's names. */
static const cfg_key common_keys[] = {
  {{"hidden_size"}, CFG_FIELD(hidden), CK_INT, CF_REQUIRED, 0, 1, CB_HIDDEN, 0},
  {{"num_attention_heads"}, CFG_FIELD(heads), CK_INT, CF_REQUIRED, 0, 1, CB_HEADS, 0},
  {{"num_hidden_layers"}, CFG_FIELD(layers), CK_INT, CF_REQUIRED, 0, 1, CB_LAYERS, 0},
  {{"vocab_size"}, CFG_FIELD(vocab), CK_INT, CF_REQUIRED, 0, 1, CB_VOCAB, 0},
  {{"max_position_embeddings"}, CFG_FIELD(max_positions), CK_INT, CF_VALUE, 0, 0, CB_POSITIONS, 0},
  {{"tie_word_embeddings"}, CFG_FIELD(tied_embeddings), CK_BOOL, CF_VALUE, 0, 0, CB_BOOL, 0},
};

memest_code memi_cfg_common(const cJSON *root, model_config *mc, memest_error *err) {
  return memi_cfg_read_keys(root, common_keys, sizeof common_keys / sizeof common_keys[0], mc, err);
}
/* }====================================================================== */

/* {======================================================================
** Which layers are dense: the selectors configs use, each key, its value
** when absent, its least value, and the layers it makes dense.
** ======================================================================= */
enum { DENSE_BELOW, DENSE_ABOVE, MOE_EVERY, MOE_EVERY_ONE_BASED };
static const struct {
  const char *key;
  int64_t dflt, lo;
  int rule;
} selectors[] = {
  {"first_k_dense_replace", 0, 0, DENSE_BELOW},      /* DeepSeek */
  {"moe_layer_start_index", 0, 0, DENSE_BELOW},      /* ERNIE 4.5 */
  {"moe_layer_end_index", -1, -1, DENSE_ABOVE},      /* ERNIE 4.5; -1: the last layer */
  {"moe_layer_interval", 1, 1, MOE_EVERY_ONE_BASED}, /* ERNIE 4.5 */
  {"moe_layer_freq", 1, 1, MOE_EVERY},               /* DeepSeek: MoE where i % freq == 0 */
  {"decoder_sparse_step", 1, 1, MOE_EVERY_ONE_BASED},/* Qwen2-MoE: where (i + 1) % step == 0 */
  {"moe_layer_frequency", 1, 1, MOE_EVERY_ONE_BASED},/* Arctic */
  {"interleave_moe_layer_step", 1, 1, MOE_EVERY_ONE_BASED}, /* Llama 4 */
};

/* Whether key is one of keys (a NULL-terminated list; NULL: all). */
static int selected(const char *const *keys, const char *key) {
  for (; keys != NULL && *keys != NULL; keys++) {
    if (strcmp(*keys, key) == 0) return 1;
  }
  return keys == NULL;
}

memest_code memi_cfg_dense_layers(const cJSON *root, const char *const *keys,
                                  const model_config *mc, unsigned char *dense, int64_t *first_k,
                                  memest_error *err) {
  unsigned char listed[MEMEST_MAX_LAYERS];
  int64_t v, i;
  size_t k;
  int has_list;
  memest_code rc;
  for (i = 0; i < mc->layers; i++) dense[i] = 0;
  *first_k = 0;
  for (k = 0; k < sizeof selectors / sizeof selectors[0]; k++) {
    if (!selected(keys, selectors[k].key)) continue;
    if ((rc = memi_cfg_int(root, selectors[k].key, 0, selectors[k].dflt, selectors[k].lo,
                           MEMEST_MAX_LAYERS, "MEMEST_MAX_LAYERS", &v, err)))
      return rc;
    if (selectors[k].rule == DENSE_BELOW && v > *first_k) *first_k = v;
    for (i = 0; i < mc->layers; i++) {
      switch (selectors[k].rule) {
      case DENSE_BELOW: dense[i] |= i < v; break;
      case DENSE_ABOVE: dense[i] |= v >= 0 && i > v; break;
      case MOE_EVERY: dense[i] |= i % v != 0; break;
      default: dense[i] |= (i + 1) % v != 0; break;
      }
    }
  }
  /* Llama 4's moe_layers: the MoE layers; Qwen2-MoE's mlp_only_layers: dense ones. */
  memset(listed, 0, sizeof listed);
  if (selected(keys, "moe_layers")) {
    if ((rc = memi_cfg_layer_list(root, "moe_layers", mc, listed, &has_list, err))) return rc;
    for (i = 0; has_list && i < mc->layers; i++) dense[i] = !listed[i];
  }
  memset(listed, 0, sizeof listed);
  if (selected(keys, "mlp_only_layers")) {
    if ((rc = memi_cfg_layer_list(root, "mlp_only_layers", mc, listed, &has_list, err))) return rc;
    for (i = 0; i < mc->layers; i++) dense[i] |= listed[i];
  }
  return MEMEST_OK;
}

/* Whether a selector's value v says what its absence says (a default
** number, an empty list): then it made no layer dense. */
static int selects_nothing(const cJSON *v, const char *key) {
  size_t k;
  if (v == NULL || cJSON_IsNull(v)) return 1;
  if (cJSON_IsArray(v)) return v->child == NULL;
  for (k = 0; k < sizeof selectors / sizeof selectors[0]; k++) {
    if (strcmp(selectors[k].key, key) == 0) return v->valuedouble == (double)selectors[k].dflt;
  }
  return 0;
}

memest_code memi_cfg_dense_as_built(const cJSON *root, const char *const *keys, model_config *mc,
                                    const char *built, memest_error *err) {
  unsigned char described[MEMEST_MAX_LAYERS];
  char names[160] = "", shown[96] = "";
  int64_t first_k, i, differ = 0;
  int n = 0;
  memest_code rc;
  if ((rc = memi_cfg_dense_layers(root, keys, mc, described, &first_k, err))) return rc;
  for (i = 0; i < mc->layers; i++) {
    size_t used = strlen(shown);
    if (!described[i] || mc->layer_dense[i]) continue;
    if (differ < 4) {
      snprintf(shown + used, sizeof shown - used, "%s%lld", differ ? ", " : "", (long long)i);
    }
    differ++;
  }
  if (differ == 0) return MEMEST_OK;
  for (; *keys != NULL; keys++) {
    size_t used = strlen(names);
    if (selects_nothing(cJSON_GetObjectItemCaseSensitive(root, *keys), *keys)) continue;
    snprintf(names + used, sizeof names - used, "%s'%s'", n++ ? " and " : "", *keys);
  }
  if (differ > 4) {
    size_t used = strlen(shown);
    snprintf(shown + used, sizeof shown - used, " and %lld more", (long long)(differ - 4));
  }
  memi_cfg_warn(mc,
           "config %s %s make%s layer%s %s dense (MLP-only) in the config's model, but the "
           "trainer's %s builds %s: estimated as the trainer builds %s, and a checkpoint of "
           "this config would not load into it",
           n > 1 ? "keys" : "key", names, n > 1 ? "" : "s", differ > 1 ? "s" : "", shown,
           mc->arch->title, built, differ > 1 ? "them" : "it");
  return MEMEST_OK;
}
/* }====================================================================== */

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

