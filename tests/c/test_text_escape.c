/*
** test_text_escape.c — text from outside as the reports write it
** (core/base/text_escape.c): JSON strings that are strict UTF-8 whatever the
** bytes (each ill-formed span one U+FFFD, as Unicode's maximal subparts
** and Python's errors="replace" have it), terminal text with controls,
** bidi marks and invalid bytes made visible, cut only between whole
** characters and escapes, and shell words in ANSI-C quotes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "base/internal.h"

static void json_is(const char *in, const char *want) {
  char *got = memest_json_string(in);
  CHECK(got != NULL);
  if (got != NULL) CHECK_STR(got, want);
  memest_free(got);
}

static void text_is(const char *in, const char *want) {
  char buf[256];
  size_t need = memest_text_escape(buf, sizeof buf, in);
  CHECK_STR(buf, want);
  CHECK_I64(need, strlen(want));
}

/* The JSON rule: escapes, and one U+FFFD per maximal subpart. */
static void test_json(void) {
  json_is("plain ascii", "\"plain ascii\"");
  json_is("q\"b\\", "\"q\\\"b\\\\\"");
  json_is("a\nb\rc\td", "\"a\\nb\\rc\\td\"");
  json_is("\x1b[31m\x7f", "\"\\u001b[31m\\u007f\"");
  /* Well-formed UTF-8 stays itself; C1 controls and bidi marks escaped. */
  json_is("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80\"");
  json_is("\xc2\x85\xc2\x9f\xc2\xa0", "\"\\u0085\\u009f\xc2\xa0\"");
  json_is("\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9\xe2\x80\x8f\xd8\x9c\xe2\x80\xa8",
          "\"\\u202e\\u2066\\u2069\\u200f\\u061c\\u2028\"");
  /* Latin-1, a cut sequence, surrogates, overlong forms, above U+10FFFF. */
  json_is("caf\xe9.json", "\"caf\\ufffd.json\"");
  json_is("a\xe2\x82z", "\"a\\ufffdz\"");
  json_is("\xe2\x82", "\"\\ufffd\"");
  json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
  json_is("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");   /* U+D7FF, just below */
  json_is("\xc0\xaf\xc1\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  json_is("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
  json_is("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  json_is("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");   /* U+10FFFF */
  json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  json_is("\xf0\x9f\x98", "\"\\ufffd\"");
  json_is("\xff\xfe\x80", "\"\\ufffd\\ufffd\\ufffd\"");
  json_is("\xf1\x80\x80\xe1\x80\xc2", "\"\\ufffd\\ufffd\\ufffd\"");
  json_is("", "\"\"");
  json_is(NULL, "\"\"");
}

/* The terminal rule: escapes by byte for invalid UTF-8, by character for
** controls and marks; tab and newline only in a whole report. */
static void test_text(void) {
  char buf[16];
  strbuf sb;
  char *all;
  text_is("plain ascii, caf\xc3\xa9 \xe2\x80\x94", "plain ascii, caf\xc3\xa9 \xe2\x80\x94");
  text_is("\x1b[31mred\x7f", "\\x1b[31mred\\x7f");
  text_is("a\nb\tc\rd", "a\\nb\\tc\\rd");
  text_is("caf\xe9", "caf\\xe9");
  text_is("\xc2\x85 \x85", "\\u0085 \\x85");
  text_is("r\xe2\x80\xaei\xe2\x81\xa6x\xe2\x80\x8e", "r\\u202ei\\u2066x\\u200e");
  text_is("\xed\xa0\x80\xc0\xaf", "\\xed\\xa0\\x80\\xc0\\xaf");
  text_is("back\\slash", "back\\slash");
  /* A fixed buffer keeps whole characters and escapes and says what the
  ** whole needs. */
  CHECK_I64(memest_text_escape(buf, 6, "abcd\x1b"), 8);
  CHECK_STR(buf, "abcd");
  CHECK_I64(memest_text_escape(buf, 6, "abc\xc3\xa9z"), 6);
  CHECK_STR(buf, "abc\xc3\xa9");
  CHECK_I64(memest_text_escape(buf, 5, "abc\xc3\xa9z"), 6);
  CHECK_STR(buf, "abc");
  CHECK_I64(memest_text_escape(buf, 1, "abc"), 3);
  CHECK_STR(buf, "");
  CHECK_I64(memest_text_escape(NULL, 0, "abc"), 3);
  /* A whole report: newline and tab kept, the rest escaped. */
  memi_sb_init(&sb);
  memi_sb_put(&sb, "line 1\tx\nline \x1b[2J2 \xe2\x80\xae\xe9\n");
  all = memi_sb_finish_text(&sb);
  CHECK(all != NULL);
  if (all != NULL) CHECK_STR(all, "line 1\tx\nline \\x1b[2J2 \\u202e\\xe9\n");
  free(all);
  /* A name inside a line stays on it. */
  memi_sb_init(&sb);
  memi_sb_put(&sb, "Model ");
  memi_sb_text(&sb, "a\nMax: 0 GiB");
  all = memi_sb_finish_text(&sb);
  if (all != NULL) CHECK_STR(all, "Model a\\nMax: 0 GiB");
  free(all);
}

/* A label a terminal must not see raw goes into a command line in ANSI-C
** quotes, byte for byte; any other is left to the caller. */
static void test_shell(void) {
  strbuf sb;
  char *got;
  memi_sb_init(&sb);
  CHECK_I64(memi_sb_shell_bytes(&sb, "plain 'quoted' name.json"), 0);
  CHECK_I64(memi_sb_shell_bytes(&sb, "caf\xe9 it's a\\b\xe2\x80\xae.json"), 1);
  got = memi_sb_finish(&sb);
  if (got != NULL) CHECK_STR(got, "$'caf\\xe9 it\\'s a\\\\b\\xe2\\x80\\xae.json'");
  free(got);
}

/* Every byte string of up to three bytes from a set that covers each
** class: the JSON rule's output parses with cJSON's reader and is strict
** UTF-8, and terminal text has no byte outside printable ASCII and
** well-formed UTF-8 that is not a control or mark. */
static int valid_utf8_without_marks(const unsigned char *s) {
  while (*s) {
    unsigned c = *s, len, cp, k;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) return 0;
      s++;
      continue;
    }
    len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (len == 0 || c > 0xf4) return 0;
    cp = c & (0x3fu >> (len - 1));
    for (k = 1; k < len; k++) {
      if ((s[k] & 0xc0) != 0x80) return 0;
      cp = (cp << 6) | (s[k] & 0x3fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f) ||
        (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      return 0;
    }
    s += len;
  }
  return 1;
}

static void test_all_short_strings(void) {
  static const unsigned char set[] = {0x01, 0x0a, 0x1b, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x85, 0x9f,
                                      0xa0, 0xae, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef,
                                      0xf0, 0xf4, 0xf5, 0xff};
  const size_t n = sizeof set;
  size_t a, b, c, bad = 0;
  for (a = 0; a < n; a++) {
    for (b = 0; b <= n; b++) {
      for (c = 0; c <= n && (b < n || c == n); c++) {
        char in[4] = {(char)set[a], b < n ? (char)set[b] : 0, c < n ? (char)set[c] : 0, 0};
        char *json = memest_json_string(in), text[32];
        cJSON *parsed = json != NULL ? cJSON_Parse(json) : NULL;
        memest_text_escape(text, sizeof text, in);
        if (!cJSON_IsString(parsed) || !valid_utf8_without_marks((const unsigned char *)json) ||
            !valid_utf8_without_marks((const unsigned char *)text)) {
          bad++;
        }
        cJSON_Delete(parsed);
        memest_free(json);
      }
    }
  }
  CHECK_I64(bad, 0);
}

int main(void) {
  test_json();
  test_text();
  test_shell();
  test_all_short_strings();
  return check_done("test_text_escape");
}
