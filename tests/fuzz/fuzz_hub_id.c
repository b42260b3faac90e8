/*
** fuzz_hub_id.c — libFuzzer target: the check of a hub model id
** (core/model/model_id.c, the CLI's and the page's) and the CLI's of a cache's
** revision (cli/hub_id.c), which stand between a --model
** value, a refs/main file or a server's header and every path and URL the
** CLI builds. Whatever is accepted must make no path of its own: one '/'
** in an id and none in a revision, no "..", only the hub's characters, the
** hub's length; the folder name an id gives has no '/'. A refusal says
** why. Seeds: corpus/hub_id/.
*/
#include <stdint.h>

#include "fuzz_common.h"
#include "hub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Only letters, digits, '-', '_', '.' (and '/' where allowed). */
static int hub_chars(const char *s, int slash) {
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_' || c == '.' || (slash && c == '/'))) {
      return 0;
    }
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1), why[160], folder[CLI_HUB_ID_MAX + 16];
  if (s == NULL) return 0;
  memcpy(s, data, size);
  s[size] = '\0';   /* an embedded NUL ends the value, as in argv */
  why[0] = '\0';
  if (memest_hub_id_check(s, why, sizeof why)) {
    const char *slash = strchr(s, '/');
    FUZZ_REQUIRE(slash != NULL && slash != s && slash[1] != '\0' && strchr(slash + 1, '/') == NULL);
    FUZZ_REQUIRE(strlen(s) <= CLI_HUB_ID_MAX && strstr(s, "..") == NULL && hub_chars(s, 1));
    FUZZ_REQUIRE(s[0] != '.' && slash[1] != '.');
    cli_hub_folder_name(s, folder, sizeof folder);
    FUZZ_REQUIRE(strncmp(folder, "models--", 8) == 0 && strchr(folder, '/') == NULL);
  } else {
    FUZZ_REQUIRE(why[0] != '\0');
  }
  if (cli_hub_revision_ok(s)) {
    FUZZ_REQUIRE(strlen(s) <= CLI_HUB_REV_MAX && strchr(s, '/') == NULL && strstr(s, "..") == NULL);
    FUZZ_REQUIRE(hub_chars(s, 0) && strcmp(s, ".") != 0);
  }
  free(s);
  return 0;
}
