/*
** test_json_conformance.c — config.json bytes read as Python's json reads
** them. Replays every case of tests/data/json-conformance.json (the memest
** column: refused as JSON or not, and the message's key words), then checks
** on a real config that a repeated key takes its last value and is named in
** a warning, and that NaN reaches the key readers as a number.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

#define TABLE "tests/data/json-conformance.json"

/* The outcome of estimating `doc`: "reject" when the document itself was
** refused (its bytes or its JSON), else "accept". */
static const char *outcome(const char *doc, size_t len, memest_error *err) {
  memest_params p;
  memest_result *r = NULL;
  memest_code rc;
  check_params(&p, "config.json", 1, 1, 1, 1, 1, 2, 64, "h100");
  rc = memest_estimate(doc, len, &p, &r, err);
  memest_result_free(r);
  if ((rc == MEMEST_E_JSON || rc == MEMEST_E_LIMIT) && strcmp(err->field, "config") == 0) {
    return "reject";
  }
  return "accept";
}

static unsigned char *from_hex(const char *hex, size_t *len) {
  size_t n = strlen(hex) / 2, i;
  unsigned char *b = malloc(n + 1);
  for (i = 0; b != NULL && i < n; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) v = 0;
    b[i] = (unsigned char)v;
  }
  *len = n;
  return b;
}

static void test_table(void) {
  size_t len = 0;
  char *text = check_read_file(TABLE, &len);
  cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
  const cJSON *c;
  int n = 0;
  CHECK(doc != NULL);
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(doc, "cases")) {
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(c, "name"));
    const char *want = cJSON_GetStringValue(cJSON_GetObjectItem(c, "memest"));
    const char *hex = cJSON_GetStringValue(cJSON_GetObjectItem(c, "hex"));
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"));
    size_t dlen = 0;
    char *bytes;
    memest_error err;
    const char *got;
    if (hex != NULL) {
      bytes = (char *)from_hex(hex, &dlen);
    } else {
      const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(c, "text"));
      dlen = t ? strlen(t) : 0;
      bytes = malloc(dlen + 1);
      if (bytes != NULL) memcpy(bytes, t ? t : "", dlen + 1);
    }
    memset(&err, 0, sizeof err);
    got = outcome(bytes, dlen, &err);
    if (strcmp(got, want) != 0) fprintf(stderr, "case '%s': %s\n", name, err.message);
    CHECK_STR(got, want);
    if (msg != NULL) CHECK_HAS(err.message, msg);
    free(bytes);
    n++;
  }
  CHECK(n >= 50);
  cJSON_Delete(doc);
  free(text);
}

/* The config with `extra` inserted before its closing brace. */
static char *config_with(const char *extra, size_t *len) {
  size_t n = 0;
  char *base = check_read_file("presets/qwen3-30b-a3b.json", &n);
  char *out, *close;
  if (base == NULL) return NULL;
  close = strrchr(base, '}');
  out = malloc(n + strlen(extra) + 1);
  if (close == NULL || out == NULL) {
    free(base);
    free(out);
    return NULL;
  }
  *close = '\0';
  sprintf(out, "%s%s}", base, extra);
  *len = strlen(out);
  free(base);
  return out;
}

static void test_last_key_wins(void) {
  size_t len = 0;
  char *cfg = config_with(", \"num_hidden_layers\": 8", &len);
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  char *json;
  CHECK(cfg != NULL);
  check_params(&p, "config.json", 2, 8, 1, 16, 1, 64, 1024, "h100");
  CHECK_I64(memest_estimate(cfg, len, &p, &r, &err), MEMEST_OK);
  json = r ? memest_result_json(r) : NULL;
  CHECK(json != NULL);
  if (json != NULL) {
    CHECK_HAS(json, "\"layers\":8,\"hidden_size\":2048");
    CHECK_HAS(json, "config key 'num_hidden_layers' appears 2 times; the last value is used");
  }
  free(json);
  memest_result_free(r);
  free(cfg);
}

/* Twelve repeated keys give twelve warnings: the result shows seven and
** says how many more there were (they were dropped without a word). */
static void test_warnings_counted(void) {
  size_t len = 0;
  char extra[512] = "";
  char *cfg, *json, *text;
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  int i;
  for (i = 0; i < 12; i++) {
    size_t n = strlen(extra);
    snprintf(extra + n, sizeof extra - n, ", \"dup_%02d\": 1, \"dup_%02d\": 2", i, i);
  }
  cfg = config_with(extra, &len);
  CHECK(cfg != NULL);
  check_params(&p, "config.json", 2, 8, 1, 16, 1, 64, 1024, "h100");
  CHECK_I64(memest_estimate(cfg, len, &p, &r, &err), MEMEST_OK);
  json = r ? memest_result_json(r) : NULL;
  text = r ? memest_result_text(r) : NULL;
  CHECK(json != NULL && text != NULL);
  if (json != NULL && text != NULL) {
    CHECK_HAS(json, "config key 'dup_06' appears 2 times");
    CHECK(strstr(json, "'dup_07'") == NULL);
    /* 12 repeated keys and the warning that names them as unread: 13. */
    CHECK_HAS(json, "\"6 more warnings, not shown: a result keeps 7");
    CHECK_HAS(text, "Warning      6 more warnings, not shown");
  }
  free(json);
  free(text);
  memest_result_free(r);
  free(cfg);
}

static void test_nan_reaches_readers(void) {
  size_t len = 0;
  char *cfg = config_with(", \"hidden_size\": NaN", &len);
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  CHECK(cfg != NULL);
  check_params(&p, "config.json", 2, 8, 1, 16, 1, 64, 1024, "h100");
  CHECK_I64(memest_estimate(cfg, len, &p, &r, &err), MEMEST_E_CONFIG);
  CHECK_STR(err.field, "hidden_size");
  CHECK_HAS(err.message, "must be a whole number");
  memest_result_free(r);
  free(cfg);
}

int main(void) {
  test_table();
  test_last_key_wins();
  test_nan_reaches_readers();
  test_warnings_counted();
  return check_done("test_json_conformance");
}
