/*
** hub_cache.c — a model's config in a cache laid out as the Hugging Face
** hub lays out its own: <root>/models--org--name/refs/main holds the
** revision, snapshots/<revision>/config.json the file. Both the hub's cache
** (only read) and memest's (read, and written when a config is downloaded)
** are read the same way. A write goes to a temporary file that is flushed
** and renamed over the old one, the snapshot before the ref that names it,
** so that a reader never sees half a file or a ref without its snapshot.
*/
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fsync, open with O_NONBLOCK */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hub.h"

/* a + "/" + b into buf; 0, or -1 when it does not fit. */
static int path_join(char *buf, size_t size, const char *a, const char *b) {
  int n = snprintf(buf, size, "%s/%s", a, b);
  return n >= 0 && (size_t)n < size ? 0 : -1;
}

static int too_long(const char *what, char *why, size_t why_size) {
  snprintf(why, why_size, "the path of %s would be over %d characters; set XDG_CACHE_HOME or "
           "HF_HUB_CACHE to a shorter folder", what, CLI_HUB_PATH_MAX - 1);
  return -1;
}

/* Whether path is absent: 1 when stat says it does not exist (or a part of
** it is not a folder), 0 when it exists or cannot be looked at. */
static int absent(const char *path) {
  struct stat st;
  return stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* The revision refs/main names, read into rev: the file opened without
** blocking (a FIFO), refused unless it is a regular file holding one
** revision and at most a line break after it. 0, or -1 with what is wrong
** with it in `what`. */
static int read_ref(const char *refs, char *rev, char *what, size_t what_size) {
  char buf[CLI_HUB_REV_MAX + 8];
  size_t n = 0;
  struct stat st;
  int fd = open(refs, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    snprintf(what, what_size, "cannot be read: %s", strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(what, what_size, "is not a regular file");
    close(fd);
    return -1;
  }
  while (n < sizeof buf) {
    ssize_t got = read(fd, buf + n, sizeof buf - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      snprintf(what, what_size, "cannot be read: %s", strerror(errno));
      close(fd);
      return -1;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  close(fd);
  /* The hub writes the commit alone; a line break after it is tolerated. */
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ')) n--;
  if (n == 0 || n > CLI_HUB_REV_MAX || memchr(buf, '\0', n) != NULL) {
    snprintf(what, what_size, "does not hold a revision (40 hexadecimal digits)");
    return -1;
  }
  memcpy(rev, buf, n);
  rev[n] = '\0';
  if (!cli_hub_revision_ok(rev)) {
    snprintf(what, what_size, "does not hold a revision (40 hexadecimal digits)");
    return -1;
  }
  return 0;
}

int cli_cache_lookup(const char *root, const char *id, cli_cached *found, char *why,
                     size_t why_size) {
  char name[CLI_HUB_ID_MAX + 16], refs[CLI_HUB_PATH_MAX], snap[CLI_HUB_PATH_MAX], what[160];
  memset(found, 0, sizeof *found);
  if (root[0] == '\0') return 0;
  cli_hub_folder_name(id, name, sizeof name);
  if (path_join(found->folder, sizeof found->folder, root, name) != 0 ||
      path_join(refs, sizeof refs, found->folder, "refs/main") != 0) {
    return too_long(id, why, why_size);
  }
  if (absent(refs)) return 0;
  if (read_ref(refs, found->revision, what, sizeof what) != 0) {
    found->revision[0] = '\0';
    snprintf(why, why_size, "cannot look up model '%s': its cache's ref '%s' (the file that names "
             "the revision of the snapshot to read) %s; delete the folder %s and download the "
             "model again", id, refs, what, found->folder);
    return -1;
  }
  if (path_join(snap, sizeof snap, found->folder, "snapshots") != 0 ||
      path_join(found->path, sizeof found->path, snap, found->revision) != 0 ||
      path_join(snap, sizeof snap, found->path, "config.json") != 0) {
    return too_long(id, why, why_size);
  }
  memcpy(found->path, snap, sizeof snap);
  if (absent(found->path)) {
    found->path[0] = '\0';
    return 0;
  }
  return 1;
}

/* mkdir -p: each folder of path made (0700) where missing. */
static int make_folders(const char *path, char *why, size_t why_size) {
  char buf[CLI_HUB_PATH_MAX];
  size_t i, n = strlen(path);
  struct stat st;
  memcpy(buf, path, n + 1);
  for (i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    buf[i] = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
      snprintf(why, why_size, "cannot make the folder '%s': %s; set XDG_CACHE_HOME to a folder "
               "you can write", buf, strerror(errno));
      return -1;
    }
    buf[i] = path[i];
  }
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_size, "'%s' is not a folder; remove it or set XDG_CACHE_HOME elsewhere",
             path);
    return -1;
  }
  return 0;
}

/* Writes text into folder/name through a temporary file in the same folder,
** flushed, then renamed over name. */
static int write_atomically(const char *folder, const char *name, const char *text, size_t len,
                            char *why, size_t why_size) {
  char tmp[CLI_HUB_PATH_MAX], dest[CLI_HUB_PATH_MAX];
  size_t done = 0;
  int fd;
  if (path_join(dest, sizeof dest, folder, name) != 0 ||
      snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", folder, name) >= (int)sizeof tmp) {
    return too_long(name, why, why_size);
  }
  fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(why, why_size, "cannot write in '%s': %s; set XDG_CACHE_HOME to a folder you can "
             "write", folder, strerror(errno));
    return -1;
  }
  while (done < len) {
    ssize_t w = write(fd, text + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  if (done < len || fsync(fd) != 0) {
    int e = errno;
    close(fd);
    unlink(tmp);
    snprintf(why, why_size, "cannot write '%s': %s", tmp, strerror(e));
    return -1;
  }
  if (close(fd) != 0 || rename(tmp, dest) != 0) {
    int e = errno;
    unlink(tmp);
    snprintf(why, why_size, "cannot write '%s': %s", dest, strerror(e));
    return -1;
  }
  return 0;
}

int cli_cache_store(const char *root, const char *id, const char *revision, const char *text,
                    size_t len, cli_cached *kept, char *why, size_t why_size) {
  char name[CLI_HUB_ID_MAX + 16], snaps[CLI_HUB_PATH_MAX], snap[CLI_HUB_PATH_MAX],
      refs[CLI_HUB_PATH_MAX];
  memset(kept, 0, sizeof *kept);
  if (root[0] == '\0') {
    snprintf(why, why_size, "there is no folder to keep it in (neither XDG_CACHE_HOME nor HOME is "
             "set); set XDG_CACHE_HOME");
    return -1;
  }
  if (!cli_hub_revision_ok(revision)) {
    snprintf(why, why_size, "the revision is not one the cache can name");
    return -1;
  }
  cli_hub_folder_name(id, name, sizeof name);
  if (path_join(kept->folder, sizeof kept->folder, root, name) != 0 ||
      path_join(refs, sizeof refs, kept->folder, "refs") != 0 ||
      path_join(snaps, sizeof snaps, kept->folder, "snapshots") != 0 ||
      path_join(snap, sizeof snap, snaps, revision) != 0 ||
      path_join(kept->path, sizeof kept->path, snap, "config.json") != 0) {
    return too_long(id, why, why_size);
  }
  if (make_folders(snap, why, why_size) != 0 || make_folders(refs, why, why_size) != 0 ||
      write_atomically(snap, "config.json", text, len, why, why_size) != 0 ||
      write_atomically(refs, "main", revision, strlen(revision), why, why_size) != 0) {
    kept->path[0] = '\0';
    return -1;
  }
  snprintf(kept->revision, sizeof kept->revision, "%s", revision);
  return 0;
}
