/*
** text_escape.c — the one way text from outside (file names, config names
** and keys, snapshot frames, log lines) is written out: into a JSON string
** as strict UTF-8, and into terminal text with every character that could
** move the cursor, recolour the terminal or reorder the line made visible.
** The rules are stated in docs/result-json.md ("Strings", "Terminal
** text"); both rest on one UTF-8 decoder and one set of unsafe characters,
** below.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/internal.h"

/*
** UTF-8 as Unicode's Table 3-7 defines it: a lead byte and the range its
** second byte must fall in (which excludes overlong forms, the encoded
** surrogates U+D800..U+DFFF and anything above U+10FFFF), then 80..BF.
** utf8_scan returns the length n > 0 of the well-formed sequence at s and
** its code point in *cp, or -k for an ill-formed one: k >= 1 bytes, the
** lead and the continuation bytes that were still possible (Unicode's
** "maximal subpart", the span a decoder replaces with one U+FFFD, as
** Python's errors="replace" and the WHATWG decoder of browsers do).
*/
static int utf8_scan(const unsigned char *s, size_t avail, uint32_t *cp) {
  unsigned char lo = 0x80, hi = 0xbf;
  int len, k;
  uint32_t v;
  if (s[0] < 0x80) {
    *cp = s[0];
    return 1;
  }
  if (s[0] >= 0xc2 && s[0] <= 0xdf) len = 2, v = s[0] & 0x1fu;
  else if (s[0] >= 0xe0 && s[0] <= 0xef) len = 3, v = s[0] & 0x0fu;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4) len = 4, v = s[0] & 0x07u;
  else return -1;
  if (s[0] == 0xe0) lo = 0xa0;
  if (s[0] == 0xed) hi = 0x9f;
  if (s[0] == 0xf0) lo = 0x90;
  if (s[0] == 0xf4) hi = 0x8f;
  for (k = 1; k < len; k++) {
    if ((size_t)k >= avail || s[k] < lo || s[k] > hi) return -k;
    v = (v << 6) | (s[k] & 0x3fu);
    lo = 0x80;
    hi = 0xbf;
  }
  *cp = v;
  return len;
}

/* The characters never written raw: C0 controls, DEL and the C1 controls
** (the terminal's escape sequences), and the marks that reorder or break
** a line: the Arabic letter mark, LRM and RLM, the line and paragraph
** separators, the bidi embeddings and overrides U+202A..U+202E and the
** isolates U+2066..U+2069. Tab and newline are the caller's choice. */
static int unsafe(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
         cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* {======================================================================
** JSON
** ======================================================================= */

/* A JSON string: '"', '\\' and the unsafe characters escaped (\n, \r, \t,
** else \uXXXX), every ill-formed span of bytes as \ufffd (U+FFFD), every
** other character as its own UTF-8 bytes. The output is ASCII apart from
** well-formed UTF-8, so it is strict UTF-8 JSON whatever s holds. */
void memi_sb_json_strn(strbuf *sb, const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s, *end = u + n;
  memi_sb_putn(sb, "\"", 1);
  while (u < end) {
    const unsigned char *run = u;
    uint32_t cp;
    int len;
    while (u < end && *u >= 0x20 && *u < 0x7f && *u != '"' && *u != '\\') u++;
    if (u > run) memi_sb_putn(sb, (const char *)run, (size_t)(u - run));
    if (u == end) break;
    len = utf8_scan(u, (size_t)(end - u), &cp);
    if (len < 0) {
      memi_sb_putn(sb, "\\ufffd", 6);
      u += -len;
      continue;
    }
    if (cp == '"') memi_sb_putn(sb, "\\\"", 2);
    else if (cp == '\\') memi_sb_putn(sb, "\\\\", 2);
    else if (cp == '\n') memi_sb_putn(sb, "\\n", 2);
    else if (cp == '\r') memi_sb_putn(sb, "\\r", 2);
    else if (cp == '\t') memi_sb_putn(sb, "\\t", 2);
    else if (unsafe(cp)) memi_sb_printf(sb, "\\u%04x", (unsigned)cp);
    else memi_sb_putn(sb, (const char *)u, (size_t)len);
    u += len;
  }
  memi_sb_putn(sb, "\"", 1);
}

void memi_sb_json_str(strbuf *sb, const char *s) { memi_sb_json_strn(sb, s, strlen(s)); }

char *memest_json_string(const char *s) {
  strbuf sb;
  memi_sb_init(&sb);
  memi_sb_json_str(&sb, s != NULL ? s : "");
  return memi_sb_finish(&sb);
}
/* }====================================================================== */

/* {======================================================================
** Terminal text
** ======================================================================= */

/* How many bytes at the start of u (n bytes) are written as they are. */
static size_t safe_prefix(const unsigned char *u, size_t n, int keep_lines) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    int len;
    if (u[i] >= 0x20 && u[i] < 0x7f) {
      i++;
      continue;
    }
    len = utf8_scan(u + i, n - i, &cp);
    if (len < 0 || (unsafe(cp) && !(keep_lines && (cp == '\n' || cp == '\t')))) return i;
    i += (size_t)len;
  }
  return n;
}

