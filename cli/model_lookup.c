/*
** model_lookup.c — what --model names, in one order for memest, plan,
** compare and check (README "Models"):
**   1. a value without '/' that names a preset is that preset; any other
**      value without '/' is a path;
**   2. a path that exists is read: a file as the config, a folder as the
**      config.json in it (as transformers reads a model's folder);
**   3. otherwise a hub id org/name (checked as the hub checks ids before
**      any path or URL is built from it): a preset's id is that preset;
**      else the hub's cache, else memest's cache, else a download (kept in
**      memest's cache), unless HF_HUB_OFFLINE forbids it;
**   4. anything else is a missing file, told as not being an id either.
** The config found, and where it came from, go to the caller.
*/
#define _POSIX_C_SOURCE 200809L   /* stat */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hub.h"
#include "memest.h"

/* Reads the config at path (a file, or a folder's config.json) as the
** model's, from the kind of place `kind` says. */
static memest_code read_config(const char *path, memest_model_origin kind, cli_model *m,
                               char *why, size_t why_size) {
  char inner[CLI_HUB_PATH_MAX];
  struct stat st;
  int folder = cli_folder_config(path, inner, sizeof inner);
  if (folder < 0) {
    snprintf(why, why_size, "the folder path '%.200s...' is too long", path);
    return MEMEST_E_IO;
  }
  if (folder > 0) {
    if (stat(inner, &st) != 0 && errno == ENOENT) {
      snprintf(why, why_size, "'%s' is a folder with no config.json; give the model's config.json "
               "or the folder that holds it", path);
      return MEMEST_E_IO;
    }
    path = inner;
  }
  m->config = cli_read_file(path, MEMEST_INPUT_CONFIG, &m->len, why, why_size);
  if (m->config == NULL) return MEMEST_E_IO;
  m->source.kind = kind;
  snprintf(m->source.path, sizeof m->source.path, "%s", path);
  return MEMEST_OK;
}

/* A config from a cache or the network must be one memest reads; else its
** origin is named, since no file the user gave holds it. */
static memest_code readable(const char *id, const char *where, cli_model *m, char *why,
                            size_t why_size) {
  memest_error e;
  memest_code code = memest_config_check(m->config, m->len, &e);
  if (code == MEMEST_OK) return MEMEST_OK;
  snprintf(why, why_size, "the config of '%s' %s is not one memest reads: %s", id, where,
           e.message);
  free(m->config);
  m->config = NULL;
  return code;
}

/* The model's config from the cache at root (`name` for the messages):
** 1 with *code when the cache decided (found, or failed), 0 when it lacks
** the model (c->folder still names where it was looked for). */
static int from_cache(const char *id, const char *root, memest_model_origin kind, const char *name,
                      cli_cached *c, cli_model *m, memest_code *code, char *why, size_t why_size) {
  char where[CLI_HUB_PATH_MAX + 64];
  int found = cli_cache_lookup(root, id, c, why, why_size);
  if (found == 0) return 0;
  *code = MEMEST_E_IO;
  if (found < 0 || (*code = read_config(c->path, kind, m, why, why_size)) != MEMEST_OK) return 1;
  snprintf(m->source.revision, sizeof m->source.revision, "%s", c->revision);
  snprintf(where, sizeof where, "in %s (%s)", name, c->path);
  *code = readable(id, where, m, why, why_size);
  return 1;
}

