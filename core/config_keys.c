/*
** config_keys.c — which keys of a config were read, which were defaulted
** (looked up but absent or null) and which were ignored (never looked up),
** for the model summary; and the warning about ignored keys that look like
** they carry parameters. A key is marked on its cJSON item when a reader
** looks it up; an absent key is noted in a ledger array inside the parsed
** object, which lives and dies with the parse. Also the parse's warnings,
** which every reader of a config may add.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

/* Bits above cJSON's own type flags (cJSON masks types with 0xFF and uses
** 256 and 512 for references and constant names). */
#define KEY_READ (1 << 12)
#define KEY_DEFAULTED (1 << 13)
/* On an object: a note could not be kept for want of memory. */
#define KEY_NOMEM (1 << 14)

/* Name of the ledger member; a byte no config key name starts with. */
static const char ledger_name[] = "\x01memest:defaulted";

static cJSON *ledger_of(cJSON *obj, int create) {
  cJSON *l = cJSON_GetObjectItemCaseSensitive(obj, ledger_name);
  if (l != NULL && !(l->type & KEY_READ)) {
    /* A config that carries this name itself: not ours, leave it alone. */
    return NULL;
  }
  if (l == NULL && create) {
    l = cJSON_CreateArray();
    if (l == NULL) return NULL;
    l->type |= KEY_READ;
    if (!cJSON_AddItemToObject(obj, ledger_name, l)) {
      cJSON_Delete(l);
      return NULL;
    }
  }
  return l;
}

void memi_cfg_note(const cJSON *obj, const char *key, const cJSON *v) {
  cJSON *o = (cJSON *)obj, *l, *e;
  if (o == NULL || !cJSON_IsObject(o)) return;
  if (v != NULL) {
    ((cJSON *)v)->type |= cJSON_IsNull(v) ? KEY_DEFAULTED : KEY_READ;
    return;
  }
  l = ledger_of(o, 1);
  if (l == NULL) {
    if (cJSON_GetObjectItemCaseSensitive(o, ledger_name) == NULL) o->type |= KEY_NOMEM;
    return;
  }
  cJSON_ArrayForEach(e, l) {
    if (cJSON_IsString(e) && strcmp(e->valuestring, key) == 0) return;
  }
  e = cJSON_CreateString(key);
  if (e == NULL || !cJSON_AddItemToArray(l, e)) {
    cJSON_Delete(e);
    o->type |= KEY_NOMEM;
  }
}

int memi_cfg_keys_out_of_memory(const cJSON *node) {
  const cJSON *c;
  if (node == NULL) return 0;
  if (cJSON_IsObject(node) && (node->type & KEY_NOMEM)) return 1;
  for (c = node->child; c != NULL; c = c->next) {
    if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && memi_cfg_keys_out_of_memory(c)) return 1;
  }
  return 0;
}

memest_code memi_cfg_layer_list(const cJSON *root, const char *key, const model_config *mc,
                           unsigned char *flags, int *present, memest_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key), *e;
  int64_t i = 0;
  memi_cfg_note(root, key, v);
  *present = 0;
  if (v == NULL || cJSON_IsNull(v)) return MEMEST_OK;
  if (!cJSON_IsArray(v)) {
    return memi_err_set(err, MEMEST_E_CONFIG, key,
                   "config key '%s' must be an array of layer indices (0 to %lld)", key,
                   (long long)(mc->layers - 1));
  }
  cJSON_ArrayForEach(e, v) {
    double x = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
    if (!(x >= 0.0 && x < (double)mc->layers) || x != (double)(int64_t)x) {
      return memi_err_set(err, MEMEST_E_CONFIG, key,
                     "config key '%s' entry %lld is not a layer index from 0 to %lld", key,
                     (long long)i, (long long)(mc->layers - 1));
    }
    flags[(int64_t)x] = 1;
    i++;
  }
  *present = 1;
  return MEMEST_OK;
}

