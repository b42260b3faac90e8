/*
** hub_id.c — the revision names the caches accept, and an id's folder name
** in them. The id itself is checked by the core (memest_hub_id_check,
** core/model_id.c). Nothing builds a path or a URL from an id or a revision
** that did not pass there and here.
*/
#include <stdio.h>
#include <string.h>

#include "hub.h"

static int id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

int cli_hub_revision_ok(const char *rev) {
  size_t n = strlen(rev), i;
  if (n == 40) {
    for (i = 0; i < n; i++) {
      if (!((rev[i] >= '0' && rev[i] <= '9') || (rev[i] >= 'a' && rev[i] <= 'f'))) break;
    }
    if (i == n) return 1;
  }
  if (strncmp(rev, "etag-", 5) != 0 || n <= 5 || n > 5 + 64) return 0;
  for (i = 5; i < n; i++) {
    if (!id_char(rev[i])) return 0;
  }
  /* "etag-.." would be a parent folder in a path. */
  return strstr(rev, "..") == NULL;
}

void cli_hub_folder_name(const char *id, char *buf, size_t size) {
  const char *slash = strchr(id, '/');
  snprintf(buf, size, "models--%.*s--%s", (int)(slash - id), id, slash + 1);
}
