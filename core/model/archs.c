/*
** archs.c — the model families and the choice between them: the table
** looked up by model_type (else by the HF class `architectures` names, or
** DeepSeek's for multi-head latent attention, else the generic keys), and
** memi_cfg_parse, which reads a config through the family it names. A new
** family is one arch_*.c file plus one line in the table.
*/
#include <stdio.h>
#include <string.h>

#include "model/model.h"

static const arch_ops *const arch_table[] = {
  &memi_arch_qwen3_moe,
  &memi_arch_deepseek_v2,
  &memi_arch_deepseek_v3,
  &memi_arch_gpt_oss,
  &memi_arch_qwen35_moe,
  NULL,
};

/* Picks the family: the top-level model_type, or, for a multimodal config
** that nests the decoder, text_config's. */
static const arch_ops *arch_for(const char *model_type) {
  int i;
  for (i = 0; arch_table[i] != NULL; i++) {
    if (strcmp(arch_table[i]->model_type, model_type) == 0) return arch_table[i];
  }
  return NULL;
}

/* For a model_type that names no family: the family whose HF class the
** config's `architectures` lists (a model renamed on an unchanged class,
** such as Kimi K2's kimi_k2 on DeepseekV3ForCausalLM), else DeepSeek-V3's
** for a config with multi-head latent attention (kv_lora_rank: DeepSeek-V3.2,
** GLM's MLA models), or NULL. `why` says which. */
static const arch_ops *arch_by_shape(const cJSON *root, char *why, size_t size) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "architectures");
  const cJSON *e;
  int i;
  memi_cfg_note(root, "architectures", list);
  for (e = cJSON_IsArray(list) ? list->child : NULL; e != NULL; e = e->next) {
    if (!cJSON_IsString(e)) continue;
    for (i = 0; arch_table[i] != NULL; i++) {
      if (strcmp(arch_table[i]->hf_class, e->valuestring) != 0) continue;
      snprintf(why, size, "its architectures names %s", arch_table[i]->hf_class);
      return arch_table[i];
    }
  }
  e = cJSON_GetObjectItemCaseSensitive(root, "kv_lora_rank");
  /* Kimi-Linear's MLA sits beside linear attention: the generic reader refuses it. */
  if (e == NULL || cJSON_IsNull(e) || memi_generic_hybrid_layers(root, NULL) != MEMEST_OK) return NULL;
  snprintf(why, size, "its kv_lora_rank says it has DeepSeek's multi-head latent attention");
  return &memi_arch_deepseek_v3;
}

static memest_code read_model_type(const cJSON *root, char *dst, size_t size, memest_error *err) {
  const cJSON *mt = cJSON_GetObjectItemCaseSensitive(root, "model_type");
  memi_cfg_note(root, "model_type", mt);
  dst[0] = '\0';
  if (mt == NULL || cJSON_IsNull(mt)) return MEMEST_OK;
  if (!cJSON_IsString(mt)) {
    return memi_err_set(err, MEMEST_E_CONFIG, "model_type",
                   "config key 'model_type' must be a string, got %s", memi_cfg_type_name(mt));
  }
  snprintf(dst, size, "%s", mt->valuestring);
  return MEMEST_OK;
}

/* Reads keys (the config, or its text_config) through the family the
** model_type names, else the one its shape names, else the generic keys. */
static memest_code read_family(const cJSON *keys, model_config *mc, memest_error *err) {
  char why[96];
  memest_error inner;
  memest_code rc;
  mc->arch = arch_for(mc->model_type);
  if (mc->arch != NULL) return mc->arch->read(keys, mc, err);
  if ((mc->arch = arch_by_shape(keys, why, sizeof why)) != NULL) {
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
    }
    return rc;
  }
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
  return MEMEST_OK;
}

/* A config with both a top level and a text_config: the keys the family
** looked up in the one it read (keys) that the other gives otherwise, or
** gives where the one read does not. Named, since the other's are not used. */
static void compare_other(const cJSON *keys, const cJSON *other, int other_is_text,
                          model_config *mc) {
  const cJSON *item;
  char names[200] = "";
  int n = 0, more = 0;
  cJSON_ArrayForEach(item, other) {
    const cJSON *mine;
    size_t used = strlen(names);
    if (item->string == NULL || strcmp(item->string, "model_type") == 0 ||
        strcmp(item->string, "architectures") == 0 ||
        !memi_cfg_looked_up(keys, item->string))
      continue;
    mine = cJSON_GetObjectItemCaseSensitive(keys, item->string);
    if (mine != NULL && !cJSON_IsNull(mine) && cJSON_Compare(mine, item, 1)) continue;
    if (strlen(item->string) < 48 && used + strlen(item->string) + 6 < sizeof names) {
      snprintf(names + used, sizeof names - used, "%s'%s'", n ? ", " : "", item->string);
      n++;
    } else {
      more++;
    }
  }
  if (n + more == 0) return;
  memi_cfg_warn(mc,
           "config %s %s%s %s in %s than in %s, which is the part read (it holds model_type "
           "'%s'): %s are not used",
           n + more > 1 ? "keys" : "key", names, more ? " and more" : "",
           n + more > 1 ? "are given otherwise" : "is given otherwise",
           other_is_text ? "text_config" : "the top level",
           other_is_text ? "the top level" : "text_config",
           mc->model_type[0] ? mc->model_type : "(none)",
           other_is_text ? "text_config's values" : "the top level's values");
}

static memest_code cfg_dispatch(const cJSON *root, model_config *mc, memest_error *err) {
  const cJSON *keys = root;
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text_config");
  char outer[48];
  memest_code rc;
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
  if ((rc = read_family(keys, mc, err))) return rc;
  if (cJSON_IsObject(text)) compare_other(keys, keys == root ? text : root, keys == root, mc);
  memi_cfg_keys_summarise(keys, root, mc);
  return MEMEST_OK;
}

/* The model a config describes: its text parsed (config.c), its family
** chosen and its keys read; then what every family shares. */
memest_code memi_cfg_parse(const char *text, size_t len, model_config *mc, memest_error *err) {
  cJSON *root;
  memest_code rc;
  if ((rc = memi_cfg_open(text, len, mc, &root, err))) return rc;
  rc = cfg_dispatch(root, mc, err);
  if (rc == MEMEST_OK && mc->tied_embeddings) {
    char n[32];
    memi_cfg_warn(mc,
             "tie_word_embeddings is true, but the trainer builds lm_head as a matrix of its "
             "own: the run holds %s parameters (vocab_size x hidden_size) more than the "
             "config's model, which the memory counts and the parameter count does not",
             memi_fmt_int(n, sizeof n, mc->vocab * mc->hidden));
  }
  if (rc == MEMEST_OK && memi_cfg_keys_out_of_memory(root)) {
    rc = memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory noting the config's keys");
  }
  cJSON_Delete(root);
  if (rc != MEMEST_OK) return rc;
  return memi_cfg_check_params(mc, err);
}
