/*
** hub_download.c — a model's config.json downloaded from the Hugging Face
** hub with libcurl (the only file of memest that uses it): redirects
** followed (the hub sends a config to its file store, a renamed repo to its
** new name), the token sent as a bearer token to the hub's host only, the
** time limit, the config file's size limit while the bytes arrive, and each
** failure told with the id and the URL (never its user-info): no network, a
** timeout, a gated or private model (a token is needed, and whether it went
** to the host that refused), no such model, a header over libcurl's limit,
** any other status.
**
** libcurl and the dozens of libraries it needs (TLS, Kerberos, LDAP, ...)
** are loaded with dlopen when a download starts, not when memest starts:
** every other run of memest loads none of them. The header gives the
** types; curl_api holds the few functions called.
*/
#define _POSIX_C_SOURCE 200809L   /* strncasecmp, dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "hub.h"
#include "memest.h"

#define MAX_REDIRECTS 10
#define CONNECT_TIMEOUT_MS 10000L
/* libcurl's ABI has been libcurl.so.4 since 7.16; CURLOPT_PROTOCOLS_STR
** needs 7.85. */
#define LIBCURL_NAME "libcurl.so.4"
#define LIBCURL_MIN 0x075500
#define LIBCURL_MIN_NAME "7.85"

/* The libcurl functions memest calls, looked up in the loaded library. */
typedef struct curl_api {
  CURLcode (*global_init)(long flags);
  void (*global_cleanup)(void);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *h);
  CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
  void (*easy_cleanup)(CURL *h);
  const char *(*easy_strerror)(CURLcode rc);
  curl_version_info_data *(*version_info)(CURLversion stamp);
} curl_api;

/* name from lib into the function pointer at fn (size bytes); 0, or -1. */
static int symbol(void *lib, const char *name, void *fn, size_t size) {
  void *p = dlsym(lib, name);
  if (p == NULL || size != sizeof p) return -1;
  memcpy(fn, &p, size);   /* POSIX: a dlsym result converts to a function pointer */
  return 0;
}

/* Loads libcurl into api; 0, or -1 with why (no libcurl, or too old). The
** library stays loaded until memest exits: its TLS library registers exit
** handlers that must still be there then. */
static int load_curl(curl_api *api, char *why, size_t why_size) {
  void *lib = dlopen(LIBCURL_NAME, RTLD_NOW | RTLD_LOCAL);
  const curl_version_info_data *v;
  if (lib == NULL) {
    const char *e = dlerror();
    snprintf(why, why_size, "%s cannot be loaded (%s); install libcurl (Debian: apt-get install "
             "libcurl4), or give the model's config.json as a file", LIBCURL_NAME,
             e != NULL ? e : "no reason given");
    return -1;
  }
  if (symbol(lib, "curl_global_init", &api->global_init, sizeof api->global_init) != 0 ||
      symbol(lib, "curl_global_cleanup", &api->global_cleanup, sizeof api->global_cleanup) != 0 ||
      symbol(lib, "curl_easy_init", &api->easy_init, sizeof api->easy_init) != 0 ||
      symbol(lib, "curl_easy_setopt", &api->easy_setopt, sizeof api->easy_setopt) != 0 ||
      symbol(lib, "curl_easy_perform", &api->easy_perform, sizeof api->easy_perform) != 0 ||
      symbol(lib, "curl_easy_getinfo", &api->easy_getinfo, sizeof api->easy_getinfo) != 0 ||
      symbol(lib, "curl_easy_cleanup", &api->easy_cleanup, sizeof api->easy_cleanup) != 0 ||
      symbol(lib, "curl_easy_strerror", &api->easy_strerror, sizeof api->easy_strerror) != 0 ||
      symbol(lib, "curl_version_info", &api->version_info, sizeof api->version_info) != 0) {
    snprintf(why, why_size, "%s lacks a function memest calls; install libcurl %s or later",
             LIBCURL_NAME, LIBCURL_MIN_NAME);
    return -1;
  }
  v = api->version_info(CURLVERSION_NOW);
  if (v == NULL || v->version_num < LIBCURL_MIN) {
    snprintf(why, why_size, "%s is libcurl %s, older than %s, which memest needs; install a newer "
             "libcurl", LIBCURL_NAME, v != NULL && v->version != NULL ? v->version : "of unknown "
             "version", LIBCURL_MIN_NAME);
    return -1;
  }
  return 0;
}

