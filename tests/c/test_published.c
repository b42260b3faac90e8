/*
** test_published.c — configs of published models, written from their model
** cards, and presets (tests/data/published/models.json): total parameters
** within 0.5% of the published ones and active parameters within 2.5%
** (published to two figures) in the publisher's reading, with or without
** the input embedding; the keys read, defaulted and ignored; the keys
** named as unread, nested ones and parts beside the decoder; JetMoE's
** attention experts; and the sequence beyond max_position_embeddings.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

/* The model object of an estimate's JSON on pp 1, ep 1 (NULL if refused). */
static cJSON *estimate_json(const char *config, size_t len, int64_t seq, cJSON **root) {
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  char *json;
  check_params(&p, "published", 1, 1, 1, 8, 1, 64, seq, "h100");
  *root = NULL;
  if (memest_estimate(config, len, &p, &r, &err) != MEMEST_OK) {
    fprintf(stderr, "refused: %s\n", err.message);
    return NULL;
  }
  json = memest_result_json(r);
  memest_result_free(r);
  *root = json ? cJSON_Parse(json) : NULL;
  memest_free(json);
  return cJSON_GetObjectItemCaseSensitive(*root, "model");
}

static double num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : -1.0;
}

static int listed(const cJSON *model, const char *list, const char *key) {
  const cJSON *keys = cJSON_GetObjectItemCaseSensitive(model, "config_keys");
  const cJSON *arr = cJSON_GetObjectItemCaseSensitive(keys, list), *v;
  cJSON_ArrayForEach(v, arr) {
    if (cJSON_IsString(v) && strcmp(v->valuestring, key) == 0) return 1;
  }
  return 0;
}

/* Llama-4-Scout's text model in closed form: 48 layers of GQA attention
** (40 x 128 queries, 8 x 128 keys and values on H 5,120), two norms, a
** router over 16 experts and 16 routed plus one shared SwiGLU expert of
** 8,192; embed_tokens and lm_head of 202,048 x 5,120 and the final norm. */
static double scout_text_total(void) {
  double H = 5120, q = 40 * 128, kv = 8 * 128, I = 8192;
  double layer = 2 * H * q + 2 * H * kv + 2 * H + 16 * H + 17 * 3 * H * I;
  return 48 * layer + 2 * 202048 * H + H;
}

/* Whether a warning names key as unread (config_keys.c's warning). */
static int named_unread(const cJSON *root, const char *key) {
  const cJSON *w;
  char quoted[96];
  snprintf(quoted, sizeof quoted, "'%s'", key);
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    if (strstr(w->valuestring, "not read, and memest does not know") != NULL &&
        strstr(w->valuestring, quoted) != NULL)
      return 1;
  }
  return 0;
}

/* The keys a warning names as unread, each listed in the entry's "unread"
** (the keys of a published config that do change memory and are not read). */
static int unread_listed(const cJSON *root, const cJSON *entry) {
  const cJSON *w, *k;
  int named = 0, listed = 0;
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    const char *q = strstr(w->valuestring, "not read, and memest does not know") ? w->valuestring : NULL;
    while (q != NULL && (q = strchr(q, '\'')) != NULL && q < strstr(w->valuestring, " not read")) {
      named++;
      q = strchr(q + 1, '\'') + 1;
    }
  }
  cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(entry, "unread")) {
    listed += named_unread(root, k->valuestring);
  }
  return named == listed;
}

