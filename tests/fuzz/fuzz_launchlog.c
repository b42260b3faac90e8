/*
** fuzz_launchlog.c — libFuzzer target: any bytes as the trainer's log read
** for its launch line (memest_launch_log_read: the repr reader), and the
** steps after the last one read by the log reader
** (memest_runlog_read_from). Seeds: tests/fuzz/corpus/launchlog/, the logs
** of tests/trainer/gen_trainer_files.py. docs/fuzzing.md lists the targets.
*/
#include <stdint.h>

#include "fuzz_trainer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  memest_trainer_run *run = NULL;
  memest_runlog *log = NULL;
  memest_error e;
  memest_code rc = memest_launch_log_read(text, size, "fuzz.log", &run, &e);
  size_t offset;
  int64_t line;
  if (rc != MEMEST_OK) {
    fuzz_read_failed(rc, run, &e);
    return 0;
  }
  FUZZ_REQUIRE(run != NULL && memest_trainer_run_kind(run) == MEMEST_SOURCE_LOG);
  memest_trainer_run_steps(run, &offset, &line);
  FUZZ_REQUIRE(offset <= size && line >= 2);
  rc = memest_runlog_read_from(text + offset, size - offset, line, &log, &e);
  FUZZ_REQUIRE(rc == MEMEST_OK || (e.code == rc && e.message[0] != '\0'));
  if (rc == MEMEST_OK) FUZZ_REQUIRE(memest_runlog_summary_of(log)->steps >= 1);
  memest_runlog_free(log);
  fuzz_check_run(run);
  memest_trainer_run_free(run);
  return 0;
}
