/*
** args.c — the one argument parser of memest, memest plan and memest
** compare (flags as --name value or --name=value, value-less booleans,
** --json and the action flags), and the config-file reader they share.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CONFIG_READ_MAX (4 * 1024 * 1024)

static int is_action(const char *a, const char *const *actions) {
  int i;
  if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return 1;
  for (i = 0; actions != NULL && actions[i] != NULL; i++) {
    if (strcmp(a, actions[i]) == 0) return 1;
  }
  return 0;
}

int cli_parse(int argc, char **argv, int first, const char *const *actions, cli_args *a,
              cli_setter set, void *target, FILE *err) {
  int i, rc;
  for (i = first; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '='), *value;
    char name[64];
    if (is_action(arg, actions)) {
      a->action = arg;
      return -1;
    }
    if (strcmp(arg, "--json") == 0) {
      a->json = 1;
      continue;
    }
    if (strncmp(arg, "--", 2) != 0) {
      fprintf(err, "%s: error: unexpected argument '%s'; flags start with --, see %s --help\n",
              a->prog, arg, a->prog);
      return 1;
    }
    if (eq != NULL) {
      snprintf(name, sizeof name, "%.*s", (int)(eq - arg) < 63 ? (int)(eq - arg) : 63, arg);
      value = eq + 1;
    } else if (strcmp(arg, "--detail") == 0 || strcmp(arg, "--timeline") == 0) {
      snprintf(name, sizeof name, "%s", arg);
      value = "true";
    } else {
      snprintf(name, sizeof name, "%s", arg);
      if (i + 1 >= argc) {
        fprintf(err, "%s: error: %s needs a value; see %s --help\n", a->prog, arg, a->prog);
        return 1;
      }
      value = argv[++i];
    }
    rc = set(target, name, value);
    if (rc >= 0) return rc;
  }
  return -1;
}

char *cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  size_t n;
  if (f == NULL) return NULL;
  buf = malloc(CONFIG_READ_MAX + 1);
  if (buf == NULL) {
    fclose(f);
    errno = ENOMEM;
    return NULL;
  }
  n = fread(buf, 1, CONFIG_READ_MAX + 1, f);
  if (ferror(f)) {
    int e = errno ? errno : EIO;
    free(buf);
    fclose(f);
    errno = e;
    return NULL;
  }
  fclose(f);
  buf[n < CONFIG_READ_MAX ? n : CONFIG_READ_MAX] = '\0';
  *len = n;
  return buf;
}
