/*
** cli_check.c — the `memest check` subcommand: the trainer's memory
** snapshots (--snapshot FILE...), log (--log FILE) or W&B run (--wandb DIR)
** read beside the estimate of the same run (memory, and the log's step
** time), whose inputs come from the log's launch line or the W&B config
** where no flag gives them, as text or JSON.
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

/* memest check --help. */
static const char check_usage[] =
    "memest check — the trainer's measured memory beside the estimate\n\n"
    "Usage: memest check --snapshot FILE... [--log FILE] <the estimate's flags> [--json]\n"
    "       memest check --log FILE --total-gpus N --gpu NAME [--json]\n"
    "       memest check --wandb DIR [--total-gpus N] [--json]\n\n"
    "  --snapshot FILE...  snapshot-rankNNNNN.pickle files the trainer writes with\n"
    "                      training.memory_profile_start=N memory_profile_stop=N+1;\n"
    "                      the global rank in each name gives its pipeline rank\n"
    "  --log FILE          the trainer's output: its launch(cfg=...) line gives the\n"
    "                      inputs flags do not, and the step lines after the last\n"
    "                      launch line are compared (peak-gpu-memory, step-time,\n"
    "                      tokens-per-second)\n"
    "  --wandb DIR         a W&B run's folder: config.yaml and wandb-metadata.json give\n"
    "                      the inputs, output.log (else wandb-summary.json's last\n"
    "                      step) the peaks and step times\n"
    "  --trainer-commit H  the trainer commit the run used (W&B names it itself)\n"
    "  --require fits|ok   exit 3 when the estimate's verdict is worse\n"
    "  --require step-time-within=PCT\n"
    "                      exit 3 unless the estimated step time is within PCT%\n"
    "                      of the logged one\n"
    "  --json              one JSON object {ranks, max, time, log, fragmentation},\n"
    "                      or for an error {\"error\": {code, message, field, fix}}\n"
    "  estimate flags      as for memest (--model, --pp-size, ..., see memest --help)\n\n"
    "Measured is max_memory_allocated over the recorded step, rebuilt from the\n"
    "snapshot; estimated is the tensor peak of the same pipeline rank. Text adds the\n"
    "largest live allocations at the measured peak and the run's fragmentation.\n"
    "The log's step time (the median over its steps, each run's first and any over\n"
    "3x the others' median left out) and tokens/s are set beside the estimate's.\n"
    "Exit status: 0 done, 1 bad input, 2 missing inputs, 3 --require refused.\n"
    "More: docs/measured-runs.md, docs/trainer-files.md\n";

/* Reports e (after "what: " when what names the file it came from) as
** every command does (cli_fail: text on err, or with --json one JSON
** object on the report's stream); returns the exit status. */
static int check_fail(const cli_args *args, FILE *err, const memest_error *e, const char *what) {
  memest_error named = *e;
  if (what) snprintf(named.message, sizeof named.message, "%.200s: %.560s", what, e->message);
  return cli_fail(args, err, &named);
}

/* The inputs as cli_parse hands them over. */
typedef struct check_args {
  memest_params p;
  cli_source_args src;       /* --log, --wandb, --trainer-commit, --require fits|ok */
  const char *step_within;   /* --require step-time-within=PCT, or NULL */
  const cli_args *args;      /* where and how problems are reported */
  FILE *err;
} check_args;

/* {======================================================================
** --require step-time-within=PCT: the estimated step time within PCT
** percent of the logged one, either way
** ======================================================================= */

#define STEP_TIME_WITHIN "step-time-within="

/* PCT of --require step-time-within=PCT: 1 with *pct for a number above 0
** (a trailing '%' allowed); 0 when require is not this gate; -1 when its
** PCT is no such number. */
static int step_time_within(const char *require, double *pct) {
  const size_t k = sizeof STEP_TIME_WITHIN - 1;
  char *end;
  if (require == NULL || strncmp(require, STEP_TIME_WITHIN, k) != 0) return 0;
  *pct = strtod(require + k, &end);
  if (end == require + k) return -1;
  if (*end == '%') end++;
  return *end == '\0' && *pct > 0 && *pct <= 1e6 ? 1 : -1;
}
/* }====================================================================== */

