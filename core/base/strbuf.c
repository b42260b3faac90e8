/*
** strbuf.c — a growable string buffer for the report writers, and the
** number formats they share (GiB with two decimals, grouped integers).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"

void memi_sb_init(strbuf *sb) {
  sb->p = NULL;
  sb->n = sb->cap = 0;
  sb->failed = 0;
}

static int sb_reserve(strbuf *sb, size_t extra) {
  size_t want, cap;
  char *np;
  if (sb->failed) return 0;
  if (extra > ((size_t)-1) / 2 - sb->n) {
    sb->failed = 1;
    return 0;
  }
  want = sb->n + extra + 1;
  if (want <= sb->cap) return 1;
  cap = sb->cap ? sb->cap : 256;
  while (cap < want) cap *= 2;
  np = realloc(sb->p, cap);
  if (np == NULL) {
    sb->failed = 1;
    return 0;
  }
  sb->p = np;
  sb->cap = cap;
  return 1;
}

void memi_sb_putn(strbuf *sb, const char *s, size_t n) {
  if (!sb_reserve(sb, n)) return;
  memcpy(sb->p + sb->n, s, n);
  sb->n += n;
  sb->p[sb->n] = '\0';
}

void memi_sb_put(strbuf *sb, const char *s) {
  memi_sb_putn(sb, s, strlen(s));
}

void memi_sb_put_i64(strbuf *sb, int64_t v) {
  char tmp[24];
  int n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    tmp[sizeof tmp - 1 - n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u > 0);
  if (v < 0) tmp[sizeof tmp - 1 - n++] = '-';
  memi_sb_putn(sb, tmp + sizeof tmp - n, (size_t)n);
}

void memi_sb_printf(strbuf *sb, const char *fmt, ...) {
  va_list ap;
  int need;
  char small[256];
  va_start(ap, fmt);
  need = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (need < 0) {
    sb->failed = 1;
    return;
  }
  if ((size_t)need < sizeof small) {
    memi_sb_putn(sb, small, (size_t)need);
    return;
  }
  if (!sb_reserve(sb, (size_t)need)) return;
  va_start(ap, fmt);
  vsnprintf(sb->p + sb->n, (size_t)need + 1, fmt, ap);
  va_end(ap);
  sb->n += (size_t)need;
}

char *memi_sb_finish(strbuf *sb) {
  char *p;
  if (sb->failed) {
    memi_sb_free(sb);
    return NULL;
  }
  if (sb->p == NULL) {
    if (!sb_reserve(sb, 0)) return NULL;
    sb->p[0] = '\0';
  }
  p = sb->p;
  sb->p = NULL;
  sb->n = sb->cap = 0;
  return p;
}

void memi_sb_free(strbuf *sb) {
  free(sb->p);
  memi_sb_init(sb);
}

const char *memi_fmt_gib(char *buf, size_t size, int64_t bytes) {
  snprintf(buf, size, "%.2f", (double)bytes / GIB);
  return buf;
}

const char *memi_fmt_int(char *buf, size_t size, int64_t v) {
  char tmp[32];
  int len, i, j = 0, neg = v < 0;
  uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)u);
  if (size == 0) return buf;
  if (neg && (size_t)j + 1 < size) buf[j++] = '-';
  for (i = 0; i < len && (size_t)j + 1 < size; i++) {
    if (i > 0 && (len - i) % 3 == 0 && (size_t)j + 1 < size) buf[j++] = ',';
    if ((size_t)j + 1 < size) buf[j++] = tmp[i];
  }
  buf[j] = '\0';
  return buf;
}