/* What one transfer collects: the body (up to limit) and, from the
** headers, the revision the hub names and its error code and message, and
** whether the last request carried the token. */
typedef struct transfer {
  char *body;
  size_t len, cap, limit;
  int over;                            /* the body passed limit */
  int token_sent;                      /* the last request carried HF_TOKEN */
  int linked_etag;                     /* etag came from X-Linked-Etag */
  int in_headers;                      /* an answer's headers are arriving */
  char last_header[64];                /* the name of the last header that arrived whole */
  char commit[CLI_HUB_REV_MAX + 1];    /* the last X-Repo-Commit along the redirects */
  char etag[CLI_HUB_REV_MAX + 1];      /* the revision the last answer's ETag names */
  char error_code[64];                 /* the last answer's X-Error-Code */
  char error_message[200];             /* its X-Error-Message, printable ASCII only */
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

/* A header's value, v[0..n): leading spaces and the line end dropped;
** *start and the length returned. */
static size_t header_trim(const char *v, size_t n, size_t *start) {
  size_t i = 0;
  while (i < n && (v[i] == ' ' || v[i] == '\t')) i++;
  while (n > i && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ' || v[n - 1] == '\t')) {
    n--;
  }
  *start = i;
  return n - i;
}

/* A header's value into buf, only printable ASCII kept (the hub's messages
** are shown to the user). */
static void header_text(const char *v, size_t n, char *buf, size_t size) {
  size_t i, j = 0, len = header_trim(v, n, &i);
  for (n = i + len; i < n && j + 1 < size; i++) {
    unsigned char c = (unsigned char)v[i];
    buf[j++] = c >= ' ' && c < 0x7f ? (char)c : '?';
  }
  buf[j] = '\0';
}

/* The revision an ETag header names: a weak validator's "W/" and the
** quotes around it dropped, the rest whole (cli_hub_etag_revision). */
static void etag_revision(const char *v, size_t n, char *rev, size_t size) {
  size_t i, len = header_trim(v, n, &i);
  const char *e = v + i;
  if (len >= 2 && e[0] == 'W' && e[1] == '/') {
    e += 2;
    len -= 2;
  }
  if (len >= 2 && e[0] == '"' && e[len - 1] == '"') {
    e++;
    len -= 2;
  }
  cli_hub_etag_revision(e, len, rev, size);
}

static size_t on_header(char *line, size_t size, size_t count, void *user) {
  transfer *t = user;
  size_t n = size * count;
  const char *colon = memchr(line, ':', n);
  size_t name_len = colon != NULL ? (size_t)(colon - line) : 0, rest = n - name_len - 1;
  char value[CLI_HUB_REV_MAX + 1];
  /* A status line starts the next answer along the redirects, an empty
  ** line ends its headers. */
  if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) {
    t->etag[0] = t->error_code[0] = t->error_message[0] = t->last_header[0] = '\0';
    t->linked_etag = 0;
    t->in_headers = 1;
    return n;
  }
  if (n <= 2 && (line[0] == '\r' || line[0] == '\n')) t->in_headers = 0;
  if (colon == NULL) return n;
  header_text(line, name_len, t->last_header, sizeof t->last_header);
  if (name_len == 13 && strncasecmp(line, "X-Repo-Commit", 13) == 0) {
    header_text(colon + 1, rest, value, sizeof value);
    if (strlen(value) == 40 && cli_hub_revision_ok(value)) memcpy(t->commit, value, 41);
  } else if (name_len == 13 && strncasecmp(line, "X-Linked-Etag", 13) == 0) {
    etag_revision(colon + 1, rest, t->etag, sizeof t->etag);   /* wins over ETag */
    t->linked_etag = 1;
  } else if (name_len == 4 && strncasecmp(line, "ETag", 4) == 0) {
    if (!t->linked_etag) etag_revision(colon + 1, rest, t->etag, sizeof t->etag);
  } else if (name_len == 12 && strncasecmp(line, "X-Error-Code", 12) == 0) {
    header_text(colon + 1, rest, t->error_code, sizeof t->error_code);
  } else if (name_len == 15 && strncasecmp(line, "X-Error-Message", 15) == 0) {
    header_text(colon + 1, rest, t->error_message, sizeof t->error_message);
  }
  return n;
}

/* Each request's headers as sent: whether the last one carried the token
** (libcurl drops it on a redirect to another host, port or scheme). */
static int on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *user) {
  transfer *t = user;
  size_t i;
  static const char auth[] = "\nAuthorization: Bearer ";
  (void)h;
  if (type != CURLINFO_HEADER_OUT) return 0;
  t->token_sent = 0;
  for (i = 0; i + sizeof auth - 1 <= size; i++) {
    if (data[i] == '\n' && strncasecmp(data + i, auth, sizeof auth - 1) == 0) t->token_sent = 1;
  }
  return 0;
}

/* The revision the answer names: the commit, else the ETag's, else "". */
static void revision_of(const transfer *t, char *rev, size_t size) {
  snprintf(rev, size, "%s", t->commit[0] ? t->commit : t->etag);
}

