/*
** pylex.c — Python's tokenizer, as the launch-script reader and the log's
** repr reader need it: the lexical rules of Python 3.12 (the trainer needs
** 3.12+) over UTF-8 text. Physical and logical lines (LF, CRLF or CR),
** comments, backslash continuations, brackets that span lines, INDENT and
** DEDENT by Python's column rule (a tab to the next multiple of 8, a form
** feed back to 0), names, every number form, and strings with every prefix
** (r, u, b, f, t and their pairs), both quotes, triple quotes, escapes and
** f-string replacement fields with 3.12's nesting. What Python's tokenizer
** refuses is refused with the same words and "label:line:col". Nothing
** here knows the trainer; the values of string and number tokens are read
** by memi_pystr_value and memi_pynum_value.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainer/trainer.h"

typedef struct lexer {
  const char *s;
  size_t n, i;
  const char *label;
  int line;
  size_t bol;                                /* where the current physical line begins */
  int depth;                                 /* open brackets */
  char open[MEMEST_MAX_PY_NESTING];
  int open_line[MEMEST_MAX_PY_NESTING], open_col[MEMEST_MAX_PY_NESTING];
  int indent[MEMEST_MAX_PY_INDENT + 1];
  int altindent[MEMEST_MAX_PY_INDENT + 1];   /* the same with a tab as one column: TabError */
  int n_indent;
  int repr;
  int line_has_tokens;                       /* the logical line has a token yet */
  int fdepth;                                /* f-strings nested inside fields */
  pytok *t;
  int nt, cap;
  memest_error *err;
} lexer;

static int col_of(const lexer *lx, size_t at) { return (int)(at - lx->bol) + 1; }

static memest_code lex_fail(lexer *lx, int line, int col, const char *fmt, const char *what) {
  char msg[300];
  snprintf(msg, sizeof msg, fmt, what);
  return memi_err_set(lx->err, MEMEST_E_VALUE, "script", "%.160s:%d:%d: %s", lx->label, line, col,
                      msg);
}

