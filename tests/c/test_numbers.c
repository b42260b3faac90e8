/*
** test_numbers.c — numbers read from the trainer's files and from measured
** runs never wrap: hostile values (at and just below INT64_MAX, past it,
** negative, and pairs that overflow only when multiplied) are refused by
** the file, the field and the limit, or read exactly. Run under UBSan by
** scripts/sanitize.sh, where any wrap aborts.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/internal.h"

/* {======================================================================
** W&B: the GPU count is gpu_count x the node count
** ======================================================================= */

static const char *const YAML = "training:\n  value:\n    sequence_length: 4096\n";

/* A W&B run of config.yaml `yaml` and wandb-metadata.json `meta` applied
** to fresh inputs: "ok <total_gpus>", or "error: <message>". */
static const char *wandb_total(const char *yaml, const char *meta, char *buf, size_t size) {
  memest_wandb_files f;
  memest_trainer_run *run = NULL;
  memest_params p;
  memest_error e;
  memset(&f, 0, sizeof f);
  f.dir = "run";
  f.config_yaml = yaml;
  f.config_len = strlen(yaml);
  f.metadata_json = meta;
  f.metadata_len = meta ? strlen(meta) : 0;
  if (memest_wandb_read(&f, &run, &e) != MEMEST_OK) {
    snprintf(buf, size, "read error: %s", e.message);
    return buf;
  }
  memest_params_init(&p);
  if (memest_trainer_run_apply(run, &p, &e) != MEMEST_OK) snprintf(buf, size, "error: %s", e.message);
  else snprintf(buf, size, "ok %lld", (long long)p.total_gpus);
  memest_trainer_run_free(run);
  return buf;
}

/* The metadata with gpu_count and slurm.nnodes as written (JSON text). */
static const char *meta_of(const char *count, const char *nodes, char *buf, size_t size) {
  snprintf(buf, size,
           "{\"gpu\": \"NVIDIA H100 80GB HBM3\", \"gpu_count\": %s, \"slurm\": {\"nnodes\": %s}}",
           count, nodes);
  return buf;
}

