/*
** log_lines.c — a training log split into lines: LF, CRLF and a lone CR
** each end one, and the ANSI control sequences a terminal log may carry
** (colours and cursor moves: ESC '[' ... final byte) are taken out, so
** that the line's text reads as the terminal showed it.
*/
#include <stdlib.h>
#include <string.h>

#include "base/log_lines.h"

void memi_log_lines_init(log_lines *it, const char *text, size_t len) {
  memset(it, 0, sizeof *it);
  it->text = text;
  it->len = text != NULL ? len : 0;
}

void memi_log_lines_free(log_lines *it) {
  free(it->buf);
  it->buf = NULL;
  it->cap = 0;
}

/* The length of the CSI sequence at s[0..n) (ESC '[' parameter bytes
** 0x30-0x3F, intermediate bytes 0x20-0x2F, a final byte 0x40-0x7E); 0 when
** s does not start one. */
static size_t csi_length(const char *s, size_t n) {
  size_t i = 2;
  if (n < 3 || s[0] != 0x1b || s[1] != '[') return 0;
  while (i < n && s[i] >= 0x30 && s[i] <= 0x3f) i++;
  while (i < n && s[i] >= 0x20 && s[i] <= 0x2f) i++;
  return i < n && s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : 0;
}

int memi_log_lines_next(log_lines *it) {
  const char *s = it->text + it->pos;
  size_t left = it->len - it->pos, n = 0, i, o;
  if (it->pos >= it->len) return 0;
  while (n < left && s[n] != '\n' && s[n] != '\r') n++;
  it->pos += n;
  if (it->pos < it->len) {
    it->pos += (it->text[it->pos] == '\r' && it->pos + 1 < it->len && it->text[it->pos + 1] == '\n')
                   ? 2 : 1;
  }
  it->number++;
  it->line = s;
  it->n = n;
  if (memchr(s, 0x1b, n) == NULL) return 1;
  if (n > it->cap) {
    char *nb = realloc(it->buf, n);
    if (nb == NULL) return -1;
    it->buf = nb;
    it->cap = n;
  }
  for (i = o = 0; i < n;) {
    size_t k = csi_length(s + i, n - i);
    if (k) {
      i += k;
    } else {
      it->buf[o++] = s[i++];
    }
  }
  it->line = it->buf;
  it->n = o;
  return 1;
}
