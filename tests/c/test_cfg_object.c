/*
** test_cfg_object.c — a live config object read field by field
** (memest_cfg_run_*): each value kind through the field table into the
** inputs, the refusals (a text too long or with a NUL, a value of the wrong
** kind, a section that is no config object), unset fields, the defaults,
** the source object, the copy of a run, the exported field table, and the
** command run as a function (memest_command) with such a run.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "memest_command.h"

static memest_value int_value(int64_t i) {
  memest_value v = {MEMEST_VALUE_INT, i, 0, NULL, 0, NULL};
  return v;
}

static memest_value text_value(memest_value_kind kind, const char *text) {
  memest_value v = {kind, 0, 0, text, strlen(text), NULL};
  return v;
}

/* A Qwen3-30B-A3B run on 16 H100s as a PretrainLMCfg would hold it. */
static memest_trainer_run *tiny_run(void) {
  memest_trainer_run *run = memest_cfg_run_new("launch.py", 42);
  memest_value v;
  CHECK(run != NULL);
  v = int_value(2);
  memest_cfg_run_field(run, "distributed", "pipeline_parallel_size", &v);
  v = int_value(8);
  memest_cfg_run_field(run, "distributed", "expert_parallel_size", &v);
  v = text_value(MEMEST_VALUE_STR, "hsdp");
  memest_cfg_run_field(run, "distributed", "sharding_strategy", &v);
  v = int_value(4096);
  memest_cfg_run_field(run, "training", "sequence_length", &v);
  v = int_value(1);
  memest_cfg_run_field(run, "training", "micro_batch_size", &v);
  v = int_value(512);
  memest_cfg_run_field(run, "training", "global_batch_size", &v);
  v = text_value(MEMEST_VALUE_PARTIAL, "make_muon_optimizer");
  v.args = "weight_decay=0.1";
  memest_cfg_run_field(run, "training", "optimizer", &v);
  v = text_value(MEMEST_VALUE_STR, "Qwen/Qwen3-30B-A3B");
  memest_cfg_run_field(run, "training", "model", &v);
  v.kind = MEMEST_VALUE_BOOL;
  v.i = 1;
  memest_cfg_run_field(run, "training", "benchmark", &v);
  v = text_value(MEMEST_VALUE_OBJECT, "LoggingWandbCfg");
  memest_cfg_run_field(run, "logging", "wandb", &v);
  v.kind = MEMEST_VALUE_UNSET;
  memest_cfg_run_field(run, "training", "max_steps", &v);
  memest_cfg_run_finish(run, 0);
  return run;
}

static void test_inputs(void) {
  memest_trainer_run *run = tiny_run();
  memest_params p;
  memest_error e;
  char *json;
  memest_params_init(&p);
  memest_params_set(&p, "total_gpus", "16", &e);
  memest_params_set(&p, "gpu", "h100", &e);
  CHECK_I64(memest_trainer_run_apply(run, &p, &e), MEMEST_OK);
  CHECK_I64(p.pp_size, 2);
  CHECK_I64(p.ep_size, 8);
  CHECK_I64(p.cp_size, 1);   /* DistributedCfg's default */
  CHECK_I64(p.sequence_length, 4096);
  CHECK_I64(p.global_batch_size, 512);
  CHECK_I64(p.optimizer, MEMEST_MUON);
  CHECK_I64(p.sharding, MEMEST_HSDP);
  CHECK_I64(p.routing, MEMEST_ROUTING_BALANCED);
  CHECK_STR(p.model, "Qwen/Qwen3-30B-A3B");
  json = memest_trainer_run_json(run);
  CHECK_HAS(json, "\"kind\":\"cfg\"");
  CHECK_HAS(json, "\"files\":[\"launch.py\"]");
  CHECK_HAS(json, "\"pp_size\":\"launch.py:42\"");
  CHECK_HAS(json, "logging.wandb");
  memest_free(json);
  CHECK_STR(memest_source_kind_name(MEMEST_SOURCE_CFG), "cfg");
  memest_trainer_run_free(run);
}