static void test_wandb_counts(void) {
  char meta[400], b[1200];
  /* The report's case: 2^62 + 8 GPUs per node on 4 nodes wraps to 32. */
  wandb_total(YAML, meta_of("\"4611686018427387912\"", "\"4\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "error: wandb-metadata.json: gpu_count is '4611686018427387912', not a count from 1 "
               "to MEMEST_MAX_GPUS (1048576), so the GPU count cannot be read; or give --total-gpus");
  /* At and past INT64_MAX, as strings and as JSON numbers. */
  wandb_total(YAML, meta_of("\"9223372036854775807\"", "\"1\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is '9223372036854775807', not a count from 1 to MEMEST_MAX_GPUS");
  wandb_total(YAML, meta_of("\"9223372036854775808\"", "\"1\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is '9223372036854775808', not a count");
  wandb_total(YAML, meta_of("\"99999999999999999999999\"", "\"1\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is '99999999999999999999999', not a count");
  wandb_total(YAML, meta_of("9223372036854775807", "1", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is 9.2233720368547758e+18, not a count");
  wandb_total(YAML, meta_of("1e300", "1", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is 1.0000000000000001e+300, not a count");
  /* Negative, fractional, not a number. */
  wandb_total(YAML, meta_of("-8", "2", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is -8, not a count");
  wandb_total(YAML, meta_of("\"-8\"", "\"2\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is '-8', not a count");
  wandb_total(YAML, meta_of("8.5", "2", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is 8.5, not a count");
  wandb_total(YAML, meta_of("\"8 GPUs\"", "\"2\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "gpu_count is '8 GPUs', not a count");
  wandb_total(YAML, meta_of("8", "\"-9223372036854775808\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "slurm.nnodes is '-9223372036854775808', not a count");
  wandb_total(YAML, meta_of("8", "true", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "slurm.nnodes is a boolean, not a count");
  /* Each count in range, their product not: 2^20 x 2^20 GPUs. */
  wandb_total(YAML, meta_of("1048576", "\"1048576\"", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "error: wandb-metadata.json: slurm.nnodes 1048576 nodes x gpu_count 1048576 GPUs "
               "per node is 1099511627776 GPUs, over MEMEST_MAX_GPUS (1048576)");
  wandb_total(YAML, meta_of("1024", "1025", meta, sizeof meta), b, sizeof b);
  CHECK_HAS(b, "is 1049600 GPUs, over MEMEST_MAX_GPUS");
  /* At the limits exactly: read. */
  CHECK_STR(wandb_total(YAML, meta_of("1048576", "1", meta, sizeof meta), b, sizeof b), "ok 1048576");
  CHECK_STR(wandb_total(YAML, meta_of("1024", "\"1024\"", meta, sizeof meta), b, sizeof b), "ok 1048576");
  CHECK_STR(wandb_total(YAML, meta_of("\"8\"", "\"4\"", meta, sizeof meta), b, sizeof b), "ok 32");
  /* The same counts in config.yaml's _wandb environment (no metadata). */
  wandb_total("_wandb:\n  value:\n    e:\n      w1:\n        gpu: NVIDIA H100 80GB HBM3\n"
              "        gpu_count: 4611686018427387912\n        slurm:\n          nnodes: '4'\n"
              "training:\n  value:\n    sequence_length: 4096\n", NULL, b, sizeof b);
  CHECK_HAS(b, "error: config.yaml: _wandb.e.gpu_count is 4.6116860184273879e+18, not a count");
  wandb_total("_wandb:\n  value:\n    e:\n      w1:\n        gpu: NVIDIA H100 80GB HBM3\n"
              "        gpu_count: 8\n        slurm:\n          nnodes: '99999999999999999999'\n"
              "training:\n  value:\n    sequence_length: 4096\n", NULL, b, sizeof b);
  CHECK_HAS(b, "error: config.yaml: _wandb.e.slurm.nnodes is '99999999999999999999', not a count");
  wandb_total("_wandb:\n  value:\n    e:\n      w1:\n        gpu: NVIDIA H100 80GB HBM3\n"
              "        gpu_count: 1048576\n        slurm:\n          nnodes: 4\n"
              "training:\n  value:\n    sequence_length: 4096\n", NULL, b, sizeof b);
  CHECK_HAS(b, "is 4194304 GPUs, over MEMEST_MAX_GPUS");
  CHECK_STR(wandb_total("_wandb:\n  value:\n    e:\n      w1:\n        gpu: NVIDIA H100 80GB HBM3\n"
                        "        gpu_count: 8\n        slurm:\n          nnodes: '2'\n"
                        "training:\n  value:\n    sequence_length: 4096\n", NULL, b, sizeof b),
            "ok 16");
}
/* }====================================================================== */

/* {======================================================================
** The launch line and config.yaml: fields that are whole numbers
** ======================================================================= */

/* A launch line with distributed.pipeline_parallel_size = pp, applied. */
static const char *launch_pp(const char *pp, char *buf, size_t size) {
  char log[700];
  memest_trainer_run *run = NULL;
  memest_params p;
  memest_error e;
  snprintf(log, sizeof log,
           "2026-07-23 10:00:07 | INFO | launch(cfg=PretrainLMCfg(distributed=DistributedCfg("
           "pipeline_parallel_size=%s), training=TrainingCfg(sequence_length=4096)))\n", pp);
  if (memest_launch_log_read(log, strlen(log), "run.log", &run, &e) != MEMEST_OK) {
    snprintf(buf, size, "read error: %s", e.message);
    return buf;
  }
  memest_params_init(&p);
  if (memest_trainer_run_apply(run, &p, &e) != MEMEST_OK) snprintf(buf, size, "error: %s", e.message);
  else snprintf(buf, size, "ok %lld", (long long)p.pp_size);
  memest_trainer_run_free(run);
  return buf;
}

static void test_fields(void) {
  char b[1200];
  CHECK_HAS(launch_pp("9223372036854775807", b, sizeof b),
            "error: run.log:1: distributed.pipeline_parallel_size gives --pp-size 9223372036854775807");
  CHECK_HAS(b, "MEMEST_MAX_PP");
  CHECK_HAS(launch_pp("9223372036854775806", b, sizeof b), "MEMEST_MAX_PP");
  CHECK_HAS(launch_pp("-9223372036854775807", b, sizeof b), "gives --pp-size -9223372036854775807");
  CHECK_HAS(launch_pp("9223372036854775808", b, sizeof b),
            "distributed.pipeline_parallel_size is an integer past 64 bits; the trainer takes a whole number");
  CHECK_HAS(launch_pp("-9223372036854775808", b, sizeof b), "is an integer past 64 bits");
  CHECK_HAS(launch_pp("1e300", b, sizeof b), "is 1.0000000000000001e+300; the trainer takes a whole number");
  CHECK_HAS(launch_pp("4.0", b, sizeof b), "ok 4");
  CHECK_STR(launch_pp("512", b, sizeof b), "ok 512");
  CHECK_HAS(launch_pp("513", b, sizeof b), "MEMEST_MAX_PP");
}
/* }====================================================================== */

/* {======================================================================
** An older trainer's differences sized from the config's
** max_position_embeddings (up to 2^53)
** ======================================================================= */

static void test_differences(void) {
  size_t len;
  char *preset = check_read_file("presets/qwen3-30b-a3b.json", &len), *config, *j;
  static const char *const positions[] = {"4503599627370496", "9007199254740992", "40960"};
  size_t k;
  CHECK(preset != NULL);
  if (preset == NULL) return;
  config = malloc(len + 80);
  for (k = 0; k < sizeof positions / sizeof positions[0]; k++) {
    memest_params p;
    memest_result *r = NULL;
    memest_trainer_run *run = memest_trainer_run_new(MEMEST_SOURCE_FLAGS);
    memest_error e;
    const char *brace = strchr(preset, '{');
    snprintf(config, len + 80, "{\"max_position_embeddings\": %s, %s", positions[k], brace + 1);
    check_params(&p, "big-positions", 4, 8, 1, 32, 1, 1024, 4096, "h100");
    CHECK(memest_estimate(config, strlen(config), &p, &r, &e) == MEMEST_OK);
    if (r == NULL) {
      memest_trainer_run_free(run);
      continue;
    }
    CHECK(memest_trainer_run_set_commit(run, "287070f", "--trainer-commit", &e) == MEMEST_OK);
    CHECK(memest_result_set_source(r, run, &e) == MEMEST_OK);
    j = memest_result_json(r);
    if (k < 2) {
      CHECK_HAS(j, "\"commit\":\"c3a8cac\"");
      CHECK_HAS(j, "\"bytes\":null,\"how\":\"not sized: the config's max_position_embeddings");
      CHECK_HAS(j, positions[k]);
    } else {
      /* 2 modules x cos and sin x 40960 positions x 128 x 4 bytes, less the modelled tables. */
      CHECK_HAS(j, "x 40960 positions x 128 x 4 bytes");
    }
    memest_free(j);
    j = memest_result_text(r);
    if (k < 2) CHECK_HAS(j, "(not sized: the config's max_position_embeddings");
    memest_free(j);
    memest_result_free(r);
    memest_trainer_run_free(run);
  }
  free(config);
  free(preset);
}
/* }====================================================================== */

/* {======================================================================
** Measured runs: the log's step numbers, a snapshot's sums
** ======================================================================= */

static void test_log_steps(void) {
  static const char *const lines[] = {
    "x | step 00000001/00000010 | peak-gpu-memory 60.00 GB\n",
    "x | step 00000002/00000010 | peak-gpu-memory 61.00 GB\n",
    "x | step 1000000000000000000/1 | peak-gpu-memory 61.50 GB\n",   /* 10^18: read */
    "x | step 1000000000000000001/1 | peak-gpu-memory 62.00 GB\n",   /* refused */
    "x | step 9223372036854775807/1 | peak-gpu-memory 63.00 GB\n",
    "x | step 99999999999999999999999/1 | peak-gpu-memory 64.00 GB\n",
  };
  char text[800] = "", note[200];
  memest_runlog *log = NULL;
  memest_error e;
  const memest_runlog_summary *s;
  size_t k;
  for (k = 0; k < sizeof lines / sizeof lines[0]; k++) strcat(text, lines[k]);
  CHECK(memest_runlog_read(text, strlen(text), &log, &e) == MEMEST_OK);
  if (log == NULL) return;
  s = memest_runlog_summary_of(log);
  CHECK_I64(s->steps, 3);
  CHECK_I64(s->last_step, 1000000000000000000LL);
  CHECK_I64(s->refused, 3);
  CHECK(s->max_gib > 61.49 && s->max_gib < 61.51);
  CHECK(memest_runlog_note_count(log) >= 1);
  if (memest_runlog_note_count(log) >= 1) {
    memest_runlog_note_text(memest_runlog_note_at(log, 0), note, sizeof note);
    CHECK_STR(note, "line 4: peak-gpu-memory 62.00 GB is on a line whose step number is over 10^18");
  }
  memest_runlog_free(log);
  CHECK_I64(memest_snapshot_rank_of_name("snapshot-rank99999999999999999999.pickle"), -1);
  CHECK_I64(memest_snapshot_rank_of_name("snapshot-rank00000008.pickle"), 8);
}

/* A pickle written by hand: protocol 2 opcodes. */
typedef struct pk_out {
  unsigned char b[4096];
  size_t n;
} pk_out;

static void put(pk_out *o, int c) { o->b[o->n++] = (unsigned char)c; }
static void put_str(pk_out *o, const char *s) {
  size_t n = strlen(s);
  put(o, 0x8c);   /* SHORT_BINUNICODE */
  put(o, (int)n);
  memcpy(o->b + o->n, s, n);
  o->n += n;
}
static void put_int(pk_out *o, int64_t v) {
  uint64_t u = (uint64_t)v;
  int i;
  put(o, 0x8a);   /* LONG1, 8 bytes little-endian */
  put(o, 8);
  for (i = 0; i < 8; i++) put(o, (int)((u >> (8 * i)) & 0xff));
}

/* A snapshot without segments whose one trace alternates n frees of 2^62
** bytes and allocations of blocks it never saw: the curve never passes
** 2^62, but the blocks live at its peak add up to n x 2^62. */
static size_t hostile_snapshot(pk_out *o, int n) {
  int i;
  o->n = 0;
  put(o, 0x80);
  put(o, 2);
  put(o, '}');
  put(o, '(');
  put_str(o, "segments");
  put(o, ']');
  put_str(o, "device_traces");
  put(o, ']');
  put(o, '(');
  put(o, ']');
  put(o, '(');
  for (i = 0; i < 2 * n; i++) {
    put(o, '}');
    put(o, '(');
    put_str(o, "action");
    put_str(o, i % 2 == 0 ? "free_requested" : "alloc");
    put_str(o, "addr");
    put_int(o, 4096 * (int64_t)(i + 1));
    put_str(o, "size");
    put_int(o, (int64_t)1 << 62);
    put(o, 'u');
  }
  put(o, 'e');
  put(o, 'e');
  put(o, 'u');
  put(o, '.');
  return o->n;
}

static void test_snapshot_sums(void) {
  pk_out o;
  memest_snapshot *s = NULL;
  memest_error e;
  /* Three such blocks: 3 x 2^62 fits in 64 bits. */
  CHECK(memest_snapshot_read(o.b, hostile_snapshot(&o, 3), &s, &e) == MEMEST_OK);
  if (s != NULL) {
    CHECK_I64(memest_snapshot_site_count(s), 1);
    CHECK(memest_snapshot_site_at(s, 0)->bytes == 3 * ((uint64_t)1 << 62));
    CHECK_I64(memest_snapshot_site_at(s, 0)->count, 3);
    memest_snapshot_free(s);
  }
  /* Four: 2^64, refused rather than wrapped to 0. */
  s = NULL;
  CHECK(memest_snapshot_read(o.b, hostile_snapshot(&o, 4), &s, &e) == MEMEST_E_OVERFLOW);
  CHECK(s == NULL);
  CHECK_HAS(e.message, "blocks live at the peak add up past 2^64 bytes");
  memest_snapshot_free(s);
}
/* }====================================================================== */

int main(void) {
  test_wandb_counts();
  test_fields();
  test_differences();
  test_log_steps();
  test_snapshot_sums();
  return check_done("test_numbers");
}
