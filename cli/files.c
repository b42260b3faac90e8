/*
** files.c — the one way the command opens a file it reads: a config, a
** snapshot, a log. The file is opened without blocking (a FIFO with no
** writer must not wait for one), fstat'ed before any byte is read, refused
** unless it is a regular file within its reader's limit (the table in
** core/base/input_files.c), and read whole. And which --model names a file
** (a preset's name is the preset, with a warning when a file or a folder
** of that name is in the current folder).
*/
#define _POSIX_C_SOURCE 200809L   /* open with O_NONBLOCK, fstat */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "memest.h"

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

/* The refusal of a file of `bytes` over the kind's limit. */
static void too_large(char *why, size_t why_size, const char *path,
                      const memest_input_file_info *k, unsigned long long bytes, const char *how) {
  char size[32];
  grouped(size, sizeof size, bytes);
  snprintf(why, why_size, "%s '%s' %s %s bytes (%.1f MiB), over %s = %llu bytes; %s", k->noun, path,
           how, size, (double)bytes / (1024.0 * 1024.0), k->limit_name,
           (unsigned long long)k->max_bytes, k->typical);
}

/* The refusal of a path that is not a regular file. */
static void not_regular(char *why, size_t why_size, const char *path,
                        const memest_input_file_info *k, mode_t mode) {
  snprintf(why, why_size, "%s '%s' is %s, not a regular file; give the path of the file itself "
           "(or save what it holds to one first)",
           k->noun, path, file_kind(mode));
}

static char *refuse(int fd, char *buf) {
  if (fd >= 0) close(fd);
  free(buf);
  return NULL;
}

char *cli_read_file(const char *path, memest_input_file kind, size_t *len, char *why,
                    size_t why_size) {
  const memest_input_file_info *k = memest_input_file_describe(kind);
  size_t n = 0, cap;
  struct stat st;
  char *buf = NULL;
  /* O_NONBLOCK: opening a FIFO without a writer must not wait for one. */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    int failed = errno;
    /* A socket cannot be opened at all (ENXIO): say what it is. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
      not_regular(why, why_size, path, k, st.st_mode);
      return NULL;
    }
    snprintf(why, why_size, "cannot read %s '%s': %s; %s", k->noun, path, strerror(failed), k->give);
    return NULL;
  }
  if (fstat(fd, &st) != 0) {
    snprintf(why, why_size, "cannot read %s '%s': %s", k->noun, path, strerror(errno));
    return refuse(fd, NULL);
  }
  if (!S_ISREG(st.st_mode)) {
    not_regular(why, why_size, path, k, st.st_mode);
    return refuse(fd, NULL);
  }
  if (st.st_size < 0 || (unsigned long long)st.st_size > (unsigned long long)k->max_bytes) {
    too_large(why, why_size, path, k, (unsigned long long)st.st_size, "is");
    return refuse(fd, NULL);
  }
  /* Room for the size fstat gave and one byte more, so that a file that
  ** grew since is seen to grow; files whose size the system does not know
  ** (those of /proc say 0) grow the buffer as they are read. */
  cap = (size_t)st.st_size + 1;
  for (;;) {
    ssize_t got;
    if (n == cap) {
      size_t more = cap < k->max_bytes / 2 ? cap * 2 : k->max_bytes + 1;
      char *nb;
      if (cap > k->max_bytes) {
        too_large(why, why_size, path, k, (unsigned long long)n, "grew while it was read to over");
        return refuse(fd, buf);
      }
      nb = realloc(buf, more + 1);
      if (nb == NULL) break;
      buf = nb;
      cap = more;
    } else if (buf == NULL) {
      buf = malloc(cap + 1);
      if (buf == NULL) break;
    }
    got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      snprintf(why, why_size, "cannot read %s '%s': %s", k->noun, path, strerror(errno));
      return refuse(fd, buf);
    }
    if (got == 0) {
      close(fd);
      buf[n] = '\0';
      *len = n;
      return buf;
    }
    n += (size_t)got;
  }
  snprintf(why, why_size, "out of memory reading %s '%s'", k->noun, path);
  return refuse(fd, buf);
}

int cli_folder_config(const char *path, char *out, size_t size) {
  struct stat st;
  int n;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  n = snprintf(out, size, "%s/config.json", path);
  return n < 0 || (size_t)n >= size ? -1 : 1;
}

int cli_model_is_file(const char *model, const char *prog, FILE *err) {
  struct stat st;
  if (memest_model_preset_config(model) == NULL || strchr(model, '/') != NULL) return 1;
  /* A bare preset name is the preset; one that also names a file or a
  ** folder here is said to be the preset, with the way to the other. */
  if (stat(model, &st) == 0) {
    int dir = S_ISDIR(st.st_mode);
    fprintf(err, "%s: warning: --model %s reads the preset %s, not the %s './%s' in this "
            "folder; give --model ./%s%s to read %s\n",
            prog, model, model, dir ? "folder" : "file", model, model, dir ? "/config.json" : "",
            dir ? "the config in it" : "the file");
  }
  return 0;
}