static int check_set(void *target, const char *name, const char *value) {
  check_args *ca = target;
  memest_error e;
  if (value == NULL) {
    memest_code code = cli_source_flag(&ca->src, name, NULL, 1)
                           ? MEMEST_E_VALUE : memest_params_set(&ca->p, name, "", &e);
    return cli_no_value(ca->args, ca->err, name, code, &e);
  }
  /* step-time-within is check's own gate; fits and ok are the shared one's. */
  if (strcmp(name, "--require") == 0 &&
      strncmp(value, STEP_TIME_WITHIN, sizeof STEP_TIME_WITHIN - 1) == 0) {
    ca->step_within = value;
    return -1;
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
  double gib, seconds, rate;
  int64_t step;
  char line[256];
  size_t n;
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
  /* The summary keeps the last step's figures, in the trainer's own line form. */
  memest_trainer_run_summary_time(src->run, &seconds, &rate);
  n = (size_t)snprintf(line, sizeof line, "step %08lld/%08lld", (long long)step, (long long)step);
  if (seconds > 0) n += (size_t)snprintf(line + n, sizeof line - n, " | step-time %.6f sec", seconds);
  if (seconds > 0 && rate > 0)
    n += (size_t)snprintf(line + n, sizeof line - n, " | tokens-per-second %.1f", rate);
  snprintf(line + n, sizeof line - n, " | peak-gpu-memory %.17g GB\n", gib);
  if (memest_runlog_read(line, strlen(line), log, &e) != MEMEST_OK) return check_fail(args, err, &e, "wandb-summary.json");
  return -1;
}

/* One run of the command: its inputs and what it read, freed by
** check_run_free. */
typedef struct check_run {
  check_args ca;
  cli_args args;
  cli_source src;
  memest_check_input *in;   /* the snapshots after --snapshot, n of them */
  int n;
  char **rest;              /* every other argument, for the shared parser */
  int nrest;
  char *config;             /* the model's config.json text; NULL for a preset */
  size_t config_len;
  memest_runlog *log;
  memest_check *chk;
} check_run;

static void check_run_free(check_run *cr) {
  int i;
  memest_check_free(cr->chk);
  memest_runlog_free(cr->log);
  for (i = 0; i < cr->n; i++) memest_snapshot_free((memest_snapshot *)cr->in[i].snapshot);
  free(cr->in);
  free(cr->rest);
  free(cr->config);
  cli_source_free(&cr->src);
}

/* The files after --snapshot (until the next flag) go to cr->in; every
** other argument to cr->rest, for the shared parser. -1 to go on. */
static int split_arguments(check_run *cr, int argc, char **argv, FILE *err) {
  int i, in_snapshots = 0;
  cr->in = calloc((size_t)argc, sizeof *cr->in);
  cr->rest = calloc((size_t)argc + 1, sizeof *cr->rest);
  if (cr->in == NULL || cr->rest == NULL)
    return cli_fail_text(&cr->args, err, MEMEST_E_NOMEM, "", "out of memory");
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i >= 2 && strcmp(a, "--snapshot") == 0) {
      in_snapshots = 1;
      continue;
    }
    if (i >= 2 && strncmp(a, "--snapshot=", 11) == 0) a += 11;
    else if (!in_snapshots || strncmp(a, "--", 2) == 0) a = NULL;
    if (a == NULL) {
      in_snapshots = 0;
      cr->rest[cr->nrest++] = argv[i];
      continue;
    }
    if (cr->n == CHECK_MAX_FILES)
      return cli_fail_text(&cr->args, err, MEMEST_E_LIMIT, "snapshot",
                           "more than %d snapshots; give one per pipeline rank", CHECK_MAX_FILES);
    cr->in[cr->n].source = a;
    cr->in[cr->n].global_rank = memest_snapshot_rank_of_name(a);
    cr->in[cr->n].snapshot = NULL;
    cr->n++;
  }
  return -1;
}

/* The gate on the check's step-time error: 0 within, else 3 with a line
** on err (no comparison to gate counts as outside). */
static int step_time_gate(const check_run *cr, FILE *err, double pct) {
  double error = 0;
  const char *note = NULL;
  if (!memest_check_step_time_error(cr->chk, &error, &note)) {
    fprintf(err, "%s: --require %s: no step time was compared: %s; exit 3\n", cr->args.prog,
            cr->ca.step_within, note);
    return 3;
  }
  if (error * 100.0 <= pct && error * 100.0 >= -pct) return 0;
  fprintf(err, "%s: --require %s: the estimated step time is %+.1f%% from the logged one; exit 3\n",
          cr->args.prog, cr->ca.step_within, error * 100.0);
  return 3;
}

/* Inputs memest check refuses before reading a file, one row per case:
** when it applies, and what it says. */
typedef struct check_refusal {
  int (*applies)(const check_run *cr);
  memest_code code;
  const char *field;
  const char *message;
} check_refusal;

static int no_measurement(const check_run *cr) {
  return cr->n == 0 && cr->ca.src.log == NULL && cr->ca.src.wandb == NULL;
}

static int script_given(const check_run *cr) { return cr->ca.src.script != NULL; }

static int bad_step_time_within(const check_run *cr) {
  double pct;
  return step_time_within(cr->ca.step_within, &pct) < 0;
}

static const check_refusal check_refusals[] = {
  {no_measurement, MEMEST_E_MISSING, "snapshot",
   "give --snapshot FILE..., --log FILE or --wandb DIR; see memest check --help"},
  {script_given, MEMEST_E_VALUE, "script",
   "memest check reads a run's log (--log) or W&B run (--wandb); a launch script is memest "
   "--script's"},
  {bad_step_time_within, MEMEST_E_VALUE, "require",
   "--require step-time-within=PCT takes a number above 0 for PCT (a percentage), e.g. "
   "--require step-time-within=15"},
};