/* Where escaped text goes: a string buffer, or a caller's fixed buffer
** that keeps whole characters and escapes only and counts what the whole
** text needs. */
typedef struct text_out {
  strbuf *sb;
  char *buf;
  size_t size, used, need;
  int full;
} text_out;

/* Writes n bytes; `divisible`: a run of characters that may be cut
** between two characters (else one escape, kept whole or not at all). */
static void emit(text_out *o, const char *s, size_t n, int divisible) {
  size_t k;
  if (o->sb != NULL) {
    memi_sb_putn(o->sb, s, n);
    return;
  }
  o->need += n;
  if (o->full) return;
  if (o->used + n < o->size) {
    memcpy(o->buf + o->used, s, n);
    o->used += n;
    return;
  }
  k = divisible ? o->size - 1 - o->used : 0;
  while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80) k--;   /* not inside a character */
  memcpy(o->buf + o->used, s, k);
  o->used += k;
  o->full = 1;
}

/* Writes n bytes of s made safe for a terminal: the unsafe characters as
** \xNN (C0 and DEL; newline, return and tab as \n, \r, \t) or \uNNNN (the
** C1 controls and the marks), each byte of an ill-formed span as \xNN. A
** backslash stays itself. An escape is at most 4 bytes for each byte. */
static void text_escape(text_out *o, const char *s, size_t n, int keep_lines) {
  const unsigned char *u = (const unsigned char *)s;
  while (n > 0) {
    size_t ok = safe_prefix(u, n, keep_lines);
    uint32_t cp = 0;
    char esc[8];
    int len, k;
    if (ok > 0) emit(o, (const char *)u, ok, 1);
    u += ok;
    n -= ok;
    if (n == 0) break;
    len = utf8_scan(u, n, &cp);
    if (len < 0) k = snprintf(esc, sizeof esc, "\\x%02x", u[0]);
    else if (cp == '\n') k = snprintf(esc, sizeof esc, "\\n");
    else if (cp == '\t') k = snprintf(esc, sizeof esc, "\\t");
    else if (cp == '\r') k = snprintf(esc, sizeof esc, "\\r");
    else if (cp < 0x80) k = snprintf(esc, sizeof esc, "\\x%02x", (unsigned)cp);
    else k = snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
    emit(o, esc, (size_t)k, 0);
    len = len > 0 ? len : 1;
    u += len;
    n -= (size_t)len;
  }
}

static void sb_text(strbuf *sb, const char *s, size_t n, int keep_lines) {
  text_out o = {NULL, NULL, 0, 0, 0, 0};
  o.sb = sb;
  text_escape(&o, s, n, keep_lines);
}

void memi_sb_text(strbuf *sb, const char *s) { sb_text(sb, s, strlen(s), 0); }

const char *memi_text_line(char *buf, size_t size, const char *s) {
  memest_text_escape(buf, size, s);
  return buf;
}

size_t memest_text_escape(char *buf, size_t size, const char *s) {
  text_out o = {NULL, NULL, 0, 0, 0, 0};
  o.buf = buf;
  o.size = size;
  o.full = size == 0;
  if (s != NULL) text_escape(&o, s, strlen(s), 0);
  if (size > 0) buf[o.used] = '\0';
  return o.need;
}

int memi_sb_shell_bytes(strbuf *sb, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = strlen(s), ok;
  if (safe_prefix(u, n, 0) == n) return 0;
  memi_sb_put(sb, "$'");
  while (n > 0) {
    uint32_t cp;
    int len, k;
    for (ok = safe_prefix(u, n, 0); ok > 0; ok--, u++, n--) {
      if (*u == '\'' || *u == '\\') memi_sb_putn(sb, "\\", 1);
      memi_sb_putn(sb, (const char *)u, 1);
    }
    if (n == 0) break;
    len = utf8_scan(u, n, &cp);
    len = len > 0 ? len : 1;
    for (k = 0; k < len; k++) memi_sb_printf(sb, "\\x%02x", u[k]);
    u += len;
    n -= (size_t)len;
  }
  memi_sb_put(sb, "'");
  return 1;
}

char *memi_sb_finish_text(strbuf *sb) {
  strbuf safe;
  if (sb->failed || sb->p == NULL) return memi_sb_finish(sb);
  /* Most reports hold nothing to escape: the buffer is handed over. */
  if (safe_prefix((const unsigned char *)sb->p, sb->n, 1) == sb->n) return memi_sb_finish(sb);
  memi_sb_init(&safe);
  sb_text(&safe, sb->p, sb->n, 1);
  memi_sb_free(sb);
  return memi_sb_finish(&safe);
}
/* }====================================================================== */