static void test_models(void) {
  size_t len;
  char *text = check_read_file("tests/data/published/models.json", &len);
  cJSON *manifest = text ? cJSON_Parse(text) : NULL, *m;
  int n = 0;
  CHECK(manifest != NULL);
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(manifest, "models")) {
    const char *name = cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring;
    const cJSON *preset = cJSON_GetObjectItemCaseSensitive(m, "preset");
    const cJSON *counts = cJSON_GetObjectItemCaseSensitive(m, "active_counts");
    int no_embedding = cJSON_IsString(counts) && strcmp(counts->valuestring, "no embedding") == 0;
    double tolerance = num(m, "active_tolerance") > 0 ? num(m, "active_tolerance") : 0.025;
    char path[256];
    char *config;
    size_t clen;
    cJSON *root, *model;
    double total, active, other, want_total = num(m, "total"), want_active = num(m, "active");
    CHECK(cJSON_IsString(counts));
    if (cJSON_IsString(preset)) snprintf(path, sizeof path, CHECK_MODELS "%s.json", preset->valuestring);
    else snprintf(path, sizeof path, "tests/data/published/%s",
                  cJSON_GetObjectItemCaseSensitive(m, "config")->valuestring);
    config = check_read_file(path, &clen);
    CHECK(config != NULL);
    if (config == NULL) continue;
    model = estimate_json(config, clen, 4096, &root);
    CHECK(model != NULL);
    total = num(model, "total_parameters");
    /* The publisher's convention: with the input embedding or without it. */
    active = num(model, no_embedding ? "active_parameters_without_embedding" : "active_parameters");
    other = num(model, no_embedding ? "active_parameters" : "active_parameters_without_embedding");
    printf("%-28s total %8.3f B (published %6.1f B, %+.2f%%)  active %7.3f B (published %5.1f B, "
           "%+.2f%%, %s; %.3f B %s)\n",
           name, total / 1e9, want_total / 1e9, 100.0 * (total / want_total - 1.0), active / 1e9,
           want_active / 1e9, 100.0 * (active / want_active - 1.0),
           no_embedding ? "no embedding" : "embedding", other / 1e9,
           no_embedding ? "with it" : "without it");
    if (cJSON_GetObjectItemCaseSensitive(m, "scope") != NULL) {
      /* The published figure adds a vision encoder: the text model exactly,
      ** and below the published total by less than 1.5%. */
      CHECK(fabs(total - scout_text_total()) < 0.5);
      CHECK(total < want_total && total / want_total > 0.985);
    } else {
      CHECK(fabs(total / want_total - 1.0) < 0.005);
    }
    CHECK(fabs(active / want_active - 1.0) < tolerance);
    CHECK(active < total);
    /* The two readings differ by embed_tokens, vocab_size x hidden_size. */
    CHECK_I64((int64_t)(no_embedding ? other - active : active - other),
              (int64_t)(num(model, "vocab_size") * num(model, "hidden_size")));
    CHECK(unread_listed(root, m));
    n++;
    cJSON_Delete(root);
    free(config);
  }
  CHECK(n >= 19);
  cJSON_Delete(manifest);
  free(text);
}

static void test_keys(void) {
  size_t len;
  char *qwen = check_read_file("tests/data/published/qwen1.5-moe-a2.7b.json", &len);
  char *phi = check_read_file("tests/data/published/phi-3.5-moe.json", &len);
  cJSON *root, *model;
  const cJSON *w;
  int warned = 0;
  CHECK(qwen != NULL && phi != NULL);
  if (qwen == NULL || phi == NULL) return;
  model = estimate_json(qwen, strlen(qwen), 4096, &root);
  CHECK(listed(model, "read", "shared_expert_intermediate_size"));
  CHECK(listed(model, "read", "decoder_sparse_step"));
  CHECK(listed(model, "defaulted", "mlp_only_layers"));
  CHECK(listed(model, "ignored", "rope_theta"));
  CHECK(!listed(model, "ignored", "num_experts"));
  CHECK_I64(num(model, "shared_experts"), 1);
  CHECK_I64(num(model, "shared_expert_size"), 5632);
  cJSON_Delete(root);
  /* Phi-3.5-MoE's lm_head bias is not modelled: said by name. */
  model = estimate_json(phi, strlen(phi), 4096, &root);
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    if (strstr(w->valuestring, "'lm_head_bias'") != NULL) warned++;
  }
  CHECK_I64(warned, 1);
  CHECK(listed(model, "ignored", "lm_head_bias"));
  cJSON_Delete(root);
  /* A sequence beyond max_position_embeddings (8,192) is warned about. */
  model = estimate_json(qwen, strlen(qwen), 16384, &root);
  warned = 0;
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    if (strstr(w->valuestring, "16,384 is longer than the model's max_position_embeddings "
                               "(8,192)") != NULL)
      warned++;
  }
  CHECK_I64(warned, 1);
  CHECK_I64(num(model, "max_position_embeddings"), 8192);
  cJSON_Delete(root);
  free(qwen);
  free(phi);
}

