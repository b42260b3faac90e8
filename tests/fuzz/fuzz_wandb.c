/*
** fuzz_wandb.c — libFuzzer target: any bytes as a W&B run's files
** (memest_wandb_read: libyaml's parser under the config walk, cJSON under
** the metadata and summary). NUL bytes split the input into config.yaml,
** wandb-metadata.json and wandb-summary.json; a part that is missing is a
** missing file, an empty part an empty file. Seeds:
** tests/fuzz/corpus/wandb/. docs/fuzzing.md lists the targets.
*/
#include <stdint.h>

#include "fuzz_trainer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *part[3] = {NULL, NULL, NULL}, *p = (const char *)data, *end = p + size;
  size_t len[3] = {0, 0, 0};
  memest_wandb_files f;
  memest_trainer_run *run = NULL;
  memest_error e;
  memest_code rc;
  int k;
  for (k = 0; k < 3 && p <= end && size > 0; k++) {
    const char *nul = memchr(p, 0, (size_t)(end - p));
    part[k] = p;
    len[k] = nul ? (size_t)(nul - p) : (size_t)(end - p);
    if (nul == NULL) break;
    p = nul + 1;
  }
  memset(&f, 0, sizeof f);
  f.dir = "run";
  f.config_yaml = part[0];
  f.config_len = len[0];
  f.metadata_json = part[1];
  f.metadata_len = len[1];
  f.summary_json = part[2];
  f.summary_len = len[2];
  rc = memest_wandb_read(&f, &run, &e);
  if (rc != MEMEST_OK) {
    fuzz_read_failed(rc, run, &e);
    return 0;
  }
  FUZZ_REQUIRE(run != NULL && memest_trainer_run_kind(run) == MEMEST_SOURCE_WANDB);
  fuzz_check_run(run);
  memest_trainer_run_free(run);
  return 0;
}
