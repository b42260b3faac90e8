/*
** fuzz_params.c — libFuzzer target: a full estimate of a valid config with
** fuzzed parameters and options, each pair through memest_params_set; the
** result is estimated, validated and written as JSON and text. Seeds:
** tests/fuzz/corpus/params/. docs/fuzzing.md lists the targets.
*/
#include <stdint.h>

#include "fuzz_common.h"
#include "fuzz_configs.h"

/* The input:
**   byte 0: bit 4 starts from a valid small run, bit 5 from a valid wide
**           run (else from nothing); bit 6 estimates a small config of
**           fuzz_configs.h, else a preset (the model parameter names it, or,
**           from a valid run, bits 0-3 pick it); bits 0-3 pick the config
**   then records, each a selector byte and a value up to the next '\n':
**     selector < 0xF0: parameter (selector & 0x7F) % count, by its
**                      snake_case name when bit 7 is clear, else its flag
**     selector >= 0xF0: the name is the text up to the first '=' in the
**                      value, the value the text after it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void apply(memest_params *p, int selector, char *value) {
  memest_error e;
  memest_code rc;
  const char *name;
  if (selector >= 0xF0) {
    if (!fuzz_split_pair(value, &name, &value)) return;
  } else {
    memest_param_id id = (memest_param_id)((selector & 0x7F) % MEMEST_P_COUNT);
    const memest_param_info *pi = memest_param_describe(id);
    FUZZ_REQUIRE(pi != NULL);
    name = (selector & 0x80) ? pi->flag : pi->name;
  }
  rc = memest_params_set(p, name, value, &e);
  if (rc != MEMEST_OK) fuzz_check_error(rc, &e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  memest_params p;
  char value[FUZZ_TEXT_MAX], cmd[64];
  const char *config = NULL;
  size_t at = 1;
  int head, records = 0;
  if (size == 0) return 0;
  head = data[0];
  if (head & 0x20) fuzz_params_wide(&p);
  else if (head & 0x10) fuzz_params_small(&p);
  else memest_params_init(&p);
  if (head & 0x40) {
    config = fuzz_small_configs[(head & 0x0F) % FUZZ_SMALL_CONFIGS];
  } else if (head & 0x30) {
    int n = memest_model_preset_count();
    FUZZ_REQUIRE(n > 0);
    fuzz_set(&p, "model", memest_model_preset_name((head & 0x0F) % n));
  }
  while (at < size && records < 64) {
    int selector = data[at++];
    at += fuzz_take_value(data + at, size - at, value);
    apply(&p, selector, value);
    records++;
  }
  fuzz_run(config, config != NULL ? strlen(config) : 0, &p);
  FUZZ_REQUIRE(memest_params_command(&p, cmd, sizeof cmd) >= strlen(cmd));
  return 0;
}