/* The first refusal that applies, after two snapshots whose names give
** the same global rank (refused by their names before a byte of either is
** read); -1 when none does, else the exit status. */
static int refuse_inputs(const check_run *cr, FILE *err) {
  const memest_check_input *in = cr->in;
  size_t k;
  int i, j;
  for (i = 0; i < cr->n; i++) {
    for (j = 0; j < i && in[i].global_rank >= 0; j++) {
      if (in[j].global_rank != in[i].global_rank) continue;
      return cli_fail_text(&cr->args, err, MEMEST_E_VALUE, "snapshot",
                           "snapshots '%.300s' and '%.300s' are both global rank %lld (by their "
                           "names); give each rank once",
                           in[j].source, in[i].source, (long long)in[i].global_rank);
    }
  }
  for (k = 0; k < sizeof check_refusals / sizeof check_refusals[0]; k++) {
    const check_refusal *r = &check_refusals[k];
    if (r->applies(cr)) return cli_fail_text(&cr->args, err, r->code, r->field, "%s", r->message);
  }
  return -1;
}

/* The model's config, once every input the estimate needs is given. */
static int load_model(check_run *cr, FILE *err) {
  memest_error e;
  char why[1200];
  cli_model m;
  memest_code code;
  if (memest_validate("{}", 2, &cr->ca.p, &e, 1) > 0 && e.code == MEMEST_E_MISSING) {
    cli_source_missing(&cr->args, err, &cr->src);
    return check_fail(&cr->args, err, &e, NULL);
  }
  code = cli_load_model(cr->ca.p.model, cr->args.prog, err, &m, why, sizeof why);
  if (code != MEMEST_OK) return cli_fail_text(&cr->args, err, code, "model", "%s", why);
  cr->config = m.config;
  cr->config_len = m.len;
  cr->ca.p.model_source = m.source;
  return -1;
}

static int read_snapshots(check_run *cr, FILE *err) {
  memest_error e;
  int i;
  for (i = 0; i < cr->n; i++) {
    size_t len = 0;
    char why[1200];
    char *data = cli_read_file(cr->in[i].source, MEMEST_INPUT_SNAPSHOT, &len, why, sizeof why);
    memest_snapshot *s = NULL;
    memest_code code;
    if (data == NULL) return cli_fail_text(&cr->args, err, MEMEST_E_IO, "snapshot", "%s", why);
    code = memest_snapshot_read(data, len, &s, &e);
    free(data);
    if (code != MEMEST_OK) return check_fail(&cr->args, err, &e, cr->in[i].source);
    cr->in[i].snapshot = s;
  }
  return -1;
}


/* The comparison, its report on out and the --require gate. */
static int compare(check_run *cr, FILE *out, FILE *err) {
  memest_error e;
  memest_status status;
  char *report;
  double pct = 0;
  int json = cr->args.json;
  if (memest_check_run(cr->config, cr->config_len, &cr->ca.p, cr->in, cr->n, cr->log, &cr->chk,
                       &e) != MEMEST_OK ||
      (cr->src.run != NULL && memest_check_set_source(cr->chk, cr->src.run, &e) != MEMEST_OK))
    return check_fail(&cr->args, err, &e, NULL);
  status = memest_result_status(memest_check_estimate(cr->chk));
  report = json ? memest_check_json(cr->chk) : memest_check_text(cr->chk);
  if (report == NULL)
    return cli_fail_text(&cr->args, err, MEMEST_E_NOMEM, "", "out of memory writing the report");
  fprintf(out, "%s%s", report, json ? "\n" : "");
  memest_free(report);
  if (step_time_within(cr->ca.step_within, &pct) > 0) return step_time_gate(cr, err, pct);
  return cli_gate(&cr->args, err, cr->ca.src.require, status, "the estimate of the run");
}

int memest_cli_check(int argc, char **argv, const memest_command_input *given, FILE *out,
                     FILE *err) {
  check_run cr;
  int i, rc;
  memset(&cr, 0, sizeof cr);
  memest_params_init(&cr.ca.p);
  cr.args.prog = "memest check";
  cr.args.out = out;
  cr.ca.err = err;
  cr.ca.args = &cr.args;
  cr.ca.src.given = given;
  /* --json anywhere makes every error a JSON object, even one met before
  ** the shared parser runs. */
  for (i = 2; i < argc; i++) cr.args.json |= strcmp(argv[i], "--json") == 0;
  rc = split_arguments(&cr, argc, argv, err);
  if (rc < 0) rc = cli_parse(cr.nrest, cr.rest, 2, NULL, &cr.args, check_set, &cr.ca, err);
  if (rc < 0 && cr.args.action != NULL) {
    fputs(check_usage, out);
    rc = 0;
  }
  if (rc < 0) rc = refuse_inputs(&cr, err);
  if (rc < 0) rc = cli_source_read(&cr.args, err, &cr.ca.src, &cr.src);
  if (rc < 0) rc = cli_source_apply(&cr.args, err, &cr.src, &cr.ca.p);
  if (rc < 0) rc = load_model(&cr, err);
  if (rc < 0) rc = read_snapshots(&cr, err);
  if (rc < 0) rc = read_figures(&cr.args, err, &cr.src, &cr.log);
  if (rc < 0) rc = compare(&cr, out, err);
  check_run_free(&cr);
  return rc;
}
