/*
** bench_snapshot.c — how long reading a memory snapshot takes and how much
** memory it needs: memest_snapshot_read() on the file named (a trainer's
** snapshot, or one from tests/measured/gen_snapshot.py), timed three times,
** with the process's peak RSS beside the file's size. Prints the figures;
** it does not judge them.
**   memest-bench-snapshot FILE
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench_clock.h"
#include "memest.h"

int main(int argc, char **argv) {
  FILE *f;
  char *buf;
  long size;
  double best = 0;
  int i;
  struct rusage ru;
  if (argc != 2) {
    fprintf(stderr, "usage: memest-bench-snapshot FILE\n");
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "bench: cannot read %s\n", argv[1]);
    return 1;
  }
  buf = malloc((size_t)size + 1);
  if (buf == NULL || fread(buf, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "bench: cannot read %s\n", argv[1]);
    return 1;
  }
  fclose(f);
  for (i = 0; i < 3; i++) {
    memest_snapshot *s = NULL;
    memest_error err;
    double t0 = bench_now_ms(), t;
    if (memest_snapshot_read(buf, (size_t)size, &s, &err) != MEMEST_OK) {
      fprintf(stderr, "bench: %s\n", err.message);
      return 1;
    }
    t = bench_now_ms() - t0;
    if (i == 0 || t < best) best = t;
    if (i == 2)
      printf("snapshot %.1f MB, %lld trace entries: read in %.0f ms (best of 3), peak %.3f GiB\n",
             (double)size / 1e6, (long long)memest_snapshot_summary_of(s)->events, best,
             (double)memest_snapshot_summary_of(s)->peak_allocated_bytes / (1024.0 * 1024 * 1024));
    memest_snapshot_free(s);
  }
  getrusage(RUSAGE_SELF, &ru);
  printf("peak RSS %.0f MiB (the file itself %.0f MiB)\n", (double)ru.ru_maxrss / 1024.0,
         (double)size / (1024.0 * 1024.0));
  free(buf);
  return 0;
}
