/*
** fuzz_snapshot.c — libFuzzer target: any bytes as a memory snapshot
** pickle (the restricted unpickler and the allocated-bytes rebuild); the
** log reader is fuzz_runlog.c's. Seeds: tests/fuzz/corpus/snapshot/ (small
** snapshots written by tests/measured/gen_snapshot.py with CPython's
** pickle, hostile pickles, and tests/measured/gen_amplified.py's shapes of
** shared objects). docs/fuzzing.md lists the targets.
*/
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_snapshot(const uint8_t *bytes, size_t size) {
  memest_snapshot *s = NULL;
  memest_error e;
  memest_code rc = memest_snapshot_read(bytes, size, &s, &e);
  const memest_snapshot_summary *m;
  int64_t t[64];
  uint64_t b[64], top = 0;
  int n, i;
  if (rc != MEMEST_OK) {
    FUZZ_REQUIRE(s == NULL);
    FUZZ_REQUIRE(e.code == rc && e.message[0] != '\0');
    FUZZ_REQUIRE(rc == MEMEST_E_VALUE || rc == MEMEST_E_UNSUPPORTED || rc == MEMEST_E_LIMIT ||
                 rc == MEMEST_E_NOMEM || rc == MEMEST_E_OVERFLOW);
    return;
  }
  FUZZ_REQUIRE(s != NULL);
  m = memest_snapshot_summary_of(s);
  /* The peak is the largest state of the window: at least its start and its
  ** end (unless the trace does not match the blocks), and the reduced curve
  ** reaches it. */
  if (m->inconsistent == 0) {
    FUZZ_REQUIRE(m->peak_allocated_bytes >= m->start_allocated_bytes);
    FUZZ_REQUIRE(m->peak_allocated_bytes >= m->end_allocated_bytes);
  }
  n = memest_snapshot_curve(s, 64, t, b);
  FUZZ_REQUIRE(n >= 1 && n <= 64);
  for (i = 0; i < n; i++)
    if (b[i] > top) top = b[i];
  if (m->events > 0) FUZZ_REQUIRE(top == m->peak_allocated_bytes);
  FUZZ_REQUIRE(m->fragmentation >= 0.0);
  for (i = 1; i < memest_snapshot_top_count(s); i++)
    FUZZ_REQUIRE(memest_snapshot_top(s, i)->bytes <= memest_snapshot_top(s, i - 1)->bytes);
  fuzz_require_json(memest_snapshot_json(s, 16));
  memest_snapshot_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A private copy with nothing after it, so that a read past `size` is a
  ** finding. */
  uint8_t *copy = malloc(size ? size : 1);
  if (copy == NULL) return 0;
  if (size) memcpy(copy, data, size);
  check_snapshot(copy, size);
  free(copy);
  return 0;
}
