/*
** hub_env.c — the environment the hub code reads, read and checked in one
** place: where the hub's cache is (HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME,
** HOME, as huggingface_hub finds it), where memest keeps what it downloads
** (XDG_CACHE_HOME, HOME), the endpoint (HF_ENDPOINT), the token (HF_TOKEN),
** HF_HUB_OFFLINE and the download's time limit (MEMEST_HUB_TIMEOUT).
*/
#define _POSIX_C_SOURCE 200809L   /* strcasecmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hub.h"

#define DEFAULT_ENDPOINT "https://huggingface.co"
#define DEFAULT_TIMEOUT_MS 30000L
#define MAX_TIMEOUT_S 600.0

/* An environment variable, NULL when unset or empty. */
static const char *env(const char *name) {
  const char *v = getenv(name);
  return v != NULL && v[0] != '\0' ? v : NULL;
}

/* dir + tail into buf, "~/" at the start of dir standing for HOME (as
** Python's expanduser does); -1 with why when it does not fit. */
static int join(char *buf, size_t size, const char *var, const char *dir, const char *tail,
                char *why, size_t why_size) {
  const char *home = env("HOME");
  int n;
  if (strncmp(dir, "~/", 2) == 0 && home != NULL) {
    n = snprintf(buf, size, "%s%s%s", home, dir + 1, tail);
  } else {
    n = snprintf(buf, size, "%s%s", dir, tail);
  }
  if (n < 0 || (size_t)n >= size) {
    snprintf(why, why_size, "%s names a folder of over %zu characters; give a shorter one", var,
             size - 1);
    return -1;
  }
  return 0;
}

/* Where the hub's files live: HF_HUB_CACHE, else HF_HOME/hub, else
** $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub. */
static int hub_cache(cli_hub_env *e, char *why, size_t why_size) {
  const char *v;
  e->hub_cache[0] = '\0';
  e->hub_cache_from = "";
  if ((v = env("HF_HUB_CACHE")) != NULL) {
    e->hub_cache_from = "HF_HUB_CACHE";
    return join(e->hub_cache, sizeof e->hub_cache, "HF_HUB_CACHE", v, "", why, why_size);
  }
  if ((v = env("HF_HOME")) != NULL) {
    e->hub_cache_from = "HF_HOME";
    return join(e->hub_cache, sizeof e->hub_cache, "HF_HOME", v, "/hub", why, why_size);
  }
  if ((v = env("XDG_CACHE_HOME")) != NULL) {
    e->hub_cache_from = "XDG_CACHE_HOME";
    return join(e->hub_cache, sizeof e->hub_cache, "XDG_CACHE_HOME", v, "/huggingface/hub", why,
                why_size);
  }
  if ((v = env("HOME")) != NULL) {
    e->hub_cache_from = "HOME";
    return join(e->hub_cache, sizeof e->hub_cache, "HOME", v, "/.cache/huggingface/hub", why,
                why_size);
  }
  return 0;
}

/* memest's own: $XDG_CACHE_HOME/memest/hub (an absolute XDG_CACHE_HOME, as
** the XDG base directory rules want), else ~/.cache/memest/hub. */
static int memest_cache(cli_hub_env *e, char *why, size_t why_size) {
  const char *v = env("XDG_CACHE_HOME");
  e->memest_cache[0] = '\0';
  if (v != NULL && v[0] == '/') {
    return join(e->memest_cache, sizeof e->memest_cache, "XDG_CACHE_HOME", v, "/memest/hub", why,
                why_size);
  }
  if ((v = env("HOME")) != NULL) {
    return join(e->memest_cache, sizeof e->memest_cache, "HOME", v, "/.cache/memest/hub", why,
                why_size);
  }
  return 0;
}

