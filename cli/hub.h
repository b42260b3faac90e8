/*
** hub.h — what the CLI's Hugging Face hub files share: a model id checked
** as the hub checks it (memest_hub_id_check), the revisions the caches
** name (hub_id.c), URLs as they are shown (hub_url.c), the environment
** they read (hub_env.c), the two caches on disk (hub_cache.c) and the
** download (hub_download.c, the only file that uses libcurl, which it
** loads when a download starts). cli_load_model() (model_lookup.c) puts
** them together.
*/
#ifndef MEMEST_CLI_HUB_H
#define MEMEST_CLI_HUB_H

#include <stddef.h>

#include "memest.h"

/* A hub id is at most this long (the hub's limit), "org/name". */
#define CLI_HUB_ID_MAX MEMEST_HUB_ID_MAX
/* A revision: a 40-digit commit, "etag-" and the server's ETag, or
** "etag-sha256-" and the SHA-256 of an ETag that cannot name a folder. */
#define CLI_HUB_REV_MAX 76
/* The longest cache folder, endpoint and token taken from the
** environment; the paths and URL built from them fit memest_model_source. */
#define CLI_HUB_DIR_MAX 700
#define CLI_HUB_ENDPOINT_MAX 512
#define CLI_HUB_TOKEN_MAX 512
/* Built paths and URLs. */
#define CLI_HUB_PATH_MAX 1024

/* Whether `rev` is a revision as the caches name one: 40 lowercase hex
** digits, "etag-" and 1 to 64 of [A-Za-z0-9._-] (no ".."), or
** "etag-sha256-" and 64 lowercase hex digits. */
int cli_hub_revision_ok(const char *rev);
/* The revision an ETag of n bytes names (its quotes and "W/" already
** dropped): "etag-" and the ETag when that is a revision as above, else
** "etag-sha256-" and its SHA-256, so that two ETags never share a name;
** "" for an empty one. size is at least CLI_HUB_REV_MAX + 1. */
void cli_hub_etag_revision(const char *etag, size_t n, char *rev, size_t size);
/* "models--org--name": the folder of id in both caches. */
void cli_hub_folder_name(const char *id, char *buf, size_t size);

/* Where url's authority (user-info, host, port) starts, after "scheme://"
** (or at 0 without one), into *start; its length, up to the first '/', '?'
** or '#' (hub_url.c). */
size_t cli_url_authority(const char *url, size_t *start);
/* url into buf without its user-info ("user:password@" before the host):
** every URL memest shows, in a report, an error or a cache, goes through it. */
void cli_url_shown(const char *url, char *buf, size_t size);

/* The environment, read and checked once (hub_env.c). */
typedef struct cli_hub_env {
  char hub_cache[CLI_HUB_DIR_MAX + 1];     /* HF_HUB_CACHE, else HF_HOME/hub, else
                                           ** $XDG_CACHE_HOME/huggingface/hub, else
                                           ** ~/.cache/huggingface/hub; "" without HOME */
  const char *hub_cache_from;              /* the variable it came from, or "" */
  char memest_cache[CLI_HUB_DIR_MAX + 1];  /* $XDG_CACHE_HOME/memest/hub, else
                                           ** ~/.cache/memest/hub; "" without HOME */
  char endpoint[CLI_HUB_ENDPOINT_MAX + 1]; /* HF_ENDPOINT without a trailing '/', else
                                           ** https://huggingface.co: what is asked */
  char endpoint_shown[CLI_HUB_ENDPOINT_MAX + 1]; /* the same without its user-info */
  char token[CLI_HUB_TOKEN_MAX + 1];       /* HF_TOKEN, or "" */
  int offline;                             /* HF_HUB_OFFLINE is 1/ON/YES/TRUE */
  long timeout_ms;                         /* MEMEST_HUB_TIMEOUT (seconds), default 30 s */
} cli_hub_env;

/* Reads the environment into env. 0, or -1 with the message in why when a
** variable holds what it never may (an endpoint that is not http(s) or
** holds a '?' or '#', a token with spaces or control characters, an unknown HF_HUB_OFFLINE, a
** bad timeout, a folder longer than CLI_HUB_DIR_MAX). */
int cli_hub_env_read(cli_hub_env *env, char *why, size_t why_size);

/* One cache's copy of a model's config (hub_cache.c). */
typedef struct cli_cached {
  char folder[CLI_HUB_PATH_MAX];   /* <cache>/models--org--name, always filled */
  char path[CLI_HUB_PATH_MAX];     /* .../snapshots/<rev>/config.json when found */
  char revision[CLI_HUB_REV_MAX + 1];
} cli_cached;

/* Looks up id (checked) in the cache folder `root` (either cache: both
** use the hub's layout, refs/main naming the snapshot). 1 when refs/main
** and snapshots/<rev>/config.json exist (found->path, revision), 0 when
** the cache lacks them (found->folder still filled), -1 when refs/main is
** unreadable or names no revision (why names the file and the fix). */
int cli_cache_lookup(const char *root, const char *id, cli_cached *found, char *why,
                     size_t why_size);
/* Keeps text as id's config at `revision` in the cache folder `root`:
** snapshots/<rev>/config.json, then refs/main, each written to a temporary
** file, flushed and renamed over the old one, with every step checked; the
** folders are made (0700) as needed. 0 with kept->path, or -1 with why. */
int cli_cache_store(const char *root, const char *id, const char *revision, const char *text,
                    size_t len, cli_cached *kept, char *why, size_t why_size);

/* A config downloaded from the hub (hub_download.c). */
typedef struct cli_download {
  char *text;                          /* malloc'ed, NUL-terminated */
  size_t len;
  char revision[CLI_HUB_REV_MAX + 1];  /* X-Repo-Commit, else "etag-<ETag>", else "" */
  char url[CLI_HUB_PATH_MAX];          /* <endpoint>/<id>/resolve/main/config.json, shown */
  char final_url[CLI_HUB_PATH_MAX];    /* where the redirects ended, shown */
  int redirects;
} cli_download;

/* <endpoint>/<id>/resolve/main/config.json into url as it is shown (no
** user-info); id already checked. */
void cli_hub_config_url(const cli_hub_env *env, const char *id, char *url, size_t size);
/* Downloads id's config.json with libcurl, loaded now (redirects followed,
** env->timeout_ms, the config file's size limit, the token as a bearer
** token to the endpoint's host only). 0 with d filled, or -1 with the
** message in why: it names id and the URL (shown), and for 401/403 says
** that a token is needed and whether one was sent to the host that
** refused. */
int cli_hub_download(const cli_hub_env *env, const char *id, cli_download *d, char *why,
                     size_t why_size);

#endif /* MEMEST_CLI_HUB_H */
