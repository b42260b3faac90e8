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
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* Python's NaN, Infinity and -Infinity become one-character strings that
** no accepted config can hold (raw control characters in strings are
** refused below), turned back into numbers once cJSON has parsed. */
#define MARK_NAN '\x01'
#define MARK_INF '\x02'
#define MARK_NEG_INF '\x03'

static void cfg_text_position(const char *text, size_t pos, int *line, int *col) {
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
  cfg_text_position(text, pos, &line, &col);
  return memi_err_set_at(err, MEMEST_E_JSON, "config", line, col,
                    "the config is not valid JSON: %s at line %d, column %d; %s", what, line, col,
                    fix);
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
    return memi_err_set(err, MEMEST_E_JSON, "config",
                   "the config starts with a UTF-8 byte-order mark (EF BB BF), which Python's json "
                   "refuses (\"Unexpected UTF-8 BOM\"); save the file as UTF-8 without a BOM");
  }
  if (len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
    return memi_err_set(err, MEMEST_E_JSON, "config",
                   "the config is UTF-16 (byte-order mark %02X %02X), but the HuggingFace loader "
                   "reads config.json as UTF-8; convert it (iconv -f UTF-16 -t UTF-8)",
                   s[0], s[1]);
  }
  if (len >= 2 && ((s[0] != 0 && s[1] == 0) || (s[0] == 0 && s[1] != 0))) {
    return memi_err_set(err, MEMEST_E_JSON, "config",
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

/* {======================================================================
** The syntax check: the grammar Python's json accepts, one pass with a
** stack of open brackets bounded by MEMEST_MAX_JSON_DEPTH, so that a text
** it accepts can fail in cJSON only for want of memory.
** ======================================================================= */

/* What the next token may be. */
typedef enum want {
  WANT_VALUE,          /* a value (the document, after ':' or after ',' in an array) */
  WANT_VALUE_OR_CLOSE, /* just after '[' */
  WANT_KEY,            /* after ',' in an object */
  WANT_KEY_OR_CLOSE,   /* just after '{' */
  WANT_COLON,          /* after a property name */
  WANT_COMMA_OR_CLOSE, /* after a value inside an object or array */
  WANT_END             /* after the document's value: only whitespace */
} want;

typedef struct syntax {
  char *t;
  size_t len;
  want next;
  int depth;
  char open[MEMEST_MAX_JSON_DEPTH]; /* '{' or '[' for each open level */
  memest_error *err;
} syntax;

static int is_number_start(unsigned char c) {
  return c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9');
}

/* The next token, named for a message without quoting the text: the bytes
** may be another file's (a credentials file that a log's training.model
** names), and no error shows them. A structural character is named, and a
** word from the list Python and JavaScript write where JSON has its own
** literals; anything else by its kind. */
static void token_text(const syntax *sx, size_t i, char *out, size_t size) {
  static const char *const words[] = {"True", "False", "None", "nan", "inf", "undefined"};
  unsigned char c;
  size_t n = 0, w;
  if (i >= sx->len) {
    snprintf(out, size, "the end of the text");
    return;
  }
  c = (unsigned char)sx->t[i];
  if (c == '"') {
    snprintf(out, size, "a string");
  } else if (c == '\'') {
    snprintf(out, size, "a single quote");
  } else if (is_number_start(c)) {
    snprintf(out, size, "a number");
  } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
    while (i + n < sx->len && (isalnum((unsigned char)sx->t[i + n]) || sx->t[i + n] == '_')) n++;
    for (w = 0; w < sizeof words / sizeof words[0]; w++) {
      if (strlen(words[w]) == n && memcmp(sx->t + i, words[w], n) == 0) {
        snprintf(out, size, "'%s'", words[w]);
        return;
      }
    }
    snprintf(out, size, "a word without quotes");
  } else if (c > ' ' && c < 0x7F) {
    snprintf(out, size, "'%c'", c);   /* punctuation: {, ], =, #, ... */
  } else {
    snprintf(out, size, "a non-ASCII character");
  }
}

/* A token that does not fit where it stands: what was expected, what was
** found, and how to fix it. */
static memest_code misplaced(const syntax *sx, size_t i) {
  char found[40], what[160];
  const char *expect, *fix;
  int in_object = sx->depth > 0 && sx->open[sx->depth - 1] == '{';
  unsigned char c = i < sx->len ? (unsigned char)sx->t[i] : 0;
  token_text(sx, i, found, sizeof found);
  switch (sx->next) {
  case WANT_KEY:
    if (c == '}') {
      return text_error(sx->err, sx->t, i, "a trailing comma before '}'",
                        "Python's json refuses it: remove the last comma");
    }
    /* fall through */
  case WANT_KEY_OR_CLOSE:
    expect = sx->next == WANT_KEY ? "expecting a property name in double quotes"
                                  : "expecting a property name in double quotes or '}'";
    fix = c == '\'' ? "JSON strings take double quotes, not single ones"
                    : "write each key in double quotes, as in \"hidden_size\": 2048";
    break;
  case WANT_COLON:
    expect = "expecting ':' after the property name";
    fix = "write each member as \"key\": value";
    break;
  case WANT_COMMA_OR_CLOSE:
    expect = in_object ? "expecting ',' or '}'" : "expecting ',' or ']'";
    fix = c == '/' ? "JSON has no comments: remove it"
          : i >= sx->len ? "the text ends early: check that it was saved whole"
                         : "check for a missing comma, quote or bracket before it";
    break;
  case WANT_VALUE:
    if (c == ']' && sx->depth > 0 && sx->open[sx->depth - 1] == '[') {
      return text_error(sx->err, sx->t, i, "a trailing comma before ']'",
                        "Python's json refuses it: remove the last comma");
    }
    /* fall through */
  default:
    expect = "expecting a value";
    fix = c == '\'' ? "JSON strings take double quotes, not single ones"
          : i >= sx->len ? "the text ends early: check that it was saved whole"
          : sx->depth == 0 ? "a config.json is one JSON object, '{' first: is this the model's "
                             "config.json?"
                           : "a value is a number, a string in double quotes, true, false, null, "
                             "NaN, Infinity, an object or an array";
    break;
  }
  snprintf(what, sizeof what, "%s, found %s", expect, found);
  return text_error(sx->err, sx->t, i, what, fix);
}

/* After a complete value (a scalar, or a closing bracket). */
static void value_done(syntax *sx) {
  sx->next = sx->depth == 0 ? WANT_END : WANT_COMMA_OR_CLOSE;
}

static int wants_value(const syntax *sx) {
  return sx->next == WANT_VALUE || sx->next == WANT_VALUE_OR_CLOSE;
}

/* A string starting at its opening quote at i: its escapes checked (and
** lone surrogates rewritten by scan_string). Returns the index after it. */
static size_t string_token(syntax *sx, size_t i, memest_code *rc) {
  size_t q = i, k;
  size_t end = scan_string(sx->t, sx->len, i + 1, sx->err, rc);
  if (*rc != MEMEST_OK) return sx->len;
  if (end >= sx->len) {
    *rc = text_error(sx->err, sx->t, q, "a string that is never closed",
                     "add the closing double quote");
    return sx->len;
  }
  for (k = q + 1; k < end; k++) {
    unsigned u;
    unsigned char e;
    char what[48];
    if (sx->t[k] != '\\') continue;
    k++;
    if (sx->t[k] != '\0' && strchr("\"\\/bfnrt", sx->t[k]) != NULL) continue;
    if (sx->t[k] == 'u' && hex4(sx->t + k + 1, end - k - 1, &u)) {
      k += 4;
      continue;
    }
    e = (unsigned char)sx->t[k];
    if (e == 'u') snprintf(what, sizeof what, "an invalid \\uXXXX escape");
    else if (e > ' ' && e < 0x7F) snprintf(what, sizeof what, "an invalid escape '\\%c'", e);
    else snprintf(what, sizeof what, "an invalid escape");
    *rc = text_error(sx->err, sx->t, k - 1, what,
                     "the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hex "
                     "digits");
    return sx->len;
  }
  return end + 1;
}

/* What is wrong with the run of number characters s[0..run) that
** number_length refused, said without quoting them. */
static const char *number_fault(const char *s, size_t run) {
  size_t i = s[0] == '-' ? 1 : 0, k;
  if (s[0] == '+') return "a number with a leading '+'";
  if (i < run && s[i] == '.') return "a number with no digit before the point";
  if (i >= run || !(s[i] >= '0' && s[i] <= '9')) return "a '-' with no number after it";
  if (s[i] == '0' && i + 1 < run && s[i + 1] >= '0' && s[i + 1] <= '9')
    return "a number with a leading zero";
  for (k = i; k < run && s[k] >= '0' && s[k] <= '9'; k++) {}
  if (k < run && s[k] == '.' && (k + 1 >= run || !(s[k + 1] >= '0' && s[k + 1] <= '9')))
    return "a number with no digit after the point";
  if (k < run && s[k] == '.')
    for (k++; k < run && s[k] >= '0' && s[k] <= '9'; k++) {}
  if (k < run && (s[k] == 'e' || s[k] == 'E')) {
    size_t d = k + 1 < run && (s[k + 1] == '+' || s[k + 1] == '-') ? k + 2 : k + 1;
    if (d >= run || !(s[d] >= '0' && s[d] <= '9')) return "a number with no digits in its exponent";
  }
  return "a number outside JSON's grammar";
}

/* A literal or number in value position at i; returns the index after it,
** or 0 with *rc set. NaN and the infinities are rewritten as marks. */
static size_t scalar_token(syntax *sx, size_t i, memest_code *rc) {
  static const char *const words[] = {"true", "false", "null"};
  char *t = sx->t + i;
  size_t left = sx->len - i, run, n, w;
  for (w = 0; w < sizeof words / sizeof words[0]; w++) {
    size_t wl = strlen(words[w]);
    if (left >= wl && memcmp(t, words[w], wl) == 0) return i + wl;
  }
  if (left >= 3 && memcmp(t, "NaN", 3) == 0) {
    t[0] = '"';
    t[1] = MARK_NAN;
    t[2] = '"';
    return i + 3;
  }
  if (left >= 8 && memcmp(t, "Infinity", 8) == 0) {
    memcpy(t, "\"\x02\"     ", 8);
    return i + 8;
  }
  if (left >= 9 && memcmp(t, "-Infinity", 9) == 0) {
    memcpy(t, "\"\x03\"      ", 9);
    return i + 9;
  }
  if (!is_number_start((unsigned char)t[0])) {
    *rc = misplaced(sx, i);
    return 0;
  }
  n = number_length(t, left, &run);
  if (n == 0) {
    *rc = text_error(sx->err, sx->t, i, number_fault(t, run),
                     "JSON numbers have no leading '+' or zeros and need digits on both sides "
                     "of the point; write it as a plain decimal such as 0.5 or 1e-6");
    return 0;
  }
  return i + n;
}

/* A byte that no JSON token can start with, named; MEMEST_OK otherwise. */
static memest_code stray_byte(syntax *sx, size_t i) {
  unsigned char c = (unsigned char)sx->t[i];
  if (c == 0) return text_error(sx->err, sx->t, i, "a NUL byte", "a config.json is text: remove the NUL byte");
  if (c < 0x20 || c == 0x7F) {
    char what[64];
    snprintf(what, sizeof what, "a control character (0x%02X) between tokens", c);
    return text_error(sx->err, sx->t, i, what,
                      "JSON allows only spaces, tabs and line breaks there: remove it");
  }
  if (c >= 0x80 && utf8_length((const unsigned char *)sx->t + i, sx->len - i) == 0) {
    return text_error(sx->err, sx->t, i, "bytes that are not UTF-8",
                      "the HuggingFace loader reads config.json as UTF-8: re-save it as UTF-8");
  }
  return MEMEST_OK;
}

static memest_code open_bracket(syntax *sx, size_t i) {
  char c = sx->t[i];
  if (sx->depth >= MEMEST_MAX_JSON_DEPTH) {
    int line, col;
    cfg_text_position(sx->t, i, &line, &col);
    return memi_err_set_at(sx->err, MEMEST_E_LIMIT, "config", line, col,
                      "the config nests deeper than MEMEST_MAX_JSON_DEPTH = %d levels (at line %d, "
                      "column %d); a model config.json is a flat object",
                      MEMEST_MAX_JSON_DEPTH, line, col);
  }
  sx->open[sx->depth++] = c;
  sx->next = c == '{' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE;
  return MEMEST_OK;
}

/* Whether a closing bracket c fits here. */
static int closes(const syntax *sx, char c) {
  char o = c == '}' ? '{' : '[';
  if (sx->depth == 0 || sx->open[sx->depth - 1] != o) return 0;
  return sx->next == WANT_COMMA_OR_CLOSE ||
         sx->next == (c == '}' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE);
}

/* One token at i (not whitespace); returns the index after it. */
static size_t syntax_token(syntax *sx, size_t i, memest_code *rc) {
  char c = sx->t[i];
  if ((*rc = stray_byte(sx, i)) != MEMEST_OK) return sx->len;
  if (sx->next == WANT_END) {
    *rc = text_error(sx->err, sx->t, i, "unexpected text after the object",
                     "remove it, or check for a missing bracket before it");
    return sx->len;
  }
  if ((c == '{' || c == '[') && wants_value(sx)) {
    *rc = open_bracket(sx, i);
    return i + 1;
  }
  if ((c == '}' || c == ']') && closes(sx, c)) {
    sx->depth--;
    value_done(sx);
    return i + 1;
  }
  if (c == ',' && sx->next == WANT_COMMA_OR_CLOSE) {
    sx->next = sx->open[sx->depth - 1] == '{' ? WANT_KEY : WANT_VALUE;
    return i + 1;
  }
  if (c == ':' && sx->next == WANT_COLON) {
    sx->next = WANT_VALUE;
    return i + 1;
  }
  if (c == '"' && (sx->next == WANT_KEY || sx->next == WANT_KEY_OR_CLOSE)) {
    sx->next = WANT_COLON;
    return string_token(sx, i, rc);
  }
  if (c == '"' && wants_value(sx)) {
    value_done(sx);
    return string_token(sx, i, rc);
  }
  if (wants_value(sx) && c != '}' && c != ']' && c != ',' && c != ':') {
    size_t after = scalar_token(sx, i, rc);
    if (*rc != MEMEST_OK) return sx->len;
    value_done(sx);
    return after;
  }
  *rc = misplaced(sx, i);
  return sx->len;
}

static memest_code syntax_check(char *t, size_t len, memest_error *err) {
  syntax *sx = malloc(sizeof *sx);
  memest_code rc = MEMEST_OK;
  size_t i = 0;
  if (sx == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory reading the config");
  memset(sx, 0, sizeof *sx);
  sx->t = t;
  sx->len = len;
  sx->next = WANT_VALUE;
  sx->err = err;
  while (i < len && rc == MEMEST_OK) {
    char c = t[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
    else i = syntax_token(sx, i, &rc);
  }
  if (rc == MEMEST_OK && sx->next == WANT_VALUE && sx->depth == 0) {
    rc = memi_err_set(err, MEMEST_E_JSON, "config",
                 "the config holds only whitespace (%llu bytes); give a model config.json",
                 (unsigned long long)len);
  } else if (rc == MEMEST_OK && sx->next != WANT_END) {
    rc = misplaced(sx, len);
  }
  free(sx);
  return rc;
}
/* }====================================================================== */

memest_code memi_cfg_text_prepare(const char *text, size_t len, char **out, memest_error *err) {
  char *t;
  memest_code rc;
  *out = NULL;
  if ((rc = check_encoding((const unsigned char *)text, len, err))) return rc;
  t = malloc(len + 1);
  if (t == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory reading a %llu-byte config",
                   (unsigned long long)len);
  }
  memcpy(t, text, len);
  t[len] = '\0';
  if ((rc = syntax_check(t, len, err)) != MEMEST_OK) {
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
    return memi_err_set(err, MEMEST_E_NOMEM, "config", "out of memory checking %llu config keys",
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
      memi_cfg_warn(mc,
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

memest_code memi_cfg_text_resolve(cJSON *node, model_config *mc, memest_error *err) {
  cJSON *c;
  memest_code rc;
  if (cJSON_IsString(node)) {
    unmark_number(node);
    return MEMEST_OK;
  }
  if (cJSON_IsObject(node) && (rc = drop_overridden(node, mc, err))) return rc;
  for (c = node->child; c != NULL; c = c->next) {
    if ((rc = memi_cfg_text_resolve(c, mc, err))) return rc;
  }
  return MEMEST_OK;
}
