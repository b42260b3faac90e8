/*
** fuzz_config.c — libFuzzer target: any bytes as a model config.json,
** estimated and validated with three fixed valid parameter sets (a small
** run, one with every option on, one at extreme sizes). Seeds:
** tests/fuzz/corpus/config/.
*/
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  memest_params small, wide, huge;
  /* A private copy with no terminator after it, so that a read past
  ** `size` is a finding. */
  char *config = malloc(size ? size : 1);
  if (config == NULL) return 0;
  if (size) memcpy(config, data, size);
  fuzz_params_small(&small);
  fuzz_params_wide(&wide);
  fuzz_params_huge(&huge);
  fuzz_run(config, size, &small);
  fuzz_run(config, size, &wide);
  fuzz_run(config, size, &huge);
  free(config);
  return 0;
}
