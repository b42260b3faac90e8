/*
** hub_id.c — the revision names the caches accept, the name a server's
** ETag gives, and an id's folder name in them. The id itself is checked by
** the core (memest_hub_id_check, core/model/model_id.c). Nothing builds a path or
** a URL from an id or a revision that did not pass there and here.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hub.h"

/* An ETag of at most this many folder-name characters is named as it is;
** any other by its SHA-256. */
#define ETAG_PLAIN_MAX 64
#define ETAG_HASHED "etag-sha256-"

static int id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

static int lower_hex(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
  }
  return 1;
}

int cli_hub_revision_ok(const char *rev) {
  size_t n = strlen(rev), i, hashed = strlen(ETAG_HASHED);
  if (n == 40 && lower_hex(rev, n)) return 1;
  if (n == hashed + 64 && strncmp(rev, ETAG_HASHED, hashed) == 0) return lower_hex(rev + hashed, 64);
  if (strncmp(rev, "etag-", 5) != 0 || n <= 5 || n > 5 + ETAG_PLAIN_MAX) return 0;
  for (i = 5; i < n; i++) {
    if (!id_char(rev[i])) return 0;
  }
  /* "etag-.." would be a parent folder in a path. */
  return strstr(rev, "..") == NULL;
}

/* {== SHA-256 (FIPS 180-4), for ETags that cannot name a folder as they are. */
static const uint32_t sha_k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/* One 64-byte block into the state h. */
static void sha_block(uint32_t h[8], const unsigned char *b) {
  uint32_t w[64], v[8], t1, t2;
  int i;
  for (i = 0; i < 16; i++) {
    w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 |
           (uint32_t)b[4 * i + 3];
  }
  for (i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  memcpy(v, h, sizeof v);
  for (i = 0; i < 64; i++) {
    t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) +
         sha_k[i] + w[i];
    t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
         ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 7 * sizeof v[0]);
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (i = 0; i < 8; i++) h[i] += v[i];
}

/* The SHA-256 of n bytes at s as 64 lowercase hex digits and a NUL. */
static void sha256_hex(const unsigned char *s, size_t n, char hex[65]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char last[128];
  size_t full = n / 64 * 64, rest = n - full, tail, i;
  uint64_t bits = (uint64_t)n * 8u;
  for (i = 0; i < full; i += 64) sha_block(h, s + i);
  memset(last, 0, sizeof last);
  memcpy(last, s + full, rest);
  last[rest] = 0x80;
  tail = rest + 1 + 8 <= 64 ? 64 : 128;
  for (i = 0; i < 8; i++) last[tail - 1 - i] = (unsigned char)(bits >> (8 * i));
  for (i = 0; i < tail; i += 64) sha_block(h, last + i);
  for (i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08x", (unsigned)h[i]);
}
/* ==} */

void cli_hub_etag_revision(const char *etag, size_t n, char *rev, size_t size) {
  char hex[65];
  size_t i;
  int plain = n >= 1 && n <= ETAG_PLAIN_MAX;
  rev[0] = '\0';
  if (n == 0) return;
  for (i = 0; plain && i < n; i++) plain = id_char(etag[i]);
  /* As it is when that names a folder (no ".." either), else hashed. */
  if (plain) {
    snprintf(rev, size, "etag-%.*s", (int)n, etag);
    if (cli_hub_revision_ok(rev)) return;
  }
  sha256_hex((const unsigned char *)etag, n, hex);
  snprintf(rev, size, "%s%s", ETAG_HASHED, hex);
}

void cli_hub_folder_name(const char *id, char *buf, size_t size) {
  const char *slash = strchr(id, '/');
  snprintf(buf, size, "models--%.*s--%s", (int)(slash - id), id, slash + 1);
}
