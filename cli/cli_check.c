/*
** cli_check.c — the `memest check` subcommand: the trainer's memory
** snapshots (--snapshot FILE...), log (--log FILE) or W&B run (--wandb DIR)
** read beside the estimate of the same run, whose inputs come from the
** log's launch line or the W&B config where no flag gives them, as text or
** JSON.
** A plain client of the library: it includes memest.h and the command's
** shared parser (cli.h) only. Exit status:
** 0 done, 1 bad input, 2 missing inputs. Design note: docs/measured-runs.md.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memest.h"

#define CHECK_MAX_FILES 4096

static void check_help(FILE *out) {
  fprintf(out,
          "memest check — the trainer's measured memory beside the estimate\n\n"
          "Usage: memest check --snapshot FILE... [--log FILE] <the estimate's flags> [--json]\n"
          "       memest check --log FILE --total-gpus N --gpu NAME [--json]\n"
          "       memest check --wandb DIR [--total-gpus N] [--json]\n\n"
          "  --snapshot FILE...  snapshot-rankNNNNN.pickle files the trainer writes with\n"
          "                      training.memory_profile_start=N memory_profile_stop=N+1;\n"
          "                      the global rank in each name gives its pipeline rank\n"
          "  --log FILE          the trainer's output: its launch(cfg=...) line gives the\n"
          "                      inputs flags do not, and the peak-gpu-memory lines after\n"
          "                      the last launch line are compared\n"
          "  --wandb DIR         a W&B run's folder: config.yaml and wandb-metadata.json give\n"
          "                      the inputs, output.log (else wandb-summary.json) the peaks\n"
          "  --trainer-commit H  the trainer commit the run used (W&B names it itself)\n"
          "  --require fits|ok   exit 3 when the estimate's verdict is worse\n"
          "  --json              one JSON object {ranks, max, log, fragmentation}, or for\n"
          "                      an error {\"error\": {code, message, field, fix}}\n"
          "  estimate flags      as for memest (--model, --pp-size, ..., see memest --help)\n\n"
          "Measured is max_memory_allocated over the recorded step, rebuilt from the\n"
          "snapshot; estimated is the tensor peak of the same pipeline rank. Text adds the\n"
          "largest live allocations at the measured peak and the run's fragmentation.\n"
          "Exit status: 0 done, 1 bad input, 2 missing inputs, 3 --require refused.\n"
          "More: docs/measured-runs.md, docs/trainer-files.md\n");
}

/* Reports e (after "what: " when what names the file it came from) as
** every command does (cli_fail: text on err, or with --json one JSON
** object on the report's stream); returns the exit status. */
static int check_fail(const cli_args *args, FILE *err, const memest_error *e, const char *what) {
  memest_error named = *e;
  if (what) snprintf(named.message, sizeof named.message, "%.200s: %.560s", what, e->message);
  return cli_fail(args, err, &named);
}

/* Two snapshots whose names give the same global rank, refused by their
** names before a byte of either is read; returns -1 when there are none,
** else the exit status. */
static int refuse_same_rank(const cli_args *args, FILE *err, const memest_check_input *in, int n) {
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i && in[i].global_rank >= 0; j++) {
      if (in[j].global_rank != in[i].global_rank) continue;
      return cli_fail_text(args, err, MEMEST_E_VALUE, "snapshot",
                           "snapshots '%.300s' and '%.300s' are both global rank %lld (by their "
                           "names); give each rank once",
                           in[j].source, in[i].source, (long long)in[i].global_rank);
    }
  }
  return -1;
}

/* The inputs as cli_parse hands them over. */
typedef struct check_args {
  memest_params p;
  cli_source_args src;       /* --log, --wandb, --trainer-commit, --require */
  const cli_args *args;      /* where and how problems are reported */
  FILE *err;
} check_args;

static int check_set(void *target, const char *name, const char *value) {
  check_args *ca = target;
  memest_error e;
  if (value == NULL) {
    memest_code code = cli_source_flag(&ca->src, name, NULL, 1)
                           ? MEMEST_E_VALUE : memest_params_set(&ca->p, name, "", &e);
    return cli_no_value(ca->args, ca->err, name, code, &e);
  }
  if (cli_source_flag(&ca->src, name, value, 1)) return -1;
  if (memest_params_set(&ca->p, name, value, &e) != MEMEST_OK) {
    return check_fail(ca->args, ca->err, &e, NULL);
  }
  return -1;
}

/* The measured figures: the log's steps after its last launch line, or a
** W&B run's output.log, else its summary's last step. -1 to go on. */
static int read_figures(const cli_args *args, FILE *err, const cli_source *src, memest_runlog **log) {
  memest_error e;
  double gib;
  int64_t step;
  char line[128];
  if (src->log_text != NULL) {
    memest_code code = memest_runlog_read_from(src->log_text + src->steps_offset,
                                               src->log_len - src->steps_offset, src->steps_line, log, &e);
    if (code == MEMEST_OK) return -1;
    if (src->run == NULL || memest_trainer_run_kind(src->run) != MEMEST_SOURCE_WANDB)
      return check_fail(args, err, &e, src->log_label);
  }
  if (src->run == NULL || memest_trainer_run_kind(src->run) != MEMEST_SOURCE_WANDB) return -1;
  gib = memest_trainer_run_summary_gib(src->run, &step);
  if (gib < 0)
    return cli_fail_text(args, err, MEMEST_E_VALUE, "wandb",
                         "the W&B run has no output.log with peak-gpu-memory lines and no "
                         "infra/peak-gpu-memory in wandb-summary.json: it holds no measurement to "
                         "compare");
  /* The summary keeps the last step's figure, in the trainer's own line form. */
  snprintf(line, sizeof line, "step %08lld/%08lld | peak-gpu-memory %.17g GB\n", (long long)step,
           (long long)step, gib);
  if (memest_runlog_read(line, strlen(line), log, &e) != MEMEST_OK) return check_fail(args, err, &e, "wandb-summary.json");
  return -1;
}

