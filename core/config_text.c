/*
** config_text.c — a config.json's bytes read the way Python's json module
** and the HuggingFace loader read them: UTF-8 text without a byte-order
** mark, strict JSON numbers and strings, plus Python's extensions (NaN,
** Infinity, -Infinity, lone surrogate escapes), and duplicate keys resolved
** as Python resolves them (the last one wins, with a warning). cJSON is
** more lenient in some places and stricter in others; this file closes the
** gap before and after cJSON parses. The differences memest keeps on
** purpose are listed in docs/limits.md.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Python's NaN, Infinity and -Infinity become one-character strings that
** no accepted config can hold (raw control characters in strings are
** refused below), turned back into numbers once cJSON has parsed. */
#define MARK_NAN '\x01'
#define MARK_INF '\x02'
#define MARK_NEG_INF '\x03'

void cfg_text_position(const char *text, size_t pos, int *line, int *col) {
  size_t i;
  *line = 1;
  *col = 1;
  for (i = 0; i < pos; i++) {
    if (text[i] == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

static memest_code text_error(memest_error *err, const char *text, size_t pos, const char *what,
                              const char *fix) {
  int line, col;
  memest_code rc;
  cfg_text_position(text, pos, &line, &col);
  rc = err_set(err, MEMEST_E_JSON, "config", "the config is not valid JSON: %s at line %d, column %d; %s",
               what, line, col, fix);
  if (err != NULL) {
    err->line = line;
    err->column = col;
  }
  return rc;
}

/* Length of the UTF-8 sequence at s (of at most n bytes), or 0 when it is
** not one Python's strict UTF-8 decoder accepts (overlong forms, surrogates
** and code points above U+10FFFF are refused). */
static size_t utf8_length(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  size_t len, i;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) len = 3;
  else if (c >= 0xF0 && c <= 0xF4) len = 4;
  else return 0;
  if (n < len) return 0;
  if (c == 0xE0) lo = 0xA0;
  else if (c == 0xED) hi = 0x9F;
  else if (c == 0xF0) lo = 0x90;
  else if (c == 0xF4) hi = 0x8F;
  if (s[1] < lo || s[1] > hi) return 0;
  for (i = 2; i < len; i++) {
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  }
  return len;
}

/* Whether the encoding is one Python's loader refuses before JSON begins. */
static memest_code check_encoding(const unsigned char *s, size_t len, memest_error *err) {
  if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    return err_set(err, MEMEST_E_JSON, "config",
                   "the config starts with a UTF-8 byte-order mark (EF BB BF), which Python's json "
                   "refuses (\"Unexpected UTF-8 BOM\"); save the file as UTF-8 without a BOM");
  }
  if (len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
    return err_set(err, MEMEST_E_JSON, "config",
                   "the config is UTF-16 (byte-order mark %02X %02X), but the HuggingFace loader "
                   "reads config.json as UTF-8; convert it (iconv -f UTF-16 -t UTF-8)",
                   s[0], s[1]);
  }
  if (len >= 2 && ((s[0] != 0 && s[1] == 0) || (s[0] == 0 && s[1] != 0))) {
    return err_set(err, MEMEST_E_JSON, "config",
                   "the config looks like UTF-16 without a byte-order mark (NUL bytes between the "
                   "characters), but the HuggingFace loader reads config.json as UTF-8; convert it "
                   "(iconv -f UTF-16LE -t UTF-8)");
  }
  return MEMEST_OK;
}

/* Length of the JSON number at s, checked against the grammar Python's
** json uses: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?. Returns 0 when
** the run of number characters there does not match it. */
static size_t number_length(const char *s, size_t n, size_t *run) {
  size_t i = 0, r = 0;
  while (r < n && (strchr("0123456789+-.eE", s[r]) != NULL) && s[r] != '\0') r++;
  *run = r;
  if (i < r && s[i] == '-') i++;
  if (i >= r) return 0;
  if (s[i] == '0') {
    i++;
  } else if (s[i] >= '1' && s[i] <= '9') {
    while (i < r && s[i] >= '0' && s[i] <= '9') i++;
  } else {
    return 0;
  }
  if (i < r && s[i] == '.') {
    size_t d = ++i;
    while (i < r && s[i] >= '0' && s[i] <= '9') i++;
    if (i == d) return 0;
  }
  if (i < r && (s[i] == 'e' || s[i] == 'E')) {
    size_t d;
    i++;
    if (i < r && (s[i] == '+' || s[i] == '-')) i++;
    d = i;
    while (i < r && s[i] >= '0' && s[i] <= '9') i++;
    if (i == d) return 0;
  }
  return i == r ? i : 0;
}

static int hex4(const char *s, size_t n, unsigned *out) {
  unsigned v = 0;
  size_t i;
  if (n < 4) return 0;
  for (i = 0; i < 4; i++) {
    char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

/* Within a string starting after its opening quote at `i`: checks raw
** bytes and rewrites lone surrogate escapes (which Python keeps and cJSON
** refuses) as U+FFFD. Returns the index of the closing quote, or len. */
static size_t scan_string(char *t, size_t len, size_t i, memest_error *err, memest_code *rc) {
  while (i < len && t[i] != '"') {
    unsigned char c = (unsigned char)t[i];
    if (c < 0x20) {
      const char *name = c == '\t' ? "a raw tab inside a string"
                         : c == '\n' ? "a raw line break inside a string"
                         : c == '\r' ? "a raw carriage return inside a string"
                                     : "a raw control character inside a string";
      *rc = text_error(err, t, i, c == 0 ? "a NUL byte inside a string" : name,
                       c == 0 ? "a config.json is text: remove the NUL byte"
                              : "Python's json refuses raw control characters inside strings; "
                                "write it as an escape (\\t, \\n, \\u00XX)");
      return len;
    }
    if (c >= 0x80) {
      size_t n = utf8_length((const unsigned char *)t + i, len - i);
      if (n == 0) {
        *rc = text_error(err, t, i, "bytes that are not UTF-8",
                         "the HuggingFace loader reads config.json as UTF-8: re-save it as UTF-8");
        return len;
      }
      i += n;
      continue;
    }
    if (c == '\\' && i + 1 < len) {
      unsigned u, u2;
      if (t[i + 1] == 'u' && hex4(t + i + 2, len - i - 2, &u) && u >= 0xD800 && u <= 0xDFFF) {
        int paired = u <= 0xDBFF && i + 11 < len && t[i + 6] == '\\' && t[i + 7] == 'u' &&
                     hex4(t + i + 8, len - i - 8, &u2) && u2 >= 0xDC00 && u2 <= 0xDFFF;
        if (paired) {
          i += 12;
          continue;
        }
        memcpy(t + i + 2, "fffd", 4);
      }
      i += 2;
      continue;
    }
    i++;
  }
  return i;
}

memest_code cfg_text_prepare(const char *text, size_t len, char **out, memest_error *err) {
  char *t;
  size_t i = 0;
  int seen_value = 0;
  memest_code rc = MEMEST_OK;
  *out = NULL;
  if ((rc = check_encoding((const unsigned char *)text, len, err))) return rc;
  t = malloc(len + 1);
  if (t == NULL) {
    return err_set(err, MEMEST_E_NOMEM, "config", "out of memory reading a %llu-byte config",
                   (unsigned long long)len);
  }
  memcpy(t, text, len);
  t[len] = '\0';
  while (i < len && rc == MEMEST_OK) {
    unsigned char c = (unsigned char)t[i];
    size_t run, n;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      i++;
      continue;
    }
    seen_value = 1;
    if (c == '"') {
      i = scan_string(t, len, i + 1, err, &rc) + 1;
      continue;
    }
    if (c == 0) {
      rc = text_error(err, t, i, "a NUL byte", "a config.json is text: remove the NUL byte");
      break;
    }
    if (c < 0x20 || c == 0x7F) {
      char what[64];
      snprintf(what, sizeof what, "a control character (0x%02X) between tokens", c);
      rc = text_error(err, t, i, what,
                      "JSON allows only spaces, tabs and line breaks there: remove it");
      break;
    }
    if (c >= 0x80 && utf8_length((const unsigned char *)t + i, len - i) == 0) {
      rc = text_error(err, t, i, "bytes that are not UTF-8",
                      "the HuggingFace loader reads config.json as UTF-8: re-save it as UTF-8");
      break;
    }
    if (len - i >= 3 && memcmp(t + i, "NaN", 3) == 0) {
      t[i] = '"';
      t[i + 1] = MARK_NAN;
      t[i + 2] = '"';
      i += 3;
      continue;
    }
    if (len - i >= 8 && memcmp(t + i, "Infinity", 8) == 0) {
      memcpy(t + i, "\"\x02\"     ", 8);
      i += 8;
      continue;
    }
    if (len - i >= 9 && memcmp(t + i, "-Infinity", 9) == 0) {
      memcpy(t + i, "\"\x03\"      ", 9);
      i += 9;
      continue;
    }
    if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
      n = number_length(t + i, len - i, &run);
      if (n == 0) {
        char what[96];
        snprintf(what, sizeof what, "the number '%.*s'", run > 40 ? 40 : (int)run, t + i);
        rc = text_error(err, t, i, what,
                        "JSON numbers have no leading '+' or zeros and need digits on both sides "
                        "of the point; write it as a plain decimal such as 0.5 or 1e-6");
        break;
      }
      i += n;
      continue;
    }
    i++;
  }
  if (rc == MEMEST_OK && !seen_value) {
    rc = err_set(err, MEMEST_E_JSON, "config",
                 "the config holds only whitespace (%llu bytes); give a model config.json",
                 (unsigned long long)len);
  }
  if (rc != MEMEST_OK) {
    free(t);
    return rc;
  }
  *out = t;
  return MEMEST_OK;
}

/* One object member, for sorting the members by key. */
typedef struct member_ref {
  cJSON *item;
  size_t index;
} member_ref;

static int member_order(const void *a, const void *b) {
  const member_ref *x = a, *y = b;
  int c = strcmp(x->item->string, y->item->string);
  if (c != 0) return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void unmark_number(cJSON *v) {
  const char *s = v->valuestring;
  double x;
  if (s == NULL || s[0] == '\0' || s[1] != '\0') return;
  if (s[0] == MARK_NAN) x = NAN;
  else if (s[0] == MARK_INF) x = HUGE_VAL;
  else if (s[0] == MARK_NEG_INF) x = -HUGE_VAL;
  else return;
  cJSON_free(v->valuestring);
  v->valuestring = NULL;
  v->type = cJSON_Number;
  v->valuedouble = x;
  v->valueint = 0;
}

/* Removes every member that a later one with the same key overrides. */
static memest_code drop_overridden(cJSON *obj, model_config *mc, memest_error *err) {
  size_t n = 0, i;
  member_ref *refs;
  cJSON *c;
  for (c = obj->child; c != NULL; c = c->next) n++;
  if (n < 2) return MEMEST_OK;
  refs = malloc(n * sizeof *refs);
  if (refs == NULL) {
    return err_set(err, MEMEST_E_NOMEM, "config", "out of memory checking %llu config keys",
                   (unsigned long long)n);
  }
  for (c = obj->child, i = 0; c != NULL; c = c->next, i++) {
    refs[i].item = c;
    refs[i].index = i;
  }
  qsort(refs, n, sizeof *refs, member_order);
  for (i = 0; i + 1 < n; i++) {
    size_t j = i;
    while (j + 1 < n && strcmp(refs[j + 1].item->string, refs[i].item->string) == 0) j++;
    if (j > i) {
      size_t k;
      cfg_warn(mc,
               "config key '%.64s' appears %llu times; the last value is used, as Python's json "
               "(and so the HuggingFace loader) reads it",
               refs[i].item->string, (unsigned long long)(j - i + 1));
      for (k = i; k < j; k++) cJSON_Delete(cJSON_DetachItemViaPointer(obj, refs[k].item));
      i = j;
    }
  }
  free(refs);
  return MEMEST_OK;
}

memest_code cfg_text_resolve(cJSON *node, model_config *mc, memest_error *err) {
  cJSON *c;
  memest_code rc;
  if (cJSON_IsString(node)) {
    unmark_number(node);
    return MEMEST_OK;
  }
  if (cJSON_IsObject(node) && (rc = drop_overridden(node, mc, err))) return rc;
  for (c = node->child; c != NULL; c = c->next) {
    if ((rc = cfg_text_resolve(c, mc, err))) return rc;
  }
  return MEMEST_OK;
}