/* Appends name to a NUL-separated list of `size` bytes; 0 when it is full. */
static int list_add(char *list, size_t size, int *count, const char *name) {
  size_t used = 0, len = strlen(name), i;
  int k;
  for (k = 0; k < *count; k++) used += strlen(list + used) + 1;
  if (len > 63) len = 63;
  if (used + len + 1 > size) return 0;
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    list[used + i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  list[used + len] = '\0';
  (*count)++;
  return 1;
}

/* Whether word w (delimited by '_' in name) is in list. */
static int has_word(const char *name, const char *const *list, size_t n) {
  const char *w = name;
  while (*w) {
    size_t len = strcspn(w, "_"), i;
    for (i = 0; i < n; i++) {
      if (strlen(list[i]) == len && strncmp(w, list[i], len) == 0) return 1;
    }
    w += len;
    if (*w == '_') w++;
  }
  return 0;
}

/* Whether an unread key looks like it adds parameters: a word of its name
** speaks of sizes, counts, layers, experts, norms or biases and none of a
** rate, a token id, a position limit, an attention span or a rotary
** setting, and its value would add something (a non-zero number, true, a
** non-empty array or object). */
static int carries_parameters(const cJSON *item) {
  static const char *const yes[] = {
    "size", "dim", "num", "n", "experts", "expert", "layers", "heads", "rank", "bias",
    "norm", "layernorm", "dense", "shared", "moe", "mlp", "interleave", "sparse", "proj",
    "intermediate", "gate", "qk", "qkv"};
  static const char *const no[] = {
    "eps", "dropout", "token", "id", "position", "positions", "rope", "window", "chunk",
    "initializer", "aux", "coef", "factor", "logits", "cache", "dtype", "scale", "scaling",
    "alpha", "temperature", "prob", "tie", "group", "topk", "act", "score", "method",
    "jitter", "noise", "capacity", "limit", "theta", "type", "types", "interval", "tp"};
  const char *name = item->string;
  if (name == NULL) return 0;
  if (cJSON_IsNumber(item) && item->valuedouble == 0.0) return 0;
  if (cJSON_IsFalse(item) || cJSON_IsNull(item) || cJSON_IsString(item)) return 0;
  if ((cJSON_IsArray(item) || cJSON_IsObject(item)) && item->child == NULL) return 0;
  return has_word(name, yes, sizeof yes / sizeof yes[0]) &&
         !has_word(name, no, sizeof no / sizeof no[0]);
}

void memi_cfg_keys_summarise(const cJSON *obj, model_config *mc, int warn_unread) {
  const cJSON *item, *l = ledger_of((cJSON *)obj, 0);
  char unread[280];
  int n_unread = 0, more = 0;
  unread[0] = '\0';
  mc->n_keys_read = mc->n_keys_defaulted = mc->n_keys_ignored = 0;
  mc->keys_truncated = 0;
  cJSON_ArrayForEach(item, obj) {
    if (item == l || item->string == NULL) continue;
    if (item->type & KEY_READ) {
      if (!list_add(mc->keys_read, sizeof mc->keys_read, &mc->n_keys_read, item->string))
        mc->keys_truncated = 1;
    } else if (item->type & KEY_DEFAULTED) {
      if (!list_add(mc->keys_defaulted, sizeof mc->keys_defaulted, &mc->n_keys_defaulted,
                    item->string))
        mc->keys_truncated = 1;
    } else {
      if (!list_add(mc->keys_ignored, sizeof mc->keys_ignored, &mc->n_keys_ignored,
                    item->string))
        mc->keys_truncated = 1;
      if (warn_unread && carries_parameters(item)) {
        size_t used = strlen(unread);
        if (used + strlen(item->string) + 8 < sizeof unread && strlen(item->string) < 64) {
          snprintf(unread + used, sizeof unread - used, "%s'%s'", n_unread ? ", " : "",
                   item->string);
          n_unread++;
        } else {
          more++;
        }
      }
    }
  }
  if (l != NULL) {
    cJSON_ArrayForEach(item, l) {
      if (cJSON_IsString(item) &&
          !list_add(mc->keys_defaulted, sizeof mc->keys_defaulted, &mc->n_keys_defaulted,
                    item->valuestring))
        mc->keys_truncated = 1;
    }
  }
  if (n_unread > 0) {
    memi_cfg_warn(mc,
             "config keys %s%s look like they add parameters but are not read, so the "
             "parameter count and memory leave them out",
             unread, more ? " and more" : "");
  }
}

/* A warning of the parse; past the array they are counted, never lost. */
void memi_cfg_warn(model_config *mc, const char *fmt, ...) {
  va_list ap;
  if (mc->n_warnings >= (int)(sizeof mc->warnings / sizeof mc->warnings[0])) {
    mc->more_warnings++;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(mc->warnings[mc->n_warnings], sizeof mc->warnings[0], fmt, ap);
  va_end(ap);
  mc->n_warnings++;
}
