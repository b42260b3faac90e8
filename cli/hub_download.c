/*
** hub_download.c — a model's config.json downloaded from the Hugging Face
** hub with libcurl (the only file of memest that uses it): redirects
** followed (the hub sends a config to its file store, a renamed repo to its
** new name), the token sent as a bearer token to the hub's host only, the
** time limit, the config file's size limit while the bytes arrive, and each
** failure told with the id and the URL: no network, a timeout, a gated or
** private model (a token is needed), no such model, any other status.
*/
#define _POSIX_C_SOURCE 200809L   /* strncasecmp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "hub.h"
#include "memest.h"

#define MAX_REDIRECTS 10
#define CONNECT_TIMEOUT_MS 10000L

/* What one transfer collects: the body (up to limit) and, from the
** headers, the revision the hub names and its error code and message. */
typedef struct transfer {
  char *body;
  size_t len, cap, limit;
  int over;                          /* the body passed limit */
  char commit[CLI_HUB_REV_MAX + 1];  /* the last X-Repo-Commit along the redirects */
  char etag[CLI_HUB_REV_MAX + 1];    /* the last answer's ETag (or X-Linked-Etag) */
  char error_code[64];               /* the last answer's X-Error-Code */
  char error_message[200];           /* its X-Error-Message, printable ASCII only */
} transfer;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t n = size * count;
  if (n > t->limit - t->len) {
    t->over = 1;
    return 0;   /* stops the transfer: CURLE_WRITE_ERROR */
  }
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 16384;
    char *grown;
    while (cap < t->len + n + 1) cap *= 2;
    if ((grown = realloc(t->body, cap)) == NULL) return 0;
    t->body = grown;
    t->cap = cap;
  }
  memcpy(t->body + t->len, data, n);
  t->len += n;
  t->body[t->len] = '\0';
  return n;
}

/* A header's value into buf: leading spaces, the line end and, with
** token_only, quotes and a weak validator's "W/" dropped; only printable
** ASCII kept (the hub's messages are shown to the user). */
static void header_value(const char *v, size_t n, char *buf, size_t size, int token_only) {
  size_t j = 0, i = 0;
  while (i < n && (v[i] == ' ' || v[i] == '\t')) i++;
  while (n > i && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ')) n--;
  if (token_only && n - i >= 2 && v[i] == 'W' && v[i + 1] == '/') i += 2;
  for (; i < n && j + 1 < size; i++) {
    unsigned char c = (unsigned char)v[i];
    if (token_only && c == '"') continue;
    buf[j++] = c >= ' ' && c < 0x7f ? (char)c : '?';
  }
  buf[j] = '\0';
}

static size_t on_header(char *line, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t n = size * count;
  const char *colon = memchr(line, ':', n);
  size_t name_len = colon != NULL ? (size_t)(colon - line) : 0, rest = n - name_len - 1;
  char value[CLI_HUB_REV_MAX + 1];
  /* A status line starts the next answer along the redirects. */
  if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
    t->etag[0] = t->error_code[0] = t->error_message[0] = '\0';
    return n;
  }
  if (colon == NULL) return n;
  if (name_len == 13 && strncasecmp(line, "X-Repo-Commit", 13) == 0) {
    header_value(colon + 1, rest, value, sizeof value, 1);
    if (strlen(value) == 40 && cli_hub_revision_ok(value)) memcpy(t->commit, value, 41);
  } else if ((name_len == 4 && strncasecmp(line, "ETag", 4) == 0) ||
             (name_len == 13 && strncasecmp(line, "X-Linked-Etag", 13) == 0)) {
    if (name_len == 4 && t->etag[0]) return n;   /* X-Linked-Etag, when given, wins */
    header_value(colon + 1, rest, t->etag, sizeof t->etag, 1);
  } else if (name_len == 12 && strncasecmp(line, "X-Error-Code", 12) == 0) {
    header_value(colon + 1, rest, t->error_code, sizeof t->error_code, 0);
  } else if (name_len == 15 && strncasecmp(line, "X-Error-Message", 15) == 0) {
    header_value(colon + 1, rest, t->error_message, sizeof t->error_message, 0);
  }
  return n;
}

