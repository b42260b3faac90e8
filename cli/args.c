/*
** args.c — the one argument parser of memest, memest plan and memest
** compare (flags as --name value or --name=value, value-less booleans,
** --json and the action flags), and the config-file reader they share,
** which reads only regular files within the library's size limit.
*/
#define _POSIX_C_SOURCE 200809L   /* open with O_NONBLOCK, fstat */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "memest.h"

static int is_action(const char *a, const char *const *actions) {
  int i;
  if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return 1;
  for (i = 0; actions != NULL && actions[i] != NULL; i++) {
    if (strcmp(a, actions[i]) == 0) return 1;
  }
  return 0;
}

int cli_fail(const cli_args *a, FILE *err, const memest_error *e) {
  if (a->json && a->out != NULL) {
    char *text = memest_error_json(e);
    if (text != NULL) {
      fputs(text, a->out);
      fputs("\n", a->out);
      memest_free(text);
    }
  } else {
    fprintf(err, "%s: error: %s\n", a->prog, e->message);
    if (e->fix[0]) fprintf(err, "%s: a valid choice: %s\n", a->prog, e->fix);
  }
  return e->code == MEMEST_E_MISSING ? 2 : 1;
}

int cli_fail_text(const cli_args *a, FILE *err, memest_code code, const char *field,
                  const char *fmt, ...) {
  memest_error e;
  va_list ap;
  memset(&e, 0, sizeof e);
  e.code = code;
  snprintf(e.field, sizeof e.field, "%s", field);
  va_start(ap, fmt);
  vsnprintf(e.message, sizeof e.message, fmt, ap);
  va_end(ap);
  return cli_fail(a, err, &e);
}

/* Flags accepted so far, for refusing a repeated one. Every accepted name
** is a known flag, so the table fills only past a repeat: 64 suffice. */
typedef struct seen_flags {
  char name[64][64];
  int n;
} seen_flags;

/* Whether name was given before; records it otherwise. */
static int seen_before(seen_flags *sf, const char *name) {
  int k;
  for (k = 0; k < sf->n; k++) {
    if (strcmp(sf->name[k], name) == 0) return 1;
  }
  if (sf->n < 64) snprintf(sf->name[sf->n++], sizeof sf->name[0], "%s", name);
  return 0;
}

int cli_parse(int argc, char **argv, int first, const char *const *actions, cli_args *a,
              cli_setter set, void *target, FILE *err) {
  int i, rc;
  seen_flags seen;
  seen.n = 0;
  /* --json anywhere makes every error, even one before it, a JSON object. */
  for (i = first; i < argc; i++) a->json |= strcmp(argv[i], "--json") == 0;
  for (i = first; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '='), *value;
    char name[64];
    if (is_action(arg, actions)) {
      a->action = arg;
      return -1;
    }
    if (strcmp(arg, "--json") == 0) continue;
    if (strncmp(arg, "--", 2) != 0) {
      return cli_fail_text(a, err, MEMEST_E_UNKNOWN, "",
                           "unexpected argument '%.200s'; flags start with --, see %s --help", arg,
                           a->prog);
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
        return cli_fail_text(a, err, MEMEST_E_VALUE, "", "%.60s needs a value; see %s --help", arg,
                             a->prog);
      }
      value = argv[++i];
    }
    if (seen_before(&seen, name)) {
      return cli_fail_text(a, err, MEMEST_E_VALUE, "",
                           "%.60s is given twice; give each flag once (a list of values is one "
                           "flag with commas, --pp-size 2,4)",
                           name);
    }
    rc = set(target, name, value);
    if (rc >= 0) return rc;
  }
  return -1;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/* 1234567 as "1,234,567". */
static void grouped(char *buf, size_t size, unsigned long long v) {
  char digits[32];
  int n = snprintf(digits, sizeof digits, "%llu", v), i;
  size_t j = 0;
  for (i = 0; i < n && j + 2 < size; i++) {
    if (i > 0 && (n - i) % 3 == 0) buf[j++] = ',';
    buf[j++] = digits[i];
  }
  buf[j] = '\0';
}

static char *refuse(int fd, char *why, size_t why_size, const char *fmt, const char *a,
                    const char *b) {
  if (fd >= 0) close(fd);
  snprintf(why, why_size, fmt, a, b);
  return NULL;
}

char *cli_read_file(const char *path, size_t *len, char *why, size_t why_size) {
  size_t max = memest_config_max_bytes(), n = 0;
  struct stat st;
  char *buf, size[32], mib[32];
  /* O_NONBLOCK: opening a FIFO without a writer must not wait for one. */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    return refuse(fd, why, why_size,
                  "cannot read config file '%s': %s; give a config.json path or a preset "
                  "(memest --list-models)",
                  path, strerror(errno));
  }
  if (fstat(fd, &st) != 0) {
    return refuse(fd, why, why_size, "cannot read config file '%s': %s", path, strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return refuse(fd, why, why_size,
                  "config file '%s' is %s, not a regular file; give the path of a config.json "
                  "(or save what it holds to one first)",
                  path, file_kind(st.st_mode));
  }
  if ((unsigned long long)st.st_size > (unsigned long long)max) {
    grouped(size, sizeof size, (unsigned long long)st.st_size);
    snprintf(mib, sizeof mib, "%.1f MiB", (double)st.st_size / (1024.0 * 1024.0));
    close(fd);
    snprintf(why, why_size,
             "config file '%s' is %s bytes (%s), over MEMEST_MAX_CONFIG_BYTES = %llu bytes; a "
             "model config.json is a few kilobytes",
             path, size, mib, (unsigned long long)max);
    return NULL;
  }
  /* One byte more than the limit, so a file that grew since fstat is
  ** refused by the library's own limit rather than cut. */
  buf = malloc(max + 2);
  if (buf == NULL) return refuse(fd, why, why_size, "out of memory reading '%s'%s", path, "");
  while (n < max + 1) {
    ssize_t got = read(fd, buf + n, max + 1 - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      free(buf);
      return refuse(fd, why, why_size, "cannot read config file '%s': %s", path, strerror(errno));
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  close(fd);
  buf[n] = '\0';
  *len = n;
  return buf;
}
