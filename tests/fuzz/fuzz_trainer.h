/*
** fuzz_trainer.h — what the fuzz targets of the trainer-file readers
** (fuzz_script.c, fuzz_launchlog.c, fuzz_wandb.c) check of every run a
** reader returns: its source JSON parses, its text exists, applying it to
** parameters either succeeds or names its problem, and its source attached
** to an estimate keeps that estimate's JSON valid.
*/
#ifndef MEMEST_FUZZ_TRAINER_H
#define MEMEST_FUZZ_TRAINER_H

#include "fuzz_common.h"
#include "fuzz_configs.h"

/* A failed read names its error; NULL run. */
static inline void fuzz_read_failed(memest_code rc, const memest_trainer_run *run, const memest_error *e) {
  FUZZ_REQUIRE(run == NULL);
  FUZZ_REQUIRE(e->code == rc && e->message[0] != '\0');
  FUZZ_REQUIRE(rc == MEMEST_E_VALUE || rc == MEMEST_E_LIMIT || rc == MEMEST_E_MISSING ||
               rc == MEMEST_E_IO || rc == MEMEST_E_NOMEM);
}

static inline void fuzz_json_parses(char *json) {
  cJSON *doc;
  FUZZ_REQUIRE(json != NULL);
  doc = cJSON_Parse(json);
  FUZZ_REQUIRE(doc != NULL);
  cJSON_Delete(doc);
  memest_free(json);
}

static inline void fuzz_check_run(memest_trainer_run *run) {
  memest_params p;
  memest_error e;
  memest_result *r = NULL;
  memest_code rc;
  char *text;
  fuzz_json_parses(memest_trainer_run_json(run));
  text = memest_trainer_run_text(run);
  FUZZ_REQUIRE(text != NULL);
  memest_free(text);
  memest_params_init(&p);
  rc = memest_trainer_run_apply(run, &p, &e);
  FUZZ_REQUIRE(rc == MEMEST_OK || (e.code == rc && e.message[0] != '\0'));
  /* The source beside a fixed small estimate: the result's JSON stays valid. */
  fuzz_params_small(&p);
  FUZZ_REQUIRE(memest_estimate(fuzz_small_configs[0], strlen(fuzz_small_configs[0]), &p, &r, &e) == MEMEST_OK);
  FUZZ_REQUIRE(memest_result_set_source(r, run, &e) == MEMEST_OK);
  fuzz_json_parses(memest_result_json(r));
  text = memest_result_text(r);
  FUZZ_REQUIRE(text != NULL);
  memest_free(text);
  memest_result_free(r);
}

#endif /* MEMEST_FUZZ_TRAINER_H */
