/*
** fuzz_script.c — libFuzzer target: any bytes as a launch script and the
** module it imports (memest_script_read: the Python tokenizer and the
** statement reader). The bytes up to the first NUL are the script; the
** rest, when there is a NUL, is what every import finds (so a script
** may import itself, circularly or through dotted names). The first byte
** chooses the script's path: a benchmark folder (h100-2n8g) or none.
** Seeds: tests/fuzz/corpus/script/. docs/fuzzing.md lists the targets.
*/
#include <stdint.h>

#include "fuzz_trainer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct module_text {
  const char *text;
  size_t len;
} module_text;

static int find(void *ctx, const char *name, const char **text, size_t *len, const char **label,
                memest_error *err) {
  const module_text *m = ctx;
  (void)name;
  if (m->text == NULL) {
    snprintf(err->message, sizeof err->message, "no module");
    return 0;
  }
  *text = m->text;
  *len = m->len;
  *label = "bench/setup.py";
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const labels[] = {"bench/h100-2n8g/pp2-dp1-cp1-ep8-seq2048-bf16.py", "script.py",
                                       "/abs/a100-40-1n4g/run.py", ""};
  const char *text = (const char *)data, *nul = memchr(data, 0, size);
  module_text m = {NULL, 0};
  memest_trainer_run *run = NULL;
  memest_error e;
  memest_code rc;
  size_t len = size;
  if (nul != NULL) {
    len = (size_t)(nul - text);
    m.text = nul + 1;
    m.len = size - len - 1;
  }
  rc = memest_script_read(text, len, labels[size ? data[0] % 4 : 0], find, &m, &run, &e);
  if (rc != MEMEST_OK) {
    fuzz_read_failed(rc, run, &e);
    return 0;
  }
  FUZZ_REQUIRE(run != NULL && memest_trainer_run_kind(run) == MEMEST_SOURCE_SCRIPT);
  fuzz_check_run(run);
  memest_trainer_run_free(run);
  return 0;
}
