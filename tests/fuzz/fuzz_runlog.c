/*
** fuzz_runlog.c — libFuzzer target: any bytes as the trainer's log
** (memest_runlog_read). Seeds: tests/fuzz/corpus/runlog/ (the trainer's
** lines with LF, CRLF and CR ends, colour codes, readings that are no
** measurements, restarts, a launch line, W&B's summary lines).
** docs/fuzzing.md lists the targets.
*/
#include <math.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The figures a log read gives, to compare two reads. */
typedef struct log_reading {
  memest_code rc;
  memest_runlog_summary sum;
  int64_t note_lines[64];
  int notes;
} log_reading;

static void read_log(const char *text, size_t size, log_reading *out) {
  memest_runlog *log = NULL;
  memest_error e;
  const memest_runlog_summary *m;
  int64_t i, lines = 1, prev = 0, refused = 0, restarts = 0;
  double gib, top = 0;
  memset(out, 0, sizeof *out);
  out->rc = memest_runlog_read(text, size, &log, &e);
  if (out->rc != MEMEST_OK) {
    FUZZ_REQUIRE(log == NULL && e.message[0] != '\0');
    FUZZ_REQUIRE(out->rc == MEMEST_E_VALUE || out->rc == MEMEST_E_LIMIT || out->rc == MEMEST_E_NOMEM);
    return;
  }
  m = memest_runlog_summary_of(log);
  out->sum = *m;
  /* Every figure compared is a measurement: positive, finite, at most 1 PiB. */
  FUZZ_REQUIRE(m->steps >= 1);
  for (i = 0; i < m->steps; i++) {
    FUZZ_REQUIRE(memest_runlog_step(log, i, &gib) >= 1 || m->numbered == 0);
    FUZZ_REQUIRE(gib > 0 && gib <= 1048576.0);
    if (gib > top) top = gib;
  }
  FUZZ_REQUIRE(m->max_gib == top);
  FUZZ_REQUIRE(m->steady_gib > 0 && m->steady_gib <= m->max_gib);
  FUZZ_REQUIRE(m->compared_bytes == (uint64_t)llround(m->steady_gib * 1073741824.0));
  /* Notes are lines of the text, in order, no more than counted. */
  for (i = 0; i < (int64_t)size; i++)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == (int64_t)size || text[i + 1] != '\n'))) lines++;
  out->notes = memest_runlog_note_count(log);
  FUZZ_REQUIRE(out->notes >= 0 && out->notes <= 2 * MEMEST_RUNLOG_NOTES);
  for (i = 0; i < out->notes; i++) {
    const memest_runlog_note *n = memest_runlog_note_at(log, (int)i);
    FUZZ_REQUIRE(n != NULL && n->line > prev && n->line <= lines);
    if (n->restart) {
      restarts++;
      FUZZ_REQUIRE(n->step <= n->after);
    } else {
      refused++;
      FUZZ_REQUIRE(n->why != NULL && strlen(n->value) < sizeof n->value);
    }
    out->note_lines[i] = prev = n->line;
  }
  FUZZ_REQUIRE(m->refused >= refused && m->restarts >= restarts);
  fuzz_require_json(memest_runlog_json(log));
  memest_runlog_free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A private copy with nothing after it, so that a read past `size` is a
  ** finding; and the same text with every line end written as LF, which
  ** must read the same (CRLF and a lone CR each end one line). */
  char *copy = malloc(size ? size : 1), *lf = malloc(size ? size : 1);
  size_t i, n = 0;
  log_reading a, b;
  if (copy == NULL || lf == NULL) {
    free(copy);
    free(lf);
    return 0;
  }
  if (size) memcpy(copy, data, size);
  for (i = 0; i < size; i++) {
    if (copy[i] == '\r' && i + 1 < size && copy[i + 1] == '\n') i++;
    lf[n++] = copy[i] == '\r' ? '\n' : copy[i];
  }
  read_log(copy, size, &a);
  read_log(lf, n, &b);
  FUZZ_REQUIRE(a.rc == b.rc);
  if (a.rc == MEMEST_OK) {
    FUZZ_REQUIRE(a.sum.steps == b.sum.steps && a.sum.refused == b.sum.refused &&
                 a.sum.restarts == b.sum.restarts && a.sum.steady_gib == b.sum.steady_gib &&
                 a.sum.max_gib == b.sum.max_gib && a.sum.first_step == b.sum.first_step &&
                 a.notes == b.notes);
    for (i = 0; i < (size_t)a.notes; i++) FUZZ_REQUIRE(a.note_lines[i] == b.note_lines[i]);
  }
  free(copy);
  free(lf);
  return 0;
}