int memest_cli_check(int argc, char **argv, FILE *out, FILE *err) {
  memest_error e;
  memest_check_input *in = NULL;
  check_args ca;
  cli_args args = {"memest check", NULL, 0, NULL};
  cli_source src;
  const char *config_path;
  char **rest = NULL;
  memest_runlog *log = NULL;
  memest_check *chk = NULL;
  char *config = NULL, *report = NULL;
  size_t config_len = 0;
  int n = 0, nrest = 0, i, rc = 1, in_snapshots = 0;
  memest_status status = MEMEST_FITS_OK;
  memest_params_init(&ca.p);
  memset(&ca.src, 0, sizeof ca.src);
  memset(&src, 0, sizeof src);
  ca.err = err;
  ca.args = &args;
  args.out = out;
  /* --json anywhere makes every error a JSON object, even one met before
  ** the shared parser runs. */
  for (i = 2; i < argc; i++) args.json |= strcmp(argv[i], "--json") == 0;
  /* The files after --snapshot (until the next flag) are taken out here;
  ** everything else goes through the shared parser. */
  in = calloc((size_t)argc, sizeof *in);
  rest = calloc((size_t)argc + 1, sizeof *rest);
  if (in == NULL || rest == NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_NOMEM, "", "out of memory");
    goto done;
  }
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i >= 2 && strcmp(a, "--snapshot") == 0) {
      in_snapshots = 1;
      continue;
    }
    if (i >= 2 && strncmp(a, "--snapshot=", 11) == 0) a += 11;
    else if (!in_snapshots || strncmp(a, "--", 2) == 0) a = NULL;
    if (a != NULL) {
      if (n == CHECK_MAX_FILES) {
        rc = cli_fail_text(&args, err, MEMEST_E_LIMIT, "snapshot",
                           "more than %d snapshots; give one per pipeline rank", CHECK_MAX_FILES);
        goto done;
      }
      in[n].source = a;
      in[n].global_rank = memest_snapshot_rank_of_name(a);
      in[n].snapshot = NULL;
      n++;
      continue;
    }
    in_snapshots = 0;
    rest[nrest++] = argv[i];
  }
  rc = cli_parse(nrest, rest, 2, NULL, &args, check_set, &ca, err);
  if (rc >= 0) goto done;
  rc = 1;
  if (args.action != NULL) {
    check_help(out);
    rc = 0;
    goto done;
  }
  if (n == 0 && ca.src.log == NULL && ca.src.wandb == NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_MISSING, "snapshot",
                       "give --snapshot FILE..., --log FILE or --wandb DIR; see memest check --help");
    goto done;
  }
  if ((rc = refuse_same_rank(&args, err, in, n)) >= 0) goto done;
  rc = 1;
  if (ca.src.script != NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_VALUE, "script",
                       "memest check reads a run's log (--log) or W&B run (--wandb); a launch "
                       "script is memest --script's");
    goto done;
  }
  if ((rc = cli_source_read(&args, err, &ca.src, &src)) >= 0 ||
      (rc = cli_source_apply(&args, err, &src, &ca.p)) >= 0)
    goto done;
  rc = 1;
  config_path = ca.p.model;
  if (memest_validate("{}", 2, &ca.p, &e, 1) > 0 && e.code == MEMEST_E_MISSING) {
    cli_source_missing(&args, err, &src);
    rc = check_fail(&args, err, &e, NULL);
    goto done;
  }
  {
    char why[1200];
    cli_model m;
    memest_code code = cli_load_model(config_path, args.prog, err, &m, why, sizeof why);
    if (code != MEMEST_OK) {
      rc = cli_fail_text(&args, err, code, "model", "%s", why);
      goto done;
    }
    config = m.config;
    config_len = m.len;
    ca.p.model_source = m.source;
  }
  for (i = 0; i < n; i++) {
    size_t len = 0;
    char why[1200];
    char *data = cli_read_file(in[i].source, MEMEST_INPUT_SNAPSHOT, &len, why, sizeof why);
    memest_snapshot *s = NULL;
    memest_code code;
    if (data == NULL) {
      rc = cli_fail_text(&args, err, MEMEST_E_IO, "snapshot", "%s", why);
      goto done;
    }
    code = memest_snapshot_read(data, len, &s, &e);
    free(data);
    if (code != MEMEST_OK) {
      rc = check_fail(&args, err, &e, in[i].source);
      goto done;
    }
    in[i].snapshot = s;
  }
  if ((rc = read_figures(&args, err, &src, &log)) >= 0) goto done;
  rc = 1;
  if (memest_check_run(config, config_len, &ca.p, in, n, log, &chk, &e) != MEMEST_OK ||
      (src.run != NULL && memest_check_set_source(chk, src.run, &e) != MEMEST_OK)) {
    rc = check_fail(&args, err, &e, NULL);
    goto done;
  }
  status = memest_result_status(memest_check_estimate(chk));
  report = args.json ? memest_check_json(chk) : memest_check_text(chk);
  if (report == NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_NOMEM, "", "out of memory writing the report");
    goto done;
  }
  fprintf(out, "%s%s", report, args.json ? "\n" : "");
  rc = cli_gate(&args, err, ca.src.require, status, "the estimate of the run");
done:
  memest_free(report);
  memest_check_free(chk);
  memest_runlog_free(log);
  for (i = 0; i < n; i++) memest_snapshot_free((memest_snapshot *)in[i].snapshot);
  free(in);
  free(rest);
  free(config);
  cli_source_free(&src);
  return rc;
}
