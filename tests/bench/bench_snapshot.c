/*
** bench_snapshot.c — how long reading a memory snapshot takes and how much
** memory it needs: memest_snapshot_read() on the file named (a trainer's
** snapshot, one from tests/measured/gen_snapshot.py, or a hostile one from
** tests/measured/gen_amplified.py), timed RUNS times (default 3), with the
** reader's work (values stored, children and members looked at) and the
** process's peak RSS beside the file's size. A refused file is timed too:
** its message is printed. Prints the figures; it does not judge them.
**   memest-bench-snapshot FILE [RUNS]
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench_clock.h"
#include "memest.h"
#include "measured/pickle.h"

int main(int argc, char **argv) {
  FILE *f;
  char *buf;
  long size;
  double best = 0;
  int i, runs = 3, refused = 0;
  struct rusage ru;
  memest_error err;
  if (argc < 2 || argc > 3 || (argc == 3 && (runs = atoi(argv[2])) < 1)) {
    fprintf(stderr, "usage: memest-bench-snapshot FILE [RUNS]\n");
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
  for (i = 0; i < runs; i++) {
    memest_snapshot *s = NULL;
    double t0 = bench_now_ms(), t;
    refused = memest_snapshot_read(buf, (size_t)size, &s, &err) != MEMEST_OK;
    t = bench_now_ms() - t0;
    if (i == 0 || t < best) best = t;
    if (i == runs - 1 && !refused) {
      const memest_snapshot_summary *m = memest_snapshot_summary_of(s);
      printf("snapshot %.1f MB, %lld trace entries, %lld blocks: read in %.0f ms (best of %d), "
             "peak %.3f GiB; %lld steps (%.2f a byte)\n",
             (double)size / 1e6, (long long)m->events, (long long)m->blocks, best, runs,
             (double)m->peak_allocated_bytes / (1024.0 * 1024 * 1024),
             (long long)memi_snapshot_steps(s), (double)memi_snapshot_steps(s) / (double)size);
    }
    memest_snapshot_free(s);
  }
  if (refused)
    printf("snapshot %.1f MB: refused in %.0f ms (best of %d): %s\n", (double)size / 1e6, best,
           runs, err.message);
  getrusage(RUSAGE_SELF, &ru);
  printf("peak RSS %.0f MiB (the file itself %.0f MiB)\n", (double)ru.ru_maxrss / 1024.0,
         (double)size / (1024.0 * 1024.0));
  free(buf);
  return 0;
}
