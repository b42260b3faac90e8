/*
** config_keys.c — which keys of a config were read, which were defaulted
** (looked up but absent or null) and which were ignored (never looked up),
** for the model summary; the keys known not to change memory, and the
** warnings that name every other ignored key and the parts of a model
** beside its text decoder. A key is marked on its cJSON item when a reader
** looks it up; an absent key is noted in a ledger array inside the parsed
** object, which lives and dies with the parse. Also the parse's warnings,
** which every reader of a config may add.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

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

/* {======================================================================
** Keys known not to change the memory of a training step: every other
** key that no reader looked up is named in a warning. A leading or
** trailing '*' matches any prefix or suffix. `off` keys are quiet only
** when their value leaves the part out (false, 0, null, "" or empty).
** docs/architectures/README.md lists them; tests/c/test_config_keys.c
** checks that it lists every one.
** ======================================================================= */
typedef struct quiet_key {
  const char *name;
  int off;
} quiet_key;

static const quiet_key quiet_keys[] = {
  /* where the config came from, and how it is stored and run */
  {"_name_or_path", 0}, {"architectures", 0}, {"model_type", 0}, {"auto_map", 0}, {"transformers_version", 0},
  {"torch_dtype", 0}, {"dtype", 0}, {"mamba_ssm_dtype", 0}, {"use_cache", 0},
  {"return_dict", 0}, {"output_attentions", 0}, {"output_hidden_states", 0},
  {"attn_implementation", 0}, {"_attn_implementation", 0}, {"use_flash_attention", 0},
  {"quantization_config", 0}, {"quantization", 0}, {"pretraining_tp", 0}, {"ep_size", 0},
  {"enable_expert_tensor_parallelism", 0}, {"id2label", 0}, {"label2id", 0},
  {"tokenizer_class", 0}, {"task_specific_params", 0}, {"problem_type", 0},
  /* token ids */
  {"*_token_id", 0}, {"*_token_ids", 0}, {"*_token_index", 0}, {"*_id", 0},
  /* dropout, initialisation, norms' epsilon, activation functions */
  {"*_dropout", 0}, {"*_dropout_prob", 0}, {"*_pdrop", 0}, {"initializer_range", 0},
  {"initializer_factor", 0}, {"init_std", 0}, {"*_eps", 0}, {"*_epsilon", 0},
  {"hidden_act", 0}, {"activation_function", 0}, {"ffn_act_fn", 0}, {"swiglu_limit", 0},
  /* positions and attention's arithmetic (FlashAttention keeps no scores) */
  {"rope_theta", 0}, {"*_rope_theta", 0}, {"rope_scaling", 0}, {"rope_parameters", 0},
  {"rope_type", 0}, {"rotary_emb_base", 0}, {"original_max_position_embeddings", 0},
  {"initial_context_length", 0}, {"no_rope_layers", 0}, {"use_rotary_pos_emb", 0},
  {"sliding_window", 0}, {"use_sliding_window", 0}, {"max_window_layers", 0},
  {"attention_chunk_size", 0}, {"attn_scale", 0}, {"attn_temperature_tuning", 0},
  {"floor_scale", 0}, {"clip_qkv", 0}, {"*_softcapping", 0}, {"attention_multiplier", 0},
  {"embedding_multiplier", 0}, {"residual_multiplier", 0},
  {"logits_scaling", 0},
  /* routing and its losses: which experts, not how large they are */
  {"*_loss_coef", 0}, {"*_loss_weight", 0}, {"aux_loss_alpha", 0}, {"seq_aux", 0},
  {"output_router_logits", 0}, {"*_jitter_noise", 0}, {"routed_scaling_factor", 0},
  {"scoring_func", 0}, {"topk_method", 0}, {"n_group", 0}, {"topk_group", 0},
  {"norm_topk_prob", 0}, {"moe_normalize_expert_weights", 0}, {"uniform_expert_assignment", 0},
  {"moe_token_dropping", 0}, {"moe_drop_tokens", 0}, {"moe_random_routing_dropped_token", 0},
  {"moe_eval_capacity_factor", 0}, {"moe_train_capacity_factor", 0}, {"moe_min_capacity", 0},
  {"moe_capacity", 0}, {"capacity_factor", 0}, {"moe_gate", 0}, {"group_limited_greedy", 0},
  {"multi_token_pred_lambda", 0},
  /* a classification head's pooling, and the tokenizer's vocabulary before padding */
  {"pool_type", 0}, {"org_vocab_size", 0},
  /* how many layers share a key/value cache when use_cla (named when true) is on */
  {"cla_share_factor", 0},
  /* a nested text model, compared with the top level where both are given (archs.c) */
  {"text_config", 0},
  /* parts that are absent at these values */
  {"attention_bias", 1}, {"mlp_bias", 1}, {"use_bias", 1}, {"lm_head_bias", 1}, {"use_cla", 1},
  {"moe_layer_num_skipped", 1}, {"num_nextn_predict_layers", 1}, {"num_mtp_modules", 1},
  {"mtp_num_hidden_layers", 1}, {"use_mtp", 1}, {"shared_intermediate_size", 1},
  {"use_routing_bias", 1}, {"moe_use_aux_free", 1}, {"use_mla", 1},
  {"add_classification_head", 1}, {"class_num", 1}, {"skip_cls", 1},
};