static void test_refusals(void) {
  memest_trainer_run *run = memest_cfg_run_new("", 0);
  memest_params p;
  memest_error e;
  memest_value v;
  char longer[700];
  memset(longer, 'a', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  v = text_value(MEMEST_VALUE_PATH, longer);
  memest_cfg_run_field(run, "training", "model", &v);
  v = text_value(MEMEST_VALUE_STR, "two");
  memest_cfg_run_field(run, "distributed", "pipeline_parallel_size", &v);
  v = text_value(MEMEST_VALUE_OTHER, "<object>");
  memest_cfg_run_field(run, "", "distributed", &v);   /* a section that is no config object */
  v = text_value(MEMEST_VALUE_STR, "x");
  memest_cfg_run_field(run, "training", "no_such_field", &v);
  memest_cfg_run_finish(run, 0);
  memest_params_init(&p);
  CHECK_I64(memest_trainer_run_apply(run, &p, &e), MEMEST_E_VALUE);
  CHECK_HAS(e.message, "cfg: training.model is a text of 699 bytes, longer than the 511 memest reads");
  {
    memest_trainer_run *again = memest_trainer_run_copy(run);
    char *text = memest_trainer_run_text(again);
    CHECK_HAS(text, "cfg.distributed is <object>, not the trainer's config object");
    CHECK_HAS(text, "training.no_such_field is not a field memest knows");
    memest_free(text);
    memest_trainer_run_free(again);
  }
  memest_trainer_run_free(run);

  /* A NUL inside a text, and a field of the object itself never set. */
  run = memest_cfg_run_new("a.py", 3);
  v.kind = MEMEST_VALUE_STR;
  v.text = "hs\0dp";
  v.text_len = 5;
  memest_cfg_run_field(run, "distributed", "sharding_strategy", &v);
  v.kind = MEMEST_VALUE_UNSET;
  memest_cfg_run_field(run, "", "training", &v);
  memest_cfg_run_finish(run, 1);
  memest_params_init(&p);
  CHECK_I64(memest_trainer_run_apply(run, &p, &e), MEMEST_E_VALUE);
  CHECK_HAS(e.message, "a.py:3: cfg.training is never set, not the trainer's config object, so "
                       "training.model has no value");
  {
    char *text = memest_trainer_run_text(run);
    CHECK_HAS(text, "distributed.sharding_strategy is a text that holds a NUL character");
    memest_free(text);
  }
  memest_trainer_run_free(run);
}

static void test_field_table(void) {
  memest_trainer_field_info f;
  int i, pp = 0, n = memest_trainer_field_count();
  CHECK(n > 20);
  for (i = 0; i < n; i++) {
    CHECK(memest_trainer_field_describe(i, &f));
    if (strcmp(f.name, "pipeline_parallel_size") == 0) {
      pp = 1;
      CHECK_STR(f.section, "distributed");
      CHECK_STR(f.input, "pp_size");
      CHECK_STR(f.conversion, "int");
      CHECK_STR(f.default_text, "1");
    }
    if (strcmp(f.name, "lr") == 0) CHECK(f.input == NULL && strcmp(f.conversion, "ignore") == 0);
  }
  CHECK(pp);
  CHECK(!memest_trainer_field_describe(n, &f));
  CHECK(!memest_trainer_field_describe(-1, &f));
}

static void test_command(void) {
  memest_trainer_run *run = tiny_run();
  memest_command_input in = {run, NULL, NULL};
  const char *argv[] = {"memest", "--total-gpus", "16", "--gpu", "h100", "--json"};
  const char *bad[] = {"memest", "--pp-size", "0"};
  char *out, *err;
  size_t out_len, err_len;
  int rc = memest_command(6, argv, &in, &out, &out_len, &err, &err_len);
  CHECK_I64(rc, 0);
  CHECK_I64(strlen(out), out_len);
  CHECK_HAS(out, "\"kind\":\"cfg\"");
  CHECK_HAS(out, "\"command\":\"memest --model Qwen/Qwen3-30B-A3B --pp-size 2 --ep-size 8 --cp-size 1 "
                "--total-gpus 16 --micro-batch-size 1 --global-batch-size 512 --sequence-length 4096 "
                "--gpu h100 --optimizer muon --sharding hsdp --routing balanced\"");
  CHECK_HAS(out, "\"preset\":\"qwen3-30b-a3b\"");
  memest_free(out);
  memest_free(err);
  /* The run given is not changed: a second command takes it as the first did. */
  rc = memest_command(6, argv, &in, &out, &out_len, &err, &err_len);
  CHECK_I64(rc, 0);
  CHECK_HAS(out, "\"kind\":\"cfg\"");
  memest_free(out);
  memest_free(err);
  rc = memest_command(3, bad, NULL, &out, &out_len, &err, &err_len);
  CHECK_I64(rc, 1);
  CHECK_I64(out_len, 0);
  CHECK_HAS(err, "memest: error: ");
  memest_free(out);
  memest_free(err);
  memest_trainer_run_free(run);
}

int main(void) {
  test_inputs();
  test_refusals();
  test_field_table();
  test_command();
  return check_done("test_cfg_object");
}