void cli_hub_config_url(const cli_hub_env *env, const char *id, char *url, size_t size) {
  snprintf(url, size, "%s/%s/resolve/main/config.json", env->endpoint_shown, id);
}

/* The host (and port) of a shown URL into buf. */
static void host_of(const char *url, char *buf, size_t size) {
  size_t start, len = cli_url_authority(url, &start);
  snprintf(buf, size, "%.*s", (int)len, url + start);
}

/* Whether a 401 or 403 came from where the token does not go: with a
** token, an answer to a request that did not carry it; without one, from
** another scheme, host or port than the endpoint's. */
static int refused_elsewhere(const cli_hub_env *env, const cli_download *d, const transfer *t) {
  size_t a, b, na = cli_url_authority(d->url, &a), nb = cli_url_authority(d->final_url, &b);
  if (d->redirects == 0) return 0;
  if (env->token[0]) return !t->token_sent;
  return na != nb || a != b || strncasecmp(d->url, d->final_url, a + na) != 0;
}

/* The message for an answer other than 200. */
static void http_failure(const cli_hub_env *env, const char *id, const cli_download *d,
                         const transfer *t, long status, char *why, size_t why_size) {
  char said[260] = "", where[CLI_HUB_PATH_MAX + 32] = "", asked[CLI_HUB_PATH_MAX],
       answered[CLI_HUB_PATH_MAX];
  const char *sent = env->token[0] ? "HF_TOKEN was sent" : "no token was sent: HF_TOKEN is unset";
  if (t->error_message[0]) snprintf(said, sizeof said, ": \"%s\"", t->error_message);
  if (d->redirects > 0) snprintf(where, sizeof where, ", redirected to %s", d->final_url);
  if ((status == 401 || status == 403) && refused_elsewhere(env, d, t)) {
    host_of(d->url, asked, sizeof asked);
    host_of(d->final_url, answered, sizeof answered);
    snprintf(why, why_size, "the config of '%s' (%s%s) was refused by %s (HTTP %ld%s), where the "
             "hub sent memest; %s, since memest sends it only to the endpoint's host %s; the hub's "
             "redirects lead to links that need no token, so this one may have expired: try again, "
             "or check HF_ENDPOINT", id, d->url, where, answered, status, said,
             env->token[0] ? "HF_TOKEN is set but was not sent there"
                           : "no token was sent there (HF_TOKEN is unset), nor would one be",
             asked);
  } else if (status == 401) {
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

/* Whether the transfer stopped at libcurl's limit on a response header
** (CURL_MAX_HTTP_HEADER for one): libcurl before 8.6 says
** CURLE_OUT_OF_MEMORY, while the headers arrive; CURLE_TOO_LARGE (100)
** since. */
static int header_too_large(CURLcode rc, const transfer *t) {
  return (rc == CURLE_OUT_OF_MEMORY && t->in_headers) || (int)rc == 100;
}

/* The message for a transfer that did not finish. */
static void transfer_failure(const curl_api *api, const cli_hub_env *env, const char *id,
                             const cli_download *d, const transfer *t, CURLcode rc,
                             const char *detail, char *why, size_t why_size) {
  const memest_input_file_info *k = memest_input_file_describe(MEMEST_INPUT_CONFIG);
  char what[CURL_ERROR_SIZE + 40], where[CLI_HUB_PATH_MAX + 32] = "";
  /* libcurl's own words may quote a URL: its user-info is dropped. */
  cli_url_shown(detail[0] ? detail : api->easy_strerror(rc), what, sizeof what);
  if (d->redirects > 0) snprintf(where, sizeof where, ", redirected to %s", d->final_url);
  if (t->over || rc == CURLE_FILESIZE_EXCEEDED) {
    snprintf(why, why_size, "the config of '%s' from %s is over %s = %zu bytes; %s, so this is not "
             "one", id, d->url, k->limit_name, k->max_bytes, k->typical);
  } else if (header_too_large(rc, t)) {
    char after[100] = "";
    if (t->last_header[0]) snprintf(after, sizeof after, ", the one after '%s'", t->last_header);
    snprintf(why, why_size, "the answer for the config of '%s' (%s%s) has a response header over "
             "the %d bytes libcurl takes for one header%s, which no hub sends; check HF_ENDPOINT "
             "(a proxy or server that is not the hub may be answering)", id, d->url, where,
             CURL_MAX_HTTP_HEADER, after);
  } else if (rc == CURLE_OPERATION_TIMEDOUT) {
    snprintf(why, why_size, "downloading the config of '%s' from %s took over %.1f s (%s); set "
             "MEMEST_HUB_TIMEOUT to allow more seconds, or HF_HUB_OFFLINE=1 to use only the caches",
             id, d->url, (double)env->timeout_ms / 1000.0, what);
  } else if (rc == CURLE_TOO_MANY_REDIRECTS) {
    snprintf(why, why_size, "downloading the config of '%s' from %s met over %d redirects", id,
             d->url, MAX_REDIRECTS);
  } else {
    snprintf(why, why_size, "cannot download the config of '%s' from %s%s: %s; check the network "
             "(or HF_ENDPOINT), or set HF_HUB_OFFLINE=1 to use only the caches", id, d->url, where,
             what);
  }
}

/* The transfer's options; 0, or -1 when this libcurl refuses one. */
static int configure(const curl_api *api, CURL *h, const cli_hub_env *env, const char *url,
                     transfer *t, char *errbuf) {
  char agent[64];
  long connect_ms = env->timeout_ms < CONNECT_TIMEOUT_MS ? env->timeout_ms : CONNECT_TIMEOUT_MS;
  curl_write_callback body = on_body, header = on_header;
  curl_debug_callback debug = on_debug;
  snprintf(agent, sizeof agent, "memest/%s", memest_version());
  if (api->easy_setopt(h, CURLOPT_URL, url) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_MAXREDIRS, (long)MAX_REDIRECTS) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_TIMEOUT_MS, env->timeout_ms) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)t->limit) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "") != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_USERAGENT, agent) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_WRITEFUNCTION, body) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_WRITEDATA, t) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_HEADERFUNCTION, header) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_HEADERDATA, t) != CURLE_OK ||
      /* The requests' headers reach on_debug (and nothing is printed). */
      api->easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_DEBUGDATA, t) != CURLE_OK ||
      api->easy_setopt(h, CURLOPT_VERBOSE, 1L) != CURLE_OK) {
    return -1;
  }
  /* Bearer auth goes to the first host only: curl drops it when a redirect
  ** leads to another host, port or scheme. */
  if (env->token[0] &&
      (api->easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER) != CURLE_OK ||
       api->easy_setopt(h, CURLOPT_XOAUTH2_BEARER, env->token) != CURLE_OK)) {
    return -1;
  }
  return 0;
}