/* JetMoE's attention experts are read (kv_channels was dropped unnamed and
** the model counted 7.01 B); DBRX's nested keys and Llama 4's vision tower
** are named. */
static void test_parts(void) {
  size_t len;
  char *jet = check_read_file("tests/data/published/jetmoe-8b.json", &len);
  char *dbrx = check_read_file("tests/data/published/dbrx-instruct.json", &len);
  char *scout = check_read_file("tests/data/published/llama-4-scout-17b-16e.json", &len);
  cJSON *root, *model;
  const cJSON *w;
  int said = 0;
  CHECK(jet != NULL && dbrx != NULL && scout != NULL);
  if (jet == NULL || dbrx == NULL || scout == NULL) return;
  model = estimate_json(jet, strlen(jet), 4096, &root);
  CHECK_I64(num(model, "total_parameters"), 8522237952LL);
  CHECK_I64(num(model, "active_parameters_without_embedding"), 2265909248LL);
  CHECK(listed(model, "read", "kv_channels"));
  CHECK(!named_unread(root, "kv_channels"));
  cJSON_Delete(root);
  /* A key inside ffn_config that DBRX's reader does not know. */
  {
    char *at = strstr(dbrx, "\"ffn_config\"");
    char *text = malloc(strlen(dbrx) + 64);
    CHECK(at != NULL && text != NULL);
    if (at != NULL && text != NULL) {
      at = strchr(at, '{');
      sprintf(text, "%.*s\"moe_widen\": 2, %s", (int)(at + 1 - dbrx), dbrx, at + 1);
      model = estimate_json(text, strlen(text), 4096, &root);
      CHECK(model != NULL);
      CHECK(named_unread(root, "ffn_config.moe_widen"));
      cJSON_Delete(root);
    }
    free(text);
  }
  model = estimate_json(scout, strlen(scout), 4096, &root);
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    said += strstr(w->valuestring, "config key 'vision_config' describes a part of the model "
                                   "beside its text decoder") != NULL;
  }
  CHECK_I64(said, 1);
  cJSON_Delete(root);
  free(jet);
  free(dbrx);
  free(scout);
}

/* Dense-layer selectors and q/k norms on a tiny generic config: layers 0
** (first_k_dense_replace), 2 (mlp_only_layers) and the odd ones
** (decoder_sparse_step 2 makes 1, 3, 5 MoE, so 0, 2, 4 dense). */
static void test_selectors(void) {
  static const char base[] =
      "{\"model_type\":\"x_moe\",\"hidden_size\":64,\"num_attention_heads\":4,"
      "\"num_key_value_heads\":2,\"intermediate_size\":96,\"moe_intermediate_size\":32,"
      "\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":6,\"vocab_size\":128,"
      "\"decoder_sparse_step\":2,\"use_qk_norm\":true,\"attention_bias\":true,"
      "\"num_mtp_modules\":1,\"\\u0001memest:defaulted\":3%s}";
  char text[1024];
  cJSON *root, *model, *kinds;
  const cJSON *w;
  int warned = 0;
  /* Per layer: q 64x64, k, v 32x64, o 64x64 = 12,288, biases 64+32+32+64,
  ** q/k norms 16 + 16, two norms 128: 12,640. MoE: router 256, 4 experts
  ** 3 x 32 x 64 = 24,576. Dense: 3 x 96 x 64 = 18,432. 6 x 12,640 + 3 x
  ** 24,832 + 3 x 18,432 + embed, lm_head 2 x 8,192 + norm 64 = 222,080;
  ** active counts 2 of 4 experts: 222,080 - 3 x 12,288 = 185,216. */
  snprintf(text, sizeof text, base, "");
  model = estimate_json(text, strlen(text), 128, &root);
  CHECK(model != NULL);
  kinds = cJSON_GetObjectItemCaseSensitive(model, "layers_by_kind");
  CHECK_I64(num(kinds, "moe"), 3);
  CHECK_I64(num(kinds, "dense"), 3);
  CHECK_I64(num(model, "total_parameters"), 222080);
  CHECK_I64(num(model, "active_parameters"), 185216);
  cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "warnings")) {
    if (strstr(w->valuestring, "'num_mtp_modules'") != NULL) warned++;
  }
  CHECK_I64(warned, 1);
  cJSON_Delete(root);
  /* mlp_only_layers [1] leaves only layers 3 and 5 with experts. */
  snprintf(text, sizeof text, base, ",\"mlp_only_layers\":[1]");
  model = estimate_json(text, strlen(text), 128, &root);
  kinds = cJSON_GetObjectItemCaseSensitive(model, "layers_by_kind");
  CHECK_I64(num(kinds, "moe"), 2);
  cJSON_Delete(root);
  snprintf(text, sizeof text, base, ",\"mlp_only_layers\":[9]");
  CHECK(estimate_json(text, strlen(text), 128, &root) == NULL);
  cJSON_Delete(root);
}

int main(void) {
  test_models();
  test_keys();
  test_parts();
  test_selectors();
  return check_done("test_published");
}