/* The revision the answer names: the commit, else "etag-" and the ETag
** when it is a name a folder can have, else "". */
static void revision_of(const transfer *t, char *rev, size_t size) {
  rev[0] = '\0';
  if (t->commit[0]) {
    snprintf(rev, size, "%s", t->commit);
  } else if (t->etag[0]) {
    snprintf(rev, size, "etag-%.64s", t->etag);
    if (!cli_hub_revision_ok(rev)) rev[0] = '\0';
  }
}

void cli_hub_config_url(const cli_hub_env *env, const char *id, char *url, size_t size) {
  snprintf(url, size, "%s/%s/resolve/main/config.json", env->endpoint, id);
}

/* The message for an answer other than 200. */
static void http_failure(const cli_hub_env *env, const char *id, const cli_download *d,
                         const transfer *t, long status, char *why, size_t why_size) {
  char said[260] = "", where[CLI_HUB_PATH_MAX + 32] = "";
  const char *sent = env->token[0] ? "HF_TOKEN was sent" : "no token was sent: HF_TOKEN is unset";
  if (t->error_message[0]) snprintf(said, sizeof said, ": \"%s\"", t->error_message);
  if (d->redirects > 0) snprintf(where, sizeof where, ", redirected to %s", d->final_url);
  if (status == 401) {
    snprintf(why, why_size, "the hub refused the config of '%s' (%s%s: HTTP 401%s): the model is "
             "gated or private, or there is no such model; a token is needed: set HF_TOKEN to a "
             "token of an account with access (%s%s)", id, d->url, where, said, sent,
             env->token[0] ? ", and refused: check that it is valid" : "");
  } else if (status == 403) {
    snprintf(why, why_size, "the hub forbids the config of '%s' (%s%s: HTTP 403%s): the model is "
             "gated; a token is needed: set HF_TOKEN to a token of an account that has accepted "
             "the model's terms on its page (%s%s)", id, d->url, where, said, sent,
             env->token[0] ? ", but its account has no access" : "");
  } else if (status == 404 && strcmp(t->error_code, "EntryNotFound") == 0) {
    snprintf(why, why_size, "model '%s' has no config.json on the hub (%s%s: HTTP 404%s)", id,
             d->url, where, said);
  } else if (status == 404) {
    snprintf(why, why_size, "the hub has no model '%s' (%s%s: HTTP 404%s); check the id (org/name, "
             "as on the model's page)", id, d->url, where, said);
  } else if (status == 429) {
    snprintf(why, why_size, "the hub is limiting requests for '%s' (%s%s: HTTP 429%s); wait a "
             "minute and try again", id, d->url, where, said);
  } else if (status >= 500) {
    snprintf(why, why_size, "the hub failed to give the config of '%s' (%s%s: HTTP %ld%s); try "
             "again later", id, d->url, where, status, said);
  } else if (status >= 300 && status < 400) {
    snprintf(why, why_size, "the hub answered HTTP %ld for the config of '%s' (%s%s) without a "
             "place to go", status, id, d->url, where);
  } else {
    snprintf(why, why_size, "the hub answered HTTP %ld for the config of '%s' (%s%s%s)", status, id,
             d->url, where, said);
  }
}

/* The message for a transfer that did not finish. */
static void transfer_failure(const cli_hub_env *env, const char *id, const cli_download *d,
                             const transfer *t, CURLcode rc, const char *detail, char *why,
                             size_t why_size) {
  const memest_input_file_info *k = memest_input_file_describe(MEMEST_INPUT_CONFIG);
  const char *what = detail[0] ? detail : curl_easy_strerror(rc);
  if (t->over || rc == CURLE_FILESIZE_EXCEEDED) {
    snprintf(why, why_size, "the config of '%s' from %s is over %s = %zu bytes; %s, so this is not "
             "one", id, d->url, k->limit_name, k->max_bytes, k->typical);
  } else if (rc == CURLE_OPERATION_TIMEDOUT) {
    snprintf(why, why_size, "downloading the config of '%s' from %s took over %.1f s (%s); set "
             "MEMEST_HUB_TIMEOUT to allow more seconds, or HF_HUB_OFFLINE=1 to use only the caches",
             id, d->url, (double)env->timeout_ms / 1000.0, what);
  } else if (rc == CURLE_TOO_MANY_REDIRECTS) {
    snprintf(why, why_size, "downloading the config of '%s' from %s met over %d redirects", id,
             d->url, MAX_REDIRECTS);
  } else {
    snprintf(why, why_size, "cannot download the config of '%s' from %s: %s; check the network "
             "(or HF_ENDPOINT), or set HF_HUB_OFFLINE=1 to use only the caches", id, d->url, what);
  }
}

