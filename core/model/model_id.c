/*
** model_id.c — a Hugging Face model id checked as the hub checks one
** ("org/name": the characters, the parts, the length), before any path or
** URL is built from it: the CLI's model lookup (cli/model_lookup.c) and the
** page's hub field (memest_wasm_hub_id_check) take the one rule here. And
** the id a model page's address names (memest_hub_id_read), read the same
** way by both.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "memest.h"

static int id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

/* One part of "org/name": [A-Za-z0-9_.-]+, not starting or ending with '-' or '.'. */
static int part_ok(const char *s, size_t n, const char *which, char *why, size_t why_size) {
  size_t i;
  if (n == 0) {
    snprintf(why, why_size, "its %s is empty", which);
    return 0;
  }
  for (i = 0; i < n; i++) {
    if (!id_char(s[i])) {
      snprintf(why, why_size,
               "its %s has a character other than letters, digits, '-', '_' and '.'", which);
      return 0;
    }
  }
  if (s[0] == '-' || s[0] == '.' || s[n - 1] == '-' || s[n - 1] == '.') {
    snprintf(why, why_size, "its %s starts or ends with '-' or '.'", which);
    return 0;
  }
  return 1;
}

int memest_hub_id_check(const char *id, char *why, size_t why_size) {
  const char *slash = strchr(id, '/');
  size_t n = strlen(id);
  if (slash == NULL) {
    snprintf(why, why_size, "a hub id is org/name, with one '/'");
    return 0;
  }
  if (strchr(slash + 1, '/') != NULL) {
    snprintf(why, why_size, "it has more than one '/' (a hub id is org/name)");
    return 0;
  }
  if (n > MEMEST_HUB_ID_MAX) {
    snprintf(why, why_size, "it is %zu characters long, over the hub's %d", n, MEMEST_HUB_ID_MAX);
    return 0;
  }
  if (!part_ok(id, (size_t)(slash - id), "organisation", why, why_size) ||
      !part_ok(slash + 1, strlen(slash + 1), "name", why, why_size)) {
    return 0;
  }
  if (strstr(id, "--") != NULL || strstr(id, "..") != NULL) {
    snprintf(why, why_size, "it has \"--\" or \"..\", which the hub does not allow");
    return 0;
  }
  if (n >= 4 && strcmp(id + n - 4, ".git") == 0) {
    snprintf(why, why_size, "it ends in \".git\", which the hub does not allow");
    return 0;
  }
  return 1;
}

/* Whether s starts with `prefix`, ASCII case aside; advances *s past it. */
static int take_prefix(const char **s, const char *prefix) {
  size_t n = strlen(prefix), i;
  for (i = 0; i < n; i++) {
    if ((*s)[i] == '\0' || tolower((unsigned char)(*s)[i]) != prefix[i]) return 0;
  }
  *s += n;
  return 1;
}

/* The model page's hosts: the hub's own names for it. */
static const char *const page_hosts[] = {"huggingface.co/", "www.huggingface.co/", "hf.co/",
                                         "www.hf.co/"};

int memest_hub_id_read(const char *text, char *id, size_t id_size, char *why, size_t why_size) {
  const char *s = text, *slash, *end;
  size_t i, n;
  int host = 0;
  if (id_size == 0) return 0;
  id[0] = '\0';
  if (!take_prefix(&s, "https://")) (void)take_prefix(&s, "http://");
  for (i = 0; i < sizeof page_hosts / sizeof page_hosts[0] && !host; i++) {
    host = take_prefix(&s, page_hosts[i]);
  }
  if (!host) {
    if (s != text) {
      snprintf(why, why_size, "it is an address, but not of a model's page on huggingface.co or hf.co");
      return 0;
    }
    if (strlen(text) >= id_size) {
      snprintf(why, why_size, "it is %zu characters long, over the hub's %d", strlen(text),
               MEMEST_HUB_ID_MAX);
      return 0;
    }
    if (!memest_hub_id_check(text, why, why_size)) return 0;
    snprintf(id, id_size, "%s", text);
    return 1;
  }
  /* "org/name", then nothing, "/", "/tree/main" or "/tree/main/". */
  slash = strchr(s, '/');
  end = slash != NULL ? strchr(slash + 1, '/') : NULL;
  if (end == NULL) end = s + strlen(s);
  n = (size_t)(end - s);
  if (*end == '/' && end[1] != '\0' && strcmp(end, "/tree/main") != 0 &&
      strcmp(end, "/tree/main/") != 0) {
    snprintf(why, why_size,
             "the address goes past the model's page (\"%.40s\"); give the page's own address, "
             "https://huggingface.co/org/name, or the id org/name (the main revision is fetched)",
             end);
    return 0;
  }
  if (slash == NULL || n >= id_size || n > MEMEST_HUB_ID_MAX) {
    if (slash == NULL) snprintf(why, why_size, "the address names no model: a model's page is https://huggingface.co/org/name");
    else snprintf(why, why_size, "its id is %zu characters long, over the hub's %d", n, MEMEST_HUB_ID_MAX);
    return 0;
  }
  memcpy(id, s, n);
  id[n] = '\0';
  if (!memest_hub_id_check(id, why, why_size)) {
    id[0] = '\0';
    return 0;
  }
  return 1;
}
