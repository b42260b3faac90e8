/*
** fuzz_common.h — what the libFuzzer targets in tests/fuzz/ share: the
** fixed valid inputs they start from and the properties every call must
** keep (a failed call names its error; a result's JSON is strict UTF-8
** JSON; its text is safe for a terminal). A broken
** property aborts, which libFuzzer reports as a finding.
*/
#ifndef MEMEST_FUZZ_COMMON_H
#define MEMEST_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "memest.h"

#define FUZZ_REQUIRE(cond)                                                        \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                    \
    }                                                                             \
  } while (0)

/* The code point of the strict UTF-8 sequence at s (n bytes left) and its
** length in *len, or -1 when the bytes there are not one: an overlong form,
** an encoded surrogate, a value above U+10FFFF, a sequence cut short. */
static inline long fuzz_utf8_next(const unsigned char *s, size_t n, size_t *len) {
  static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
  unsigned long cp;
  size_t k;
  *len = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
  if (*len == 0 || *len > n || s[0] > 0xf4) return -1;
  cp = *len == 1 ? s[0] : s[0] & (0x7fu >> *len);
  for (k = 1; k < *len; k++) {
    if ((s[k] & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (s[k] & 0x3fu);
  }
  if (cp < least[*len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return -1;
  return (long)cp;
}

/* Text a terminal may be given: strict UTF-8 with no control but tab and
** newline, no DEL, no C1 control and no bidi embedding, override, isolate
** or mark (the rule of core/base/text_escape.c; docs/result-json.md). */
static inline int fuzz_terminal_safe(const char *text, size_t n) {
  const unsigned char *s = (const unsigned char *)text;
  size_t at = 0, len;
  while (at < n) {
    long cp = fuzz_utf8_next(s + at, n - at, &len);
    if (cp < 0 || (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7f && cp <= 0x9f) ||
        cp == 0x61c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069)) {
      return 0;
    }
    at += len;
  }
  return 1;
}

/* The n bytes of text are one JSON value and nothing else, as strict UTF-8
** JSON: valid UTF-8 bytes, no NUL, and cJSON (which refuses a lone
** surrogate escape such as \udc80) parses every byte. Returns the parsed
** document for the caller to read and delete; aborts otherwise. */
static inline cJSON *fuzz_strict_json(const char *text, size_t n) {
  const char *end = NULL;
  size_t at = 0, len;
  cJSON *doc;
  while (at < n) {
    FUZZ_REQUIRE(fuzz_utf8_next((const unsigned char *)text + at, n - at, &len) > 0);
    at += len;
  }
  FUZZ_REQUIRE(text[n] == '\0');
  doc = cJSON_ParseWithOpts(text, &end, 1);
  FUZZ_REQUIRE(doc != NULL);
  return doc;
}

/* A JSON text the library returned: there, and strict UTF-8 JSON. Frees
** it. */
static inline void fuzz_require_json(char *json) {
  cJSON *doc;
  FUZZ_REQUIRE(json != NULL);
  doc = fuzz_strict_json(json, strlen(json));
  FUZZ_REQUIRE(doc != NULL);
  cJSON_Delete(doc);
  memest_free(json);
}

/* Sets one parameter that the harness knows to be valid. */
static inline void fuzz_set(memest_params *p, const char *name, const char *value) {
  memest_error e;
  FUZZ_REQUIRE(memest_params_set(p, name, value, &e) == MEMEST_OK);
}

/* A small valid run: one pipeline rank, no expert or context parallelism. */
static inline void fuzz_params_small(memest_params *p) {
  memest_params_init(p);
  fuzz_set(p, "model", "fuzz");
  fuzz_set(p, "pp_size", "1");
  fuzz_set(p, "ep_size", "1");
  fuzz_set(p, "cp_size", "1");
  fuzz_set(p, "total_gpus", "1");
  fuzz_set(p, "micro_batch_size", "1");
  fuzz_set(p, "global_batch_size", "2");
  fuzz_set(p, "sequence_length", "64");
  fuzz_set(p, "gpu", "h100");
}

/* A valid run with every option on: two ranks, EP 2, CP 2, Muon, FP8,
** HSDP, the timeline and the per-tensor tables. */
static inline void fuzz_params_wide(memest_params *p) {
  memest_params_init(p);
  fuzz_set(p, "model", "fuzz");
  fuzz_set(p, "pp_size", "2");
  fuzz_set(p, "ep_size", "2");
  fuzz_set(p, "cp_size", "2");
  fuzz_set(p, "total_gpus", "16");
  fuzz_set(p, "micro_batch_size", "1");
  fuzz_set(p, "global_batch_size", "16");
  fuzz_set(p, "sequence_length", "128");
  fuzz_set(p, "gpu_memory_gb", "80");
  fuzz_set(p, "optimizer", "muon");
  fuzz_set(p, "sharding", "hsdp");
  fuzz_set(p, "fp8_training", "deep-gemm");
  fuzz_set(p, "timeline", "true");
  fuzz_set(p, "timeline_limit", "0");
  fuzz_set(p, "detail", "true");
}

/* A valid run at the extremes: 2^36 tokens per micro-batch and 100%
** fragmentation, so that a large config drives every byte count towards
** 2^63 (the checked arithmetic must catch each overflow). */
static inline void fuzz_params_huge(memest_params *p) {
  memest_params_init(p);
  fuzz_set(p, "model", "fuzz");
  fuzz_set(p, "pp_size", "1");
  fuzz_set(p, "ep_size", "1");
  fuzz_set(p, "cp_size", "1");
  fuzz_set(p, "total_gpus", "1");
  fuzz_set(p, "micro_batch_size", "4096");
  fuzz_set(p, "global_batch_size", "8192");
  fuzz_set(p, "sequence_length", "16777216");
  fuzz_set(p, "gpu_memory_gb", "1048576");
  fuzz_set(p, "fragmentation", "1");
  fuzz_set(p, "optimizer", "muon");
}

/* A failed call returns its code in the error, with a message. */
static inline void fuzz_check_error(memest_code rc, const memest_error *e) {
  FUZZ_REQUIRE(rc != MEMEST_OK);
  FUZZ_REQUIRE(e->code == rc);
  FUZZ_REQUIRE(e->message[0] != '\0');
  FUZZ_REQUIRE(memchr(e->message, '\0', sizeof e->message) != NULL);
  FUZZ_REQUIRE(memchr(e->field, '\0', sizeof e->field) != NULL);
  FUZZ_REQUIRE(memchr(e->fix, '\0', sizeof e->fix) != NULL);
}

/* A result's headline figures agree, its JSON parses, its text exists. */
static inline void fuzz_check_result(const memest_result *r) {
  char *json = memest_result_json(r), *text = memest_result_text(r);
  cJSON *root;
  FUZZ_REQUIRE(json != NULL && text != NULL && text[0] != '\0');
  FUZZ_REQUIRE(memest_result_capacity_bytes(r) > 0);
  FUZZ_REQUIRE((int64_t)memest_result_capacity_bytes(r) - (int64_t)memest_result_peak_bytes(r) ==
               memest_result_headroom_bytes(r));
  FUZZ_REQUIRE(memest_result_peak_bytes(r) >= memest_result_tensor_peak_bytes(r));
  root = fuzz_strict_json(json, strlen(json));
  FUZZ_REQUIRE(fuzz_terminal_safe(text, strlen(text)));
  FUZZ_REQUIRE(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "peak_bytes")));
  cJSON_Delete(root);
  memest_free(json);
  memest_free(text);
}

/* Estimates and validates one input, and checks that the two agree: a
** valid input may still fail to estimate (a limit, an overflow), but an
** input with problems never estimates. */
static inline void fuzz_run(const char *config, size_t len, const memest_params *p) {
  memest_result *r = NULL;
  memest_error e, errs[4];
  memest_code rc = memest_estimate(config, len, p, &r, &e);
  int n = memest_validate(config, len, p, errs, 4), i;
  FUZZ_REQUIRE(n >= 0);
  for (i = 0; i < n && i < 4; i++) fuzz_check_error(errs[i].code, &errs[i]);
  if (rc == MEMEST_OK) {
    FUZZ_REQUIRE(r != NULL);
    FUZZ_REQUIRE(n == 0);
    fuzz_check_result(r);
    memest_result_free(r);
  } else {
    FUZZ_REQUIRE(r == NULL);
    fuzz_check_error(rc, &e);
  }
}

/* Records (fuzz_params, fuzz_plan): a selector byte, then a value up to
** the next '\n'. Copies the value bytes (at most FUZZ_TEXT_MAX - 1) as a C
** string; returns the bytes used, the separator included. */
#define FUZZ_TEXT_MAX 1024

static inline size_t fuzz_take_value(const uint8_t *data, size_t size, char *out) {
  size_t n = 0;
  while (n < size && data[n] != '\n' && n < FUZZ_TEXT_MAX - 1) {
    out[n] = (char)data[n];
    n++;
  }
  out[n] = '\0';
  return n < size ? n + 1 : n;
}

/* A raw "name=value" record: splits text at its first '=' into *name and
** *value; 0 when there is none. */
static inline int fuzz_split_pair(char *text, const char **name, char **value) {
  char *eq = strchr(text, '=');
  if (eq == NULL) return 0;
  *eq = '\0';
  *name = text;
  *value = eq + 1;
  return 1;
}

#endif /* MEMEST_FUZZ_COMMON_H */