int memi_cfg_quiet_key(int i, const char **name, int *off) {
  if (i < 0 || (size_t)i >= sizeof quiet_keys / sizeof quiet_keys[0]) return 0;
  *name = quiet_keys[i].name;
  *off = quiet_keys[i].off;
  return 1;
}

/* Whether pattern (a name, "*suffix" or "prefix*") matches name. */
static int matches(const char *pattern, const char *name) {
  size_t p = strlen(pattern), n = strlen(name);
  if (p > 0 && pattern[0] == '*') return n >= p - 1 && strcmp(name + n - (p - 1), pattern + 1) == 0;
  if (p > 0 && pattern[p - 1] == '*') return strncmp(name, pattern, p - 1) == 0;
  return strcmp(pattern, name) == 0;
}

/* Whether a value leaves its part out: false, 0, null, "" or empty. */
static int is_off(const cJSON *v) {
  if (cJSON_IsFalse(v) || cJSON_IsNull(v)) return 1;
  if (cJSON_IsNumber(v)) return v->valuedouble == 0.0;
  if (cJSON_IsString(v)) return v->valuestring[0] == '\0';
  return (cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child == NULL;
}

/* Whether an unread key is known not to change memory, in general or for
** the family (arch_ops.quiet). A null value, an empty list or an empty
** object gives nothing: the key is as good as absent. */
static int quiet(const cJSON *item, const model_config *mc) {
  const char *const *k;
  size_t i;
  if (cJSON_IsNull(item) || ((cJSON_IsArray(item) || cJSON_IsObject(item)) && item->child == NULL))
    return 1;
  for (i = 0; i < sizeof quiet_keys / sizeof quiet_keys[0]; i++) {
    if (matches(quiet_keys[i].name, item->string) && (!quiet_keys[i].off || is_off(item)))
      return 1;
  }
  for (k = mc->arch != NULL ? mc->arch->quiet : NULL; k != NULL && *k != NULL; k++) {
    if (strcmp(*k, item->string) == 0) return 1;
  }
  return 0;
}

/* Whether an unread key is a part of its own beside the text decoder: a
** non-empty object named *_config after a tower (vision_config,
** audio_config, vision_tower_config, ...). */
static int other_part(const cJSON *item) {
  static const char *const towers[] = {"vision", "visual", "image", "video", "audio", "speech",
                                       "encoder", "projector", "perceiver", "tower"};
  size_t n = strlen(item->string), k;
  if (!cJSON_IsObject(item) || item->child == NULL || n <= 7 ||
      strcmp(item->string + n - 7, "_config") != 0)
    return 0;
  for (k = 0; k < sizeof towers / sizeof towers[0]; k++) {
    if (strstr(item->string, towers[k]) != NULL) return 1;
  }
  return 0;
}

/* Names collected for one warning, within its room; past it, counted. */
typedef struct name_list {
  char text[240];
  int n, more;
} name_list;

static void name_add(name_list *l, const char *prefix, const char *name) {
  size_t used = strlen(l->text);
  if (strlen(prefix) + strlen(name) < 64 &&
      used + strlen(prefix) + strlen(name) + 8 < sizeof l->text) {
    snprintf(l->text + used, sizeof l->text - used, "%s'%s%s'", l->n ? ", " : "", prefix, name);
    l->n++;
  } else {
    l->more++;
  }
}

/* Whether a reader looked into obj: a key of it was noted (read, defaulted
** or in the ledger of absent ones). */
static int looked_into(const cJSON *obj) {
  const cJSON *c;
  if (ledger_of((cJSON *)obj, 0) != NULL) return 1;
  cJSON_ArrayForEach(c, obj) {
    if (c->type & (KEY_READ | KEY_DEFAULTED)) return 1;
  }
  return 0;
}

/* The unread keys of obj (and of the objects in it a reader looked into,
** as "outer.inner"): other parts beside the text decoder, and the rest that
** are not quiet. */
static void collect_unread(const cJSON *obj, const char *prefix, const model_config *mc,
                           name_list *unread, name_list *parts) {
  const cJSON *item, *l = ledger_of((cJSON *)obj, 0);
  cJSON_ArrayForEach(item, obj) {
    if (item == l || item->string == NULL) continue;
    if (item->type & (KEY_READ | KEY_DEFAULTED)) {
      if (prefix[0] == '\0' && cJSON_IsObject(item) && !quiet(item, mc) && looked_into(item)) {
        char inner[80];
        snprintf(inner, sizeof inner, "%.70s.", item->string);
        collect_unread(item, inner, mc, unread, parts);
      }
    } else if (quiet(item, mc)) {
      continue;
    } else if (prefix[0] == '\0' && other_part(item)) {
      name_add(parts, prefix, item->string);
    } else {
      name_add(unread, prefix, item->string);
    }
  }
}

void memi_cfg_keys_summarise(const cJSON *obj, const cJSON *root, model_config *mc) {
  const cJSON *item, *l = ledger_of((cJSON *)obj, 0);
  name_list unread, parts;
  memset(&unread, 0, sizeof unread);
  memset(&parts, 0, sizeof parts);
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
    } else if (!list_add(mc->keys_ignored, sizeof mc->keys_ignored, &mc->n_keys_ignored,
                         item->string)) {
      mc->keys_truncated = 1;
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
  collect_unread(obj, "", mc, &unread, &parts);
  /* A config read from its text_config: the parts beside it are the top level's. */
  if (root != obj) {
    cJSON_ArrayForEach(item, root) {
      if (item->string != NULL && !(item->type & (KEY_READ | KEY_DEFAULTED)) && other_part(item))
        name_add(&parts, "", item->string);
    }
  }
  if (parts.n + parts.more > 0) {
    memi_cfg_warn(mc,
             "config %s %s%s %s a part of the model beside its text decoder (a vision or "
             "audio tower and its projector), which memest does not count: the parameters "
             "and memory are the text model's alone",
             parts.n + parts.more > 1 ? "keys" : "key", parts.text,
             parts.more ? " and more" : "", parts.n + parts.more > 1 ? "describe" : "describes");
  }
  if (unread.n + unread.more > 0) {
    char more[32] = "";
    if (unread.more) snprintf(more, sizeof more, " and %d more", unread.more);
    memi_cfg_warn(mc,
             "config %s %s%s %s not read, and memest does not know %s to leave memory alone: "
             "whatever %s is left out of the figures (docs/architectures/README.md lists "
             "the keys known not to change memory)",
             unread.n + unread.more > 1 ? "keys" : "key", unread.text, more,
             unread.n + unread.more > 1 ? "are" : "is", unread.n + unread.more > 1 ? "them" : "it",
             unread.n + unread.more > 1 ? "they add" : "it adds");
  }
}

int memi_cfg_looked_up(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key), *l, *e;
  if (v != NULL) return (v->type & (KEY_READ | KEY_DEFAULTED)) != 0;
  l = ledger_of((cJSON *)obj, 0);
  cJSON_ArrayForEach(e, l) {
    if (cJSON_IsString(e) && strcmp(e->valuestring, key) == 0) return 1;
  }
  return 0;
}

void memi_cfg_note_if(const cJSON *root, const char *key, int64_t same) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
  if (cJSON_IsNumber(v) && v->valuedouble == (double)same) memi_cfg_note(root, key, v);
}
/* }====================================================================== */

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
