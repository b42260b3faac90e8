/*
** hub_url.c — a URL as memest shows it: without the user-info that may
** stand before its host ("user:password@", RFC 3986 3.2.1), so that no
** password from HF_ENDPOINT or from a redirect's Location reaches a report,
** an error or a cache. The URL itself, user-info and all, is what is asked.
*/
#include <stdio.h>
#include <string.h>

#include "hub.h"

size_t cli_url_authority(const char *url, size_t *start) {
  const char *scheme_end = strstr(url, "://");
  size_t from = scheme_end != NULL ? (size_t)(scheme_end - url) + 3 : 0;
  *start = from;
  return strcspn(url + from, "/?#");
}

void cli_url_shown(const char *url, char *buf, size_t size) {
  size_t start, len = cli_url_authority(url, &start), at = len;
  /* The user-info ends at the authority's last '@'. */
  while (at > 0 && url[start + at - 1] != '@') at--;
  if (at == 0) {
    snprintf(buf, size, "%s", url);
  } else {
    snprintf(buf, size, "%.*s%s", (int)start, url, url + start + at);
  }
}
