/*
** model_id.c — a Hugging Face model id checked as the hub checks one
** ("org/name": the characters, the parts, the length), before any path or
** URL is built from it: the CLI's model lookup (cli/model_lookup.c) and the
** page's hub field (memest_wasm_hub_id_check) take the one rule here.
*/
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