/* Runs the transfer and reads its end into d; 0, or -1 with why. */
static int perform(const curl_api *api, CURL *h, const cli_hub_env *env, const char *id,
                   cli_download *d, transfer *t, const char *errbuf, char *why, size_t why_size) {
  CURLcode rc = api->easy_perform(h);
  const char *final = NULL;
  long status = 0, redirects = 0;
  api->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  api->easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &redirects);
  if (api->easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &final) == CURLE_OK && final != NULL) {
    cli_url_shown(final, d->final_url, sizeof d->final_url);
  }
  d->redirects = (int)redirects;
  /* An error status says more than the transfer's end (a body cut at the
  ** limit, a timeout while it arrived). */
  if (status >= 400 || (rc == CURLE_OK && status != 200)) {
    http_failure(env, id, d, t, status, why, why_size);
    return -1;
  }
  if (rc != CURLE_OK) {
    transfer_failure(api, env, id, d, t, rc, errbuf, why, why_size);
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
  char errbuf[CURL_ERROR_SIZE] = "", url[CLI_HUB_PATH_MAX], fail[400];
  curl_api api;
  transfer t;
  CURL *h;
  int rc = -1;
  memset(d, 0, sizeof *d);
  memset(&t, 0, sizeof t);
  t.in_headers = 1;   /* the first status line is a header too */
  t.limit = memest_input_file_describe(MEMEST_INPUT_CONFIG)->max_bytes;
  cli_hub_config_url(env, id, d->url, sizeof d->url);
  snprintf(url, sizeof url, "%s/%s/resolve/main/config.json", env->endpoint, id);
  if (load_curl(&api, fail, sizeof fail) != 0) {
    snprintf(why, why_size, "cannot download the config of '%s' from %s: %s", id, d->url, fail);
    return -1;
  }
  if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(why, why_size, "cannot start libcurl to download the config of '%s' from %s", id,
             d->url);
    return -1;
  }
  h = api.easy_init();
  if (h == NULL || configure(&api, h, env, url, &t, errbuf) != 0) {
    snprintf(why, why_size, "cannot set libcurl up (%s or later is needed) to download the "
             "config of '%s' from %s", LIBCURL_MIN_NAME, id, d->url);
  } else {
    rc = perform(&api, h, env, id, d, &t, errbuf, why, why_size);
  }
  free(t.body);
  if (h != NULL) api.easy_cleanup(h);
  api.global_cleanup();
  return rc;
}