/* The transfer's options; 0, or -1 when this libcurl refuses one. */
static int configure(CURL *h, const cli_hub_env *env, const char *url, transfer *t, char *errbuf) {
  char agent[64];
  long connect_ms = env->timeout_ms < CONNECT_TIMEOUT_MS ? env->timeout_ms : CONNECT_TIMEOUT_MS;
  snprintf(agent, sizeof agent, "memest/%s", memest_version());
  if (curl_easy_setopt(h, CURLOPT_URL, url) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_MAXREDIRS, (long)MAX_REDIRECTS) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, env->timeout_ms) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->limit) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "") != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_USERAGENT, agent) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_WRITEDATA, t) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header) != CURLE_OK ||
      curl_easy_setopt(h, CURLOPT_HEADERDATA, t) != CURLE_OK) {
    return -1;
  }
  /* Bearer auth goes to the first host only: curl drops it when a redirect
  ** leads to another host, port or scheme. */
  if (env->token[0] && (curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER) != CURLE_OK ||
                        curl_easy_setopt(h, CURLOPT_XOAUTH2_BEARER, env->token) != CURLE_OK)) {
    return -1;
  }
  return 0;
}

/* Runs the transfer and reads its end into d; 0, or -1 with why. */
static int perform(CURL *h, const cli_hub_env *env, const char *id, cli_download *d, transfer *t,
                   const char *errbuf, char *why, size_t why_size) {
  CURLcode rc = curl_easy_perform(h);
  const char *final = NULL;
  long status = 0, redirects = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &redirects);
  if (curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &final) == CURLE_OK && final != NULL) {
    snprintf(d->final_url, sizeof d->final_url, "%s", final);
  }
  d->redirects = (int)redirects;
  /* An error status says more than the transfer's end (a body cut at the
  ** limit, a timeout while it arrived). */
  if (status >= 400 || (rc == CURLE_OK && status != 200)) {
    http_failure(env, id, d, t, status, why, why_size);
    return -1;
  }
  if (rc != CURLE_OK) {
    transfer_failure(env, id, d, t, rc, errbuf, why, why_size);
    return -1;
  }
  d->text = t->body != NULL ? t->body : calloc(1, 1);
  if (d->text == NULL) {
    snprintf(why, why_size, "out of memory downloading the config of '%s'", id);
    return -1;
  }
  t->body = NULL;
  d->len = t->len;
  revision_of(t, d->revision, sizeof d->revision);
  return 0;
}

int cli_hub_download(const cli_hub_env *env, const char *id, cli_download *d, char *why,
                     size_t why_size) {
  char errbuf[CURL_ERROR_SIZE] = "";
  transfer t;
  CURL *h;
  int rc = -1;
  memset(d, 0, sizeof *d);
  memset(&t, 0, sizeof t);
  t.limit = memest_input_file_describe(MEMEST_INPUT_CONFIG)->max_bytes;
  cli_hub_config_url(env, id, d->url, sizeof d->url);
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(why, why_size, "cannot start libcurl to download the config of '%s' from %s", id,
             d->url);
    return -1;
  }
  h = curl_easy_init();
  if (h == NULL || configure(h, env, d->url, &t, errbuf) != 0) {
    snprintf(why, why_size, "cannot set libcurl up (7.85 or later is needed) to download the "
             "config of '%s' from %s", id, d->url);
  } else {
    rc = perform(h, env, id, d, &t, errbuf, why, why_size);
  }
  free(t.body);
  curl_easy_cleanup(h);
  curl_global_cleanup();
  return rc;
}