/* The model's config from the caches or the hub. */
static memest_code from_hub(const char *id, cli_model *m, char *why, size_t why_size) {
  cli_hub_env env;
  cli_cached hub, mine, kept;
  cli_download d;
  char where[CLI_HUB_PATH_MAX + 64], url[CLI_HUB_PATH_MAX], fail[1200];
  memest_code code = MEMEST_OK;
  if (cli_hub_env_read(&env, fail, sizeof fail) != 0) {
    snprintf(why, why_size, "cannot look up model '%s': %s", id, fail);
    return MEMEST_E_VALUE;
  }
  /* The hub's own cache (what its tools fetched), then memest's (what an
  ** earlier run downloaded). */
  if (from_cache(id, env.hub_cache, MEMEST_MODEL_FROM_HUB_CACHE, "the hub's cache", &hub, m, &code,
                 why, why_size) ||
      from_cache(id, env.memest_cache, MEMEST_MODEL_FROM_MEMEST_CACHE, "memest's cache", &mine, m,
                 &code, why, why_size)) {
    return code;
  }
  cli_hub_config_url(&env, id, url, sizeof url);
  if (env.offline) {
    snprintf(why, why_size, "model '%s' is in neither the hub's cache (%s) nor memest's (%s), and "
             "HF_HUB_OFFLINE=1 forbids downloading it from %s; unset HF_HUB_OFFLINE, or run once "
             "where the hub can be reached", id, hub.folder[0] ? hub.folder : "no HOME",
             mine.folder[0] ? mine.folder : "no HOME", url);
    return MEMEST_E_IO;
  }
  if (cli_hub_download(&env, id, &d, fail, sizeof fail) != 0) {
    snprintf(why, why_size, "%s; neither the hub's cache (%s) nor memest's (%s) has it", fail,
             hub.folder[0] ? hub.folder : "no HOME", mine.folder[0] ? mine.folder : "no HOME");
    return MEMEST_E_IO;
  }
  m->config = d.text;
  m->len = d.len;
  m->source.kind = MEMEST_MODEL_FROM_DOWNLOAD;
  snprintf(m->source.url, sizeof m->source.url, "%s", d.url);
  snprintf(m->source.revision, sizeof m->source.revision, "%s", d.revision);
  snprintf(where, sizeof where, "downloaded from %s", d.url);
  if ((code = readable(id, where, m, why, why_size)) != MEMEST_OK) return code;
  /* Kept under the revision the hub named; without one it is not kept. */
  if (d.revision[0] &&
      cli_cache_store(env.memest_cache, id, d.revision, d.text, d.len, &kept, fail,
                      sizeof fail) != 0) {
    snprintf(why, why_size, "the config of '%s' was downloaded from %s, but memest cannot keep it "
             "in its cache: %s", id, d.url, fail);
    free(m->config);
    m->config = NULL;
    return MEMEST_E_IO;
  }
  if (d.revision[0]) snprintf(m->source.path, sizeof m->source.path, "%s", kept.path);
  return MEMEST_OK;
}

memest_code cli_load_model(const char *value, const char *prog, FILE *err, cli_model *m,
                           char *why, size_t why_size) {
  struct stat st;
  char not_id[300], address_id[MEMEST_HUB_ID_MAX + 1];
  int is_id;
  memest_code code;
  memset(m, 0, sizeof *m);
  if (value == NULL || value[0] == '\0') return MEMEST_OK;   /* the library says it is missing */
  if (strchr(value, '/') == NULL) {
    if (!cli_model_is_file(value, prog, err)) {
      m->source.kind = MEMEST_MODEL_FROM_PRESET;
      return MEMEST_OK;
    }
    return read_config(value, MEMEST_MODEL_FROM_FILE, m, why, why_size);
  }
  /* A path that exists, or that the system will not say is missing (a
  ** folder on the way cannot be searched): read, so that its error shows. */
  if (stat(value, &st) == 0 || (errno != ENOENT && errno != ENOTDIR)) {
    return read_config(value, MEMEST_MODEL_FROM_FILE, m, why, why_size);
  }
  /* A model page's address names its id, as the page's hub field reads it. */
  is_id = memest_hub_id_read(value, address_id, sizeof address_id, not_id, sizeof not_id);
  if (is_id && strcmp(address_id, value) != 0) {
    const char *shipped = memest_model_preset_config(address_id);
    if (shipped == NULL) return from_hub(address_id, m, why, why_size);
    m->len = strlen(shipped);
    if ((m->config = malloc(m->len + 1)) == NULL) {
      snprintf(why, why_size, "out of memory reading the preset of %s", address_id);
      return MEMEST_E_NOMEM;
    }
    memcpy(m->config, shipped, m->len + 1);
    m->source.kind = MEMEST_MODEL_FROM_PRESET;
    return MEMEST_OK;
  }
  if (is_id) {
    if (memest_model_preset_config(value) != NULL) {
      m->source.kind = MEMEST_MODEL_FROM_PRESET;
      return MEMEST_OK;
    }
    return from_hub(value, m, why, why_size);
  }
  code = read_config(value, MEMEST_MODEL_FROM_FILE, m, why, why_size);
  if (code != MEMEST_OK) {
    size_t n = strlen(why);
    snprintf(why + n, why_size - n, "; nor is it a hub id: %s", not_id);
  }
  return code;
}
