/*
** replay_main.c — a main() for the fuzz targets without libFuzzer: runs
** LLVMFuzzerTestOneInput once on each file named, or on each file in each
** directory named. CTest replays tests/fuzz/corpus/<target>/ with it, so
** every seed and every past finding stays a regression test in the plain
** and sanitizer builds.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  if (f == NULL) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  for (;;) {
    size_t got;
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap ? cap * 2 : 4096);
      if (nb == NULL) break;
      buf = nb;
      cap = cap ? cap * 2 : 4096;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  struct dirent *ent;
  int bad = 0;
  if (d == NULL) {
    fprintf(stderr, "replay: cannot open directory %s\n", dir);
    return 1;
  }
  while ((ent = readdir(d)) != NULL) {
    char path[4096];
    struct stat st;
    if (ent->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    bad |= replay_file(path);
    (*count)++;
  }
  closedir(d);
  return bad;
}

int main(int argc, char **argv) {
  int i, bad = 0, count = 0;
  for (i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      bad |= replay_dir(argv[i], &count);
    } else {
      bad |= replay_file(argv[i]);
      count++;
    }
  }
  printf("replayed %d inputs\n", count);
  return bad;
}