/* HF_ENDPOINT: an http(s) URL of printable characters, without spaces,
** to which "/org/name/resolve/..." is added: so no query or fragment, which
** would send every id's request to one URL. A user-info before the host is
** sent, never shown (endpoint_shown). */
static int endpoint(cli_hub_env *e, char *why, size_t why_size) {
  const char *v = env("HF_ENDPOINT");
  char shown[CLI_HUB_ENDPOINT_MAX + 1];
  size_t n, i, start, authority;
  if (v == NULL) v = DEFAULT_ENDPOINT;
  n = strlen(v);
  if (n > CLI_HUB_ENDPOINT_MAX) {
    snprintf(why, why_size, "HF_ENDPOINT is %zu characters long, over %d; give a shorter URL", n,
             CLI_HUB_ENDPOINT_MAX);
    return -1;
  }
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)v[i];
    if (c <= ' ' || c >= 0x7f) {
      snprintf(why, why_size, "HF_ENDPOINT holds a space or a character that is not printable "
               "ASCII; give the hub's URL, e.g. %s", DEFAULT_ENDPOINT);
      return -1;
    }
  }
  cli_url_shown(v, shown, sizeof shown);
  if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0) {
    snprintf(why, why_size, "HF_ENDPOINT '%.200s' is not an http:// or https:// URL; unset it to "
             "use %s", shown, DEFAULT_ENDPOINT);
    return -1;
  }
  if (strpbrk(v, "?#") != NULL) {
    snprintf(why, why_size, "HF_ENDPOINT '%.200s' holds a '%c': memest adds "
             "/<org>/<name>/resolve/main/config.json to it, so every model would be asked at one "
             "URL; set HF_ENDPOINT to the hub's address alone, without '?' or '#' (e.g. %s)",
             shown, *strpbrk(v, "?#"), DEFAULT_ENDPOINT);
    return -1;
  }
  authority = cli_url_authority(v, &start);
  if (strchr(v + start + authority, '@') != NULL) {
    snprintf(why, why_size, "HF_ENDPOINT holds an '@' after its host, so where a user name or "
             "password ends cannot be told; percent-encode '/' and '@' in them (%%2F, %%40), or "
             "give the hub's address alone, e.g. %s", DEFAULT_ENDPOINT);
    return -1;
  }
  while (n > 0 && v[n - 1] == '/') n--;
  snprintf(e->endpoint, sizeof e->endpoint, "%.*s", (int)n, v);
  cli_url_shown(e->endpoint, e->endpoint_shown, sizeof e->endpoint_shown);
  return 0;
}

/* HF_TOKEN: sent as a bearer token, so printable ASCII without spaces (a
** line break would add a header). The token itself is never printed. */
static int token(cli_hub_env *e, char *why, size_t why_size) {
  const char *v = env("HF_TOKEN");
  size_t n, i;
  e->token[0] = '\0';
  if (v == NULL) return 0;
  n = strlen(v);
  if (n > CLI_HUB_TOKEN_MAX) {
    snprintf(why, why_size, "HF_TOKEN is %zu characters long, over %d; a hub token is about 40",
             n, CLI_HUB_TOKEN_MAX);
    return -1;
  }
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)v[i];
    if (c <= ' ' || c >= 0x7f) {
      snprintf(why, why_size, "HF_TOKEN holds a space, a line break or a character that is not "
               "printable ASCII, which no hub token has; set it to the token alone");
      return -1;
    }
  }
  memcpy(e->token, v, n + 1);
  return 0;
}

/* HF_HUB_OFFLINE, read as huggingface_hub reads it (1, ON, YES, TRUE in
** any case); an unknown value is refused rather than taken as "no". */
static int offline(cli_hub_env *e, char *why, size_t why_size) {
  static const char *const yes[] = {"1", "ON", "YES", "TRUE"};
  static const char *const no[] = {"0", "OFF", "NO", "FALSE"};
  const char *v = env("HF_HUB_OFFLINE");
  size_t i;
  e->offline = 0;
  if (v == NULL) return 0;
  for (i = 0; i < 4; i++) {
    if (strcasecmp(v, yes[i]) == 0) {
      e->offline = 1;
      return 0;
    }
    if (strcasecmp(v, no[i]) == 0) return 0;
  }
  snprintf(why, why_size, "HF_HUB_OFFLINE is '%.40s'; set it to 1 (use only the caches) or 0, "
           "or unset it", v);
  return -1;
}

/* MEMEST_HUB_TIMEOUT: seconds for the whole download, (0, 600]. */
static int timeout(cli_hub_env *e, char *why, size_t why_size) {
  const char *v = env("MEMEST_HUB_TIMEOUT");
  char *end;
  double s;
  e->timeout_ms = DEFAULT_TIMEOUT_MS;
  if (v == NULL) return 0;
  s = strtod(v, &end);
  if (end == v || *end != '\0' || !(s > 0.0) || s > MAX_TIMEOUT_S) {
    snprintf(why, why_size, "MEMEST_HUB_TIMEOUT is '%.40s'; give the download's time limit in "
             "seconds, over 0 and at most %.0f (default %ld)", v, MAX_TIMEOUT_S,
             DEFAULT_TIMEOUT_MS / 1000);
    return -1;
  }
  e->timeout_ms = (long)(s * 1000.0 + 0.5);
  if (e->timeout_ms < 1) e->timeout_ms = 1;
  return 0;
}

int cli_hub_env_read(cli_hub_env *e, char *why, size_t why_size) {
  memset(e, 0, sizeof *e);
  if (hub_cache(e, why, why_size) != 0 || memest_cache(e, why, why_size) != 0 ||
      endpoint(e, why, why_size) != 0 || token(e, why, why_size) != 0 ||
      offline(e, why, why_size) != 0 || timeout(e, why, why_size) != 0) {
    return -1;
  }
  return 0;
}