static int is_id_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
static int is_id_char(unsigned char c) { return is_id_start(c) || (c >= '0' && c <= '9'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_newline(char c) { return c == '\n' || c == '\r'; }

/* Consumes one newline (LF, CRLF or CR) at lx->i. */
static void eat_newline(lexer *lx) {
  if (lx->s[lx->i] == '\r' && lx->i + 1 < lx->n && lx->s[lx->i + 1] == '\n') lx->i++;
  lx->i++;
  lx->line++;
  lx->bol = lx->i;
}

static memest_code push(lexer *lx, pt_kind kind, size_t start, size_t len, int line, int col) {
  if (lx->nt == lx->cap) {
    int nc = lx->cap ? lx->cap * 2 : 256;
    pytok *nt;
    if (lx->cap >= MEMEST_MAX_SCRIPT_TOKENS) {
      return memi_err_set(lx->err, MEMEST_E_LIMIT, "script",
                          "%.160s has more than MEMEST_MAX_SCRIPT_TOKENS (%d) tokens; a launch "
                          "script has a few hundred",
                          lx->label, (int)MEMEST_MAX_SCRIPT_TOKENS);
    }
    if (nc > MEMEST_MAX_SCRIPT_TOKENS + 1) nc = MEMEST_MAX_SCRIPT_TOKENS + 1;
    nt = realloc(lx->t, (size_t)nc * sizeof *nt);
    if (nt == NULL) return memi_err_set(lx->err, MEMEST_E_NOMEM, "script", "out of memory");
    lx->t = nt;
    lx->cap = nc;
  }
  lx->t[lx->nt].kind = kind;
  lx->t[lx->nt].start = (uint32_t)start;
  lx->t[lx->nt].len = (uint32_t)len;
  lx->t[lx->nt].line = line;
  lx->t[lx->nt].col = col;
  lx->nt++;
  if (kind != PT_NEWLINE && kind != PT_INDENT && kind != PT_DEDENT) lx->line_has_tokens = 1;
  return MEMEST_OK;
}

/* {======================================================================
** Strings
** ======================================================================= */

/* The prefix letters of a string (at most two, e.g. "rb", "Rf"), as flags:
** 1 raw, 2 bytes, 4 f-string, 8 t-string, 16 u. 0 when not a prefix. */
static int prefix_flags(const char *p, size_t n) {
  int f = 0;
  size_t k;
  if (n == 0 || n > 2) return n == 0 ? 32 : 0;
  for (k = 0; k < n; k++) {
    int bit;
    switch (p[k]) {
      case 'r': case 'R': bit = 1; break;
      case 'b': case 'B': bit = 2; break;
      case 'f': case 'F': bit = 4; break;
      case 't': case 'T': bit = 8; break;
      case 'u': case 'U': bit = 16; break;
      default: return 0;
    }
    if (f & bit) return 0;
    f |= bit;
  }
  if (n == 2 && (!(f & 1) || (f & 16))) return 0;   /* pairs are r with b, f or t */
  return f;
}

static memest_code scan_string(lexer *lx, size_t q, int flags, int sline, int scol);

/* The prefix flags of a string inside an f-string's field whose quote is
** at lx->i: the one or two letters just before it, when they are a whole
** word; 0 for none. */
static int prefix_before(const lexer *lx) {
  size_t k = 0;
  int fl;
  while (k < 3 && lx->i > lx->bol + k && is_id_char((unsigned char)lx->s[lx->i - k - 1])) k++;
  if (k == 0 || k == 3) return 0;
  fl = prefix_flags(lx->s + lx->i - k, k);
  return fl == 32 ? 0 : fl;
}

/* An f-string's format spec, after the field's ':' up to the field's '}':
** text in which only braces count (a nested field opens with '{'). */
static memest_code scan_spec(lexer *lx, int sline, int scol);

/* One replacement field of an f-string, after its '{', through its '}'. */
static memest_code scan_field(lexer *lx, int sline, int scol) {
  int depth = 0;
  memest_code rc;
  while (lx->i < lx->n) {
    char c = lx->s[lx->i];
    if (c == '\'' || c == '"') {
      if ((rc = scan_string(lx, lx->i, prefix_before(lx), lx->line, col_of(lx, lx->i))) != MEMEST_OK)
        return rc;
      continue;
    }
    if (is_newline(c)) {
      eat_newline(lx);
      continue;
    }
    if (c == '#') {
      while (lx->i < lx->n && !is_newline(lx->s[lx->i])) lx->i++;
      continue;
    }
    if (c == '\\' && lx->i + 1 < lx->n && is_newline(lx->s[lx->i + 1])) {
      lx->i++;
      eat_newline(lx);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > MEMEST_MAX_PY_NESTING)
        return lex_fail(lx, lx->line, col_of(lx, lx->i), "too many nested parentheses%s", "");
    } else if (c == ')' || c == ']' || (c == '}' && depth > 0)) {
      depth--;
    } else if (c == '}') {
      lx->i++;
      return MEMEST_OK;
    } else if (depth == 0 && c == '!' && lx->i + 1 < lx->n && lx->s[lx->i + 1] != '=') {
      char v = lx->s[lx->i + 1];   /* a conversion, !r !s !a; then a spec or the end */
      if ((v != 'r' && v != 's' && v != 'a') || lx->i + 2 >= lx->n ||
          (lx->s[lx->i + 2] != ':' && lx->s[lx->i + 2] != '}'))
        return lex_fail(lx, lx->line, col_of(lx, lx->i),
                        "f-string: invalid conversion character: expected 's', 'r', or 'a'%s", "");
      lx->i += 2;
      continue;
    } else if (depth == 0 && c == ':') {
      lx->i++;
      return scan_spec(lx, sline, scol);
    }
    lx->i++;
  }
  return lex_fail(lx, sline, scol, "f-string: expecting '}'%s", "");
}

static memest_code scan_spec(lexer *lx, int sline, int scol) {
  memest_code rc;
  while (lx->i < lx->n) {
    char c = lx->s[lx->i];
    if (c == '{') {
      lx->i++;
      if (++lx->fdepth > MEMEST_MAX_PY_NESTING)
        return lex_fail(lx, lx->line, col_of(lx, lx->i), "too many nested f-strings%s", "");
      rc = scan_field(lx, sline, scol);
      lx->fdepth--;
      if (rc != MEMEST_OK) return rc;
      continue;
    }
    if (c == '}') {
      lx->i++;
      return MEMEST_OK;
    }
    if (is_newline(c)) {
      eat_newline(lx);
      continue;
    }
    lx->i++;
  }
  return lex_fail(lx, sline, scol, "f-string: expecting '}'%s", "");
}

/* A string whose opening quote is at q, with prefix flags (1 raw, 4 f, 8
** t); leaves lx->i after the closing quote. */
static memest_code scan_string(lexer *lx, size_t q, int flags, int sline, int scol) {
  char quote = lx->s[q];
  int triple = q + 2 < lx->n && lx->s[q + 1] == quote && lx->s[q + 2] == quote;
  int fields = (flags & (4 | 8)) != 0;
  memest_code rc;
  lx->i = q + (triple ? 3 : 1);
  for (;;) {
    char c;
    if (lx->i >= lx->n) {
      return lex_fail(lx, sline, scol,
                      triple ? "unterminated triple-quoted string literal%s"
                             : "unterminated string literal%s",
                      "");
    }
    c = lx->s[lx->i];
    if (c == quote) {
      if (!triple) {
        lx->i++;
        return MEMEST_OK;
      }
      if (lx->i + 2 < lx->n && lx->s[lx->i + 1] == quote && lx->s[lx->i + 2] == quote) {
        lx->i += 3;
        return MEMEST_OK;
      }
      lx->i++;
      continue;
    }
    if (is_newline(c)) {
      if (!triple) return lex_fail(lx, sline, scol, "unterminated string literal%s", "");
      eat_newline(lx);
      continue;
    }
    if (c == '\\') {
      lx->i++;
      if (lx->i < lx->n && is_newline(lx->s[lx->i])) eat_newline(lx);
      else if (lx->i < lx->n && !(fields && (lx->s[lx->i] == '{' || lx->s[lx->i] == '}'))) lx->i++;
      continue;
    }
    if (fields && c == '{') {
      if (lx->i + 1 < lx->n && lx->s[lx->i + 1] == '{') {
        lx->i += 2;
        continue;
      }
      lx->i++;
      if (++lx->fdepth > MEMEST_MAX_PY_NESTING)
        return lex_fail(lx, lx->line, col_of(lx, lx->i), "too many nested f-strings%s", "");
      rc = scan_field(lx, lx->line, col_of(lx, lx->i - 1));
      lx->fdepth--;
      if (rc != MEMEST_OK) return rc;
      continue;
    }
    if (fields && c == '}') {
      if (lx->i + 1 < lx->n && lx->s[lx->i + 1] == '}') {
        lx->i += 2;
        continue;
      }
      return lex_fail(lx, lx->line, col_of(lx, lx->i), "f-string: single '}' is not allowed%s", "");
    }
    lx->i++;
  }
}
/* }====================================================================== */

/* {======================================================================
** Numbers and operators
** ======================================================================= */

static int base_digit(const lexer *lx, size_t i, int base) {
  char c = i < lx->n ? lx->s[i] : '\0';
  return base == 16 ? ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
         : base == 8 ? (c >= '0' && c <= '7')
         : base == 2 ? (c == '0' || c == '1')
                     : is_digit(c);
}

/* The end of a run of digits of `base` from i, single underscores allowed
** between them. */
static size_t digits(const lexer *lx, size_t i, int base) {
  size_t start = i;
  for (;;) {
    if (base_digit(lx, i, base)) i++;
    else if (i > start && i < lx->n && lx->s[i] == '_' && base_digit(lx, i + 1, base)) i += 2;
    else return i;
  }
}

static memest_code scan_number(lexer *lx) {
  size_t start = lx->i, i = lx->i, d;
  int line = lx->line, col = col_of(lx, start);
  const char *s = lx->s;
  if (s[i] == '0' && i + 1 < lx->n && strchr("xXoObB", s[i + 1]) != NULL && s[i + 1] != '\0') {
    int base = (s[i + 1] == 'x' || s[i + 1] == 'X') ? 16 : (s[i + 1] == 'o' || s[i + 1] == 'O') ? 8 : 2;
    i += 2;
    if (i < lx->n && s[i] == '_') i++;
    d = digits(lx, i, base);
    if (d == i) {
      return lex_fail(lx, line, col, "invalid %s literal",
                      base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary");
    }
    lx->i = d;
    return push(lx, PT_NUMBER, start, lx->i - start, line, col);
  }
  i = digits(lx, i, 10);
  if (i > start && s[start] == '0') {   /* 0, 00, 0_0: but no leading zeros before other digits */
    size_t k;
    int nonzero = 0;
    for (k = start; k < i; k++) nonzero |= s[k] != '0' && s[k] != '_';
    if (nonzero && !(i < lx->n && (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'j' || s[i] == 'J')))
      return lex_fail(lx, line, col,
                      "leading zeros in decimal integer literals are not permitted; use an 0o "
                      "prefix for octal integers%s",
                      "");
  }
  if (i < lx->n && s[i] == '.') i = digits(lx, i + 1, 10);
  if (i < lx->n && (s[i] == 'e' || s[i] == 'E')) {
    size_t e = i + 1;
    if (e < lx->n && (s[e] == '+' || s[e] == '-')) e++;
    d = digits(lx, e, 10);
    if (d == e) return lex_fail(lx, line, col, "invalid decimal literal%s", "");
    i = d;
  }
  if (i < lx->n && (s[i] == 'j' || s[i] == 'J')) i++;
  lx->i = i;
  return push(lx, PT_NUMBER, start, i - start, line, col);
}

static const char *const operators[] = {
  "**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//",
  "/=", ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=", "!", "%", "&", "(", ")", "*",
  "+", ",", "-", ".", "/", ":", ";", "<", "=", ">", "@", "[", "]", "^", "{", "|", "}", "~",
  NULL};

static memest_code scan_operator(lexer *lx) {
  int k, line = lx->line, col = col_of(lx, lx->i);
  size_t start = lx->i;
  char c = lx->s[lx->i];
  for (k = 0; operators[k] != NULL; k++) {
    size_t m = strlen(operators[k]);
    if (lx->i + m <= lx->n && memcmp(lx->s + lx->i, operators[k], m) == 0) break;
  }
  if (operators[k] == NULL) {
    char what[16];
    snprintf(what, sizeof what, "'%c' (U+%04X)", c >= 0x20 && c < 0x7f ? c : '?',
             (unsigned)(unsigned char)c);
    return lex_fail(lx, line, col, "invalid character %s", what);
  }
  lx->i += strlen(operators[k]);
  if (c == '(' || c == '[' || c == '{') {
    if (lx->depth >= MEMEST_MAX_PY_NESTING)
      return lex_fail(lx, line, col, "too many nested parentheses%s", "");
    lx->open[lx->depth] = c;
    lx->open_line[lx->depth] = line;
    lx->open_col[lx->depth++] = col;
  } else if (c == ')' || c == ']' || c == '}') {
    char want = c == ')' ? '(' : c == ']' ? '[' : '{', what[80];
    if (lx->depth == 0) {
      snprintf(what, sizeof what, "'%c'", c);
      return lex_fail(lx, line, col, "unmatched %s", what);
    }
    if (lx->open[lx->depth - 1] != want) {
      snprintf(what, sizeof what, "'%c' does not match opening parenthesis '%c' on line %d", c,
               lx->open[lx->depth - 1], lx->open_line[lx->depth - 1]);
      return lex_fail(lx, line, col, "closing parenthesis %s", what);
    }
    lx->depth--;
  }
  return push(lx, PT_OP, start, lx->i - start, line, col);
}
/* }====================================================================== */

/* {======================================================================
** Lines and indentation
** ======================================================================= */

/* At the start of a logical line outside brackets: measures its
** indentation and makes INDENT/DEDENT tokens, or skips a blank or
** comment-only line. Returns MEMEST_OK; *blank when the line was skipped. */
static memest_code line_start(lexer *lx, int *blank) {
  int col = 0, alt = 0;
  size_t i = lx->i;
  *blank = 0;
  while (i < lx->n && (lx->s[i] == ' ' || lx->s[i] == '\t' || lx->s[i] == '\f')) {
    if (lx->s[i] == ' ') col++, alt++;
    else if (lx->s[i] == '\t') col = (col / 8 + 1) * 8, alt++;
    else col = alt = 0;
    i++;
  }
  if (i >= lx->n || is_newline(lx->s[i]) || lx->s[i] == '#' ||
      (lx->s[i] == '\\' && i + 1 < lx->n && is_newline(lx->s[i + 1]))) {
    while (i < lx->n && !is_newline(lx->s[i])) i++;
    lx->i = i;
    if (i < lx->n) eat_newline(lx);
    *blank = 1;
    return MEMEST_OK;
  }
  lx->i = i;
  if (lx->repr) return MEMEST_OK;
  /* Python compares the indentation twice, a tab as 8 columns and as 1;
  ** when the two disagree it raises TabError. */
  if (col == lx->indent[lx->n_indent]) {
    if (alt != lx->altindent[lx->n_indent]) goto tab_error;
    return MEMEST_OK;
  }
  if (col > lx->indent[lx->n_indent]) {
    if (lx->n_indent >= MEMEST_MAX_PY_INDENT)
      return lex_fail(lx, lx->line, col + 1, "too many levels of indentation%s", "");
    if (alt <= lx->altindent[lx->n_indent]) goto tab_error;
    lx->indent[++lx->n_indent] = col;
    lx->altindent[lx->n_indent] = alt;
    return push(lx, PT_INDENT, i, 0, lx->line, col + 1);
  }
  while (col < lx->indent[lx->n_indent]) {
    memest_code rc;
    lx->n_indent--;
    if (col > lx->indent[lx->n_indent])
      return lex_fail(lx, lx->line, col + 1, "unindent does not match any outer indentation level%s",
                      "");
    if ((rc = push(lx, PT_DEDENT, i, 0, lx->line, col + 1)) != MEMEST_OK) return rc;
  }
  if (alt != lx->altindent[lx->n_indent]) goto tab_error;
  return MEMEST_OK;
tab_error:
  return lex_fail(lx, lx->line, col + 1,
                  "inconsistent use of tabs and spaces in indentation (TabError)%s", "");
}

/* Checks the whole text is UTF-8 without NUL bytes, as Python requires. */
static memest_code check_text(lexer *lx) {
  const unsigned char *u = (const unsigned char *)lx->s;
  size_t i = 0;
  int line = 1;
  size_t bol = 0;
  while (i < lx->n) {
    unsigned c = u[i];
    int k, len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (c == 0) {
      return memi_err_set(lx->err, MEMEST_E_VALUE, "script",
                          "%.160s:%d:%d: source code cannot contain null bytes", lx->label, line,
                          (int)(i - bol) + 1);
    }
    for (k = 1; len > 0 && k < len; k++) {
      if (i + (size_t)k >= lx->n || (u[i + k] & 0xc0) != 0x80) len = 0;
    }
    if (len == 0 || (len == 2 && c < 0xc2) || (len == 3 && c == 0xe0 && u[i + 1] < 0xa0) ||
        (len == 4 && ((c == 0xf0 && u[i + 1] < 0x90) || c > 0xf4 || (c == 0xf4 && u[i + 1] >= 0x90)))) {
      return memi_err_set(lx->err, MEMEST_E_VALUE, "script",
                          "%.160s:%d:%d: byte 0x%02x is not UTF-8, and the file declares no other "
                          "encoding (a PEP 263 coding cookie): Python refuses it; save it as UTF-8",
                          lx->label, line, (int)(i - bol) + 1, c);
    }
    if (c == '\n' || (c == '\r' && !(i + 1 < lx->n && u[i + 1] == '\n'))) {
      line++;
      bol = i + 1;
    }
    i += (size_t)len;
  }
  return MEMEST_OK;
}

/* {======================================================================
** The source encoding: PEP 263's coding cookie
** ======================================================================= */

/* The encoding a cookie names, as Python's codec lookup reads it: 'u'
** UTF-8, 'l' Latin-1, 'a' ASCII, 0 any other. */
static int cookie_codec(const char *name, size_t n) {
  static const char *const utf8[] = {"utf_8", "utf8", "u8", "utf", "cp65001", NULL};
  static const char *const latin1[] = {"latin_1", "latin1", "l1", "iso_8859_1", "iso8859_1",
                                       "8859", "cp819", "latin", "iso_ir_100", "csisolatin1",
                                       "iso_latin_1", NULL};
  static const char *const ascii[] = {"ascii", "us_ascii", "646", "us", NULL};
  char norm[64];
  size_t k;
  int j;
  if (n >= sizeof norm) return 0;
  for (k = 0; k < n; k++) {
    char c = name[k];
    norm[k] = (char)(c == '-' || c == ' ' || c == '.' ? '_' : (c >= 'A' && c <= 'Z') ? c + 32 : c);
  }
  norm[n] = '\0';
  if (strncmp(norm, "utf_8_", 6) == 0 || strncmp(norm, "latin_1_", 8) == 0 ||
      strncmp(norm, "iso_8859_1_", 11) == 0 || strncmp(norm, "iso_latin_1_", 12) == 0)
    return norm[0] == 'u' ? 'u' : 'l';   /* Python's own prefixes: "utf-8-unix", ... */
  for (j = 0; utf8[j]; j++) if (strcmp(norm, utf8[j]) == 0) return 'u';
  for (j = 0; latin1[j]; j++) if (strcmp(norm, latin1[j]) == 0) return 'l';
  for (j = 0; ascii[j]; j++) if (strcmp(norm, ascii[j]) == 0) return 'a';
  return 0;
}

/* The cookie of the line [a, b): "coding[:=]\s*([-\w.]+)" in a comment
** that is the line's first token. Sets *name, *n; 0 when there is none. */
static int line_cookie(const char *s, size_t a, size_t b, const char **name, size_t *n) {
  size_t i = a;
  while (i < b && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f')) i++;
  if (i >= b || s[i] != '#') return 0;
  for (; i + 7 < b; i++) {
    size_t j;
    if (memcmp(s + i, "coding", 6) != 0 || (s[i + 6] != ':' && s[i + 6] != '=')) continue;
    j = i + 7;
    while (j < b && (s[j] == ' ' || s[j] == '\t')) j++;
    *name = s + j;
    while (j < b && (s[j] == '-' || s[j] == '_' || s[j] == '.' || (s[j] >= '0' && s[j] <= '9') ||
                     (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z')))
      j++;
    *n = (size_t)(s + j - *name);
    if (*n > 0) return 1;
  }
  return 0;
}

memest_code memi_py_decode(const char *src, size_t len, const char *label, char **out,
                           size_t *out_len, memest_error *err) {
  size_t a = 0, b, k, o = 0;
  const char *name = NULL;
  size_t n = 0;
  int line, codec, bom = len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0, blank = 1;
  *out = NULL;
  *out_len = 0;
  if (bom) a = 3;
  for (line = 1; line <= 2 && a < len; line++) {   /* the first two lines; the second only after
                                                     a blank or comment-only first line */
    size_t i;
    b = a;
    while (b < len && src[b] != '\n' && src[b] != '\r') b++;
    if (line_cookie(src, a, b, &name, &n)) break;
    for (i = a; i < b && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f'); i++) {}
    blank = i >= b || src[i] == '#';
    if (!blank) break;
    if (b < len && src[b] == '\r' && b + 1 < len && src[b + 1] == '\n') b++;
    a = b + 1;
    name = NULL;
  }
  if (name == NULL) return MEMEST_OK;
  codec = cookie_codec(name, n);
  if (codec == 0)
    return memi_err_set(err, MEMEST_E_VALUE, "script",
                        "%.160s:%d: the file declares the encoding '%.*s' (PEP 263); memest reads "
                        "scripts in UTF-8, Latin-1 or ASCII: save it as UTF-8",
                        label, line, (int)(n > 40 ? 40 : n), name);
  if (bom && codec != 'u')
    return memi_err_set(err, MEMEST_E_VALUE, "script",
                        "%.160s:%d: encoding problem: %.*s with BOM (a SyntaxError in Python)",
                        label, line, (int)(n > 40 ? 40 : n), name);
  if (codec == 'u') return MEMEST_OK;
  for (k = 0; k < len; k++) {
    if ((unsigned char)src[k] >= 0x80 && codec == 'a')
      return memi_err_set(err, MEMEST_E_VALUE, "script",
                          "%.160s: byte 0x%02x at offset %zu is not ASCII, the encoding the file "
                          "declares (Python refuses it)",
                          label, (unsigned)(unsigned char)src[k], k);
  }
  if (codec == 'a') return MEMEST_OK;
  *out = malloc(2 * len + 1);
  if (*out == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "script", "out of memory");
  for (k = 0; k < len; k++) {   /* Latin-1: each byte is the code point of its value */
    unsigned char c = (unsigned char)src[k];
    if (c < 0x80) {
      (*out)[o++] = (char)c;
    } else {
      (*out)[o++] = (char)(0xc0 | (c >> 6));
      (*out)[o++] = (char)(0x80 | (c & 0x3f));
    }
  }
  (*out)[o] = '\0';
  *out_len = o;
  return MEMEST_OK;
}
/* }====================================================================== */

/* A name, or a string whose prefix it is, at lx->i. */
static memest_code scan_word(lexer *lx) {
  size_t start = lx->i;
  int line = lx->line, col = col_of(lx, start), fl;
  memest_code rc;
  while (lx->i < lx->n && is_id_char((unsigned char)lx->s[lx->i])) lx->i++;
  fl = prefix_flags(lx->s + start, lx->i - start);
  if (fl != 0 && fl != 32 && lx->i < lx->n && (lx->s[lx->i] == '\'' || lx->s[lx->i] == '"')) {
    if ((rc = scan_string(lx, lx->i, fl, line, col)) != MEMEST_OK) return rc;
    return push(lx, PT_STRING, start, lx->i - start, line, col);
  }
  return push(lx, PT_NAME, start, lx->i - start, line, col);
}

/* What begins at lx->i (not a newline): blanks, a comment, a continuation,
** or a token. */
static memest_code scan_token(lexer *lx) {
  unsigned char c = (unsigned char)lx->s[lx->i];
  memest_code rc;
  if (c == ' ' || c == '\t' || c == '\f') {
    lx->i++;
  } else if (c == '#') {
    while (lx->i < lx->n && !is_newline(lx->s[lx->i])) lx->i++;
  } else if (c == '\\') {
    int col = col_of(lx, lx->i);
    lx->i++;
    if (lx->i >= lx->n) return lex_fail(lx, lx->line, col, "unexpected EOF while parsing%s", "");
    if (!is_newline(lx->s[lx->i]))
      return lex_fail(lx, lx->line, col + 1, "unexpected character after line continuation character%s", "");
    eat_newline(lx);
  } else if (is_id_start(c)) {
    return scan_word(lx);
  } else if (is_digit((char)c) || (c == '.' && lx->i + 1 < lx->n && is_digit(lx->s[lx->i + 1]))) {
    return scan_number(lx);
  } else if (c == '\'' || c == '"') {
    size_t start = lx->i;
    int line = lx->line, col = col_of(lx, start);
    if ((rc = scan_string(lx, start, 0, line, col)) != MEMEST_OK) return rc;
    return push(lx, PT_STRING, start, lx->i - start, line, col);
  } else {
    return scan_operator(lx);
  }
  return MEMEST_OK;
}

/* The end of the text: an unclosed bracket, the last NEWLINE, the DEDENTs, END. */
static memest_code lex_end(lexer *lx) {
  memest_code rc;
  if (lx->depth > 0) {
    char what[8];
    snprintf(what, sizeof what, "'%c'", lx->open[lx->depth - 1]);
    return lex_fail(lx, lx->open_line[lx->depth - 1], lx->open_col[lx->depth - 1],
                    "%s was never closed", what);
  }
  if (lx->line_has_tokens && (rc = push(lx, PT_NEWLINE, lx->n, 0, lx->line, col_of(lx, lx->n))) != MEMEST_OK)
    return rc;
  while (lx->n_indent > 0) {
    lx->n_indent--;
    if ((rc = push(lx, PT_DEDENT, lx->n, 0, lx->line, 1)) != MEMEST_OK) return rc;
  }
  return push(lx, PT_END, lx->n, 0, lx->line, col_of(lx, lx->n));
}

static memest_code lex_all(lexer *lx) {
  memest_code rc;
  int at_bol = 1, blank;
  if (lx->n >= 3 && memcmp(lx->s, "\xef\xbb\xbf", 3) == 0) lx->i = lx->bol = 3;
  for (;;) {
    if (at_bol && lx->depth == 0) {
      if ((rc = line_start(lx, &blank)) != MEMEST_OK) return rc;
      if (blank) {
        if (lx->i >= lx->n) break;
        continue;
      }
      at_bol = 0;
    }
    if (lx->i >= lx->n) break;
    if (is_newline(lx->s[lx->i])) {   /* a logical line ends outside brackets */
      int line = lx->line, col = col_of(lx, lx->i);
      size_t at = lx->i;
      eat_newline(lx);
      if (lx->depth == 0) {
        if (lx->line_has_tokens && (rc = push(lx, PT_NEWLINE, at, 0, line, col)) != MEMEST_OK) return rc;
        lx->line_has_tokens = 0;
        at_bol = 1;
      }
    } else if ((rc = scan_token(lx)) != MEMEST_OK) {
      return rc;
    }
  }
  return lex_end(lx);
}

memest_code memi_pylex(const char *src, size_t len, const char *label, int repr_mode, pytok **toks,
                       int *n, memest_error *err) {
  lexer *lx;
  memest_code rc;
  *toks = NULL;
  *n = 0;
  if (len > (size_t)UINT32_MAX - 1)
    return memi_err_set(err, MEMEST_E_LIMIT, "script", "%.160s is too large to read", label);
  lx = calloc(1, sizeof *lx);
  if (lx == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "script", "out of memory");
  lx->s = src;
  lx->n = len;
  lx->label = label;
  lx->line = 1;
  lx->repr = repr_mode;
  lx->err = err;
  rc = check_text(lx);
  if (rc == MEMEST_OK) rc = lex_all(lx);
  if (rc == MEMEST_OK) {
    *toks = lx->t;
    *n = lx->nt;
  } else {
    free(lx->t);
  }
  free(lx);
  return rc;
}

int memi_tok_is(const char *src, const pytok *t, const char *s) {
  size_t n = strlen(s);
  return (t->kind == PT_OP || t->kind == PT_NAME) && t->len == n && memcmp(src + t->start, s, n) == 0;
}
/* }====================================================================== */

/* {======================================================================
** Token values
** ======================================================================= */

/* Appends code point cp to out as UTF-8; 0 when it does not fit. */
static int put_utf8(char *out, size_t size, size_t *o, unsigned long cp) {
  unsigned char b[4];
  int n, k;
  if (cp < 0x80) { b[0] = (unsigned char)cp; n = 1; }
  else if (cp < 0x800) { b[0] = (unsigned char)(0xc0 | (cp >> 6)); b[1] = (unsigned char)(0x80 | (cp & 0x3f)); n = 2; }
  else if (cp < 0x10000) {
    b[0] = (unsigned char)(0xe0 | (cp >> 12)); b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    b[2] = (unsigned char)(0x80 | (cp & 0x3f)); n = 3;
  } else {
    b[0] = (unsigned char)(0xf0 | (cp >> 18)); b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)); b[3] = (unsigned char)(0x80 | (cp & 0x3f)); n = 4;
  }
  if (*o + (size_t)n >= size) return 0;
  for (k = 0; k < n; k++) out[(*o)++] = (char)b[k];
  return 1;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Reads n hex digits at p (within end); -1 when fewer. */
static long hex_digits(const char *p, const char *end, int n) {
  long v = 0;
  int k;
  for (k = 0; k < n; k++) {
    if (p + k >= end || hexval(p[k]) < 0) return -1;
    v = v * 16 + hexval(p[k]);
  }
  return v;
}

/* One escape after the backslash at *pp; appends its value. Returns 0
** when out is full. */
static int put_escape(const char **pp, const char *end, int bytes, char *out, size_t size,
                      size_t *o, int *flags) {
  const char *p = *pp;
  char c = *p;
  static const char plain[] = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
  const char *m = NULL;
  long v;
  int k;
  for (k = 0; plain[k]; k += 2)
    if (plain[k] == c) m = &plain[k + 1];
  if (m != NULL) {
    *pp = p + 1;
    if (*o + 1 >= size) return 0;
    out[(*o)++] = *m;
    return 1;
  }
  if (c >= '0' && c <= '7') {
    v = 0;
    for (k = 0; k < 3 && p + k < end && p[k] >= '0' && p[k] <= '7'; k++) v = v * 8 + (p[k] - '0');
    *pp = p + k;
    if (v == 0) *flags |= PS_NUL;
    if (bytes) {
      if (*o + 1 >= size) return 0;
      out[(*o)++] = (char)(v & 0xff);
      return 1;
    }
    return put_utf8(out, size, o, (unsigned long)v);
  }
  if (c == 'x' || (!bytes && (c == 'u' || c == 'U'))) {
    int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    v = hex_digits(p + 1, end, n);
    if (v < 0 || v > 0x10ffff) {
      *flags |= PS_SURROGATE;   /* Python refuses the literal: a truncated or invalid escape */
      *pp = p + 1;
      return 1;
    }
    *pp = p + 1 + n;
    if (v == 0) *flags |= PS_NUL;
    if (v >= 0xd800 && v <= 0xdfff) {
      *flags |= PS_SURROGATE;
      return 1;
    }
    if (bytes) {
      if (*o + 1 >= size) return 0;
      out[(*o)++] = (char)v;
      return 1;
    }
    return put_utf8(out, size, o, (unsigned long)v);
  }
  if (!bytes && c == 'N') {
    *flags |= PS_NAMED_ESCAPE;
    while (p < end && *p != '}') p++;
    *pp = p < end ? p + 1 : p;
    return 1;
  }
  /* An unknown escape keeps its backslash (Python warns). */
  if (*o + 2 >= size) return 0;
  out[(*o)++] = '\\';
  out[(*o)++] = c;
  *pp = p + 1;
  return 1;
}

int memi_pystr_value(const char *tok, size_t len, char *out, size_t size, int *flags) {
  const char *p = tok, *end = tok + len, *q;
  int pf = 0, raw, fields;
  size_t o = 0, ql;
  *flags = 0;
  while (p < end && *p != '\'' && *p != '"') p++;
  pf = prefix_flags(tok, (size_t)(p - tok));
  if (pf == 32) pf = 0;
  raw = pf & 1;
  fields = (pf & (4 | 8)) != 0;
  if (pf & 2) *flags |= PS_BYTES;
  if (pf & 8) *flags |= PS_TEMPLATE;
  ql = (end - p >= 6 && p[1] == p[0] && p[2] == p[0]) ? 3 : 1;
  q = p + ql;
  end -= ql;
  if (size == 0) return 0;
  while (q < end) {
    char c = *q;
    if (c == '\r') {   /* Python reads CRLF and CR in the source as LF */
      q += (q + 1 < end && q[1] == '\n') ? 2 : 1;
      c = '\n';
      if (o + 1 >= size) return 0;
      out[o++] = c;
      continue;
    }
    if (fields && (c == '{' || c == '}')) {
      if (q + 1 < end && q[1] == c) {
        if (o + 1 >= size) return 0;
        out[o++] = c;
        q += 2;
        continue;
      }
      *flags |= PS_FIELDS;   /* a replacement field: not a literal */
      out[0] = '\0';
      return 1;
    }
    if (c == '\\' && q + 1 < end) {
      if (q[1] == '\n' || q[1] == '\r') {   /* a continuation inside the string */
        if (raw) {
          if (o + 2 >= size) return 0;
          out[o++] = '\\';
          out[o++] = '\n';
        }
        q += 2;
        if (q[-1] == '\r' && q < end && *q == '\n') q++;
        continue;
      }
      if (raw) {
        if (o + 2 >= size) return 0;
        out[o++] = '\\';
        out[o++] = q[1];
        q += 2;
        continue;
      }
      q++;
      if (!put_escape(&q, end, (*flags & PS_BYTES) != 0, out, size, &o, flags)) return 0;
      continue;
    }
    if (o + 1 >= size) return 0;
    out[o++] = c;
    q++;
  }
  out[o] = '\0';
  return 1;
}

void memi_pynum_value(const char *tok, size_t len, tvalue *v) {
  char buf[128];
  size_t k, o = 0;
  int is_float = 0, base = 10;
  memset(v, 0, sizeof *v);
  for (k = 0; k < len && o + 1 < sizeof buf; k++) {
    if (tok[k] != '_') buf[o++] = tok[k];
  }
  buf[o] = '\0';
  if (o == 0 || k < len) {
    memi_tv_set_text(v, TV_OTHER, "a number too long to read", 25);
    return;
  }
  if (buf[o - 1] == 'j' || buf[o - 1] == 'J') {
    memi_tv_set_text(v, TV_OTHER, "an imaginary number", 19);
    return;
  }
  if (o > 1 && buf[0] == '0' && strchr("xXoObB", buf[1]) != NULL) {
    base = (buf[1] == 'x' || buf[1] == 'X') ? 16 : (buf[1] == 'o' || buf[1] == 'O') ? 8 : 2;
  } else {
    for (k = 0; k < o; k++) is_float |= buf[k] == '.' || buf[k] == 'e' || buf[k] == 'E';
  }
  errno = 0;
  if (is_float) {
    v->kind = TV_FLOAT;
    v->f = strtod(buf, NULL);
    return;
  }
  {
    unsigned long long u = strtoull(base == 10 ? buf : buf + 2, NULL, base);
    if (errno == ERANGE || u > (unsigned long long)INT64_MAX) {
      memi_tv_set_text(v, TV_OTHER, "an integer past 64 bits", 23);
      return;
    }
    v->kind = TV_INT;
    v->i = (int64_t)u;
  }
}
/* }====================================================================== */
