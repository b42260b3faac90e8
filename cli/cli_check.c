/*
** cli_check.c — the `memest check` subcommand: the trainer's memory
** snapshots (--snapshot FILE...) and log (--log FILE) read beside the
** estimate of the same run (the estimate's own flags), as text or JSON.
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
          "Usage: memest check --snapshot FILE... [--log FILE] <the estimate's flags> [--json]\n\n"
          "  --snapshot FILE...  snapshot-rankNNNNN.pickle files the trainer writes with\n"
          "                      training.memory_profile_start=N memory_profile_stop=N+1;\n"
          "                      the global rank in each name gives its pipeline rank\n"
          "  --log FILE          the trainer's output; its peak-gpu-memory lines are read\n"
          "  --json              one JSON object {ranks, max, log, fragmentation}, or for\n"
          "                      an error {\"error\": {code, message, field, fix}}\n"
          "  estimate flags      as for memest (--model, --pp-size, ..., see memest --help)\n\n"
          "Measured is max_memory_allocated over the recorded step, rebuilt from the\n"
          "snapshot; estimated is the tensor peak of the same pipeline rank. Text adds the\n"
          "largest live allocations at the measured peak and the run's fragmentation.\n"
          "Exit status: 0 done, 1 bad input, 2 missing inputs. More: docs/measured-runs.md\n");
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
  const char *config_path;   /* the --model value */
  const char *log_path;      /* the --log value */
  const cli_args *args;      /* where and how problems are reported */
  FILE *err;
} check_args;

static int check_set(void *target, const char *name, const char *value) {
  check_args *ca = target;
  memest_error e;
  if (value == NULL) {
    memest_code code = strcmp(name, "--log") == 0 ? MEMEST_OK : memest_params_set(&ca->p, name, "", &e);
    return cli_no_value(ca->args, ca->err, name, code, &e);
  }
  if (strcmp(name, "--log") == 0) {
    ca->log_path = value;
    return -1;
  }
  if (strcmp(name, "--model") == 0) ca->config_path = value;
  if (memest_params_set(&ca->p, name, value, &e) != MEMEST_OK) {
    return check_fail(ca->args, ca->err, &e, NULL);
  }
  return -1;
}

int memest_cli_check(int argc, char **argv, FILE *out, FILE *err) {
  memest_error e;
  memest_check_input *in = NULL;
  check_args ca;
  cli_args args = {"memest check", NULL, 0, NULL};
  const char *log_path, *config_path;
  char **rest = NULL;
  memest_runlog *log = NULL;
  memest_check *chk = NULL;
  char *config = NULL, *report = NULL;
  size_t config_len = 0;
  int n = 0, nrest = 0, i, rc = 1, in_snapshots = 0;
  memest_params_init(&ca.p);
  ca.config_path = ca.log_path = NULL;
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
  log_path = ca.log_path;
  config_path = ca.config_path;
  if (n == 0 && log_path == NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_MISSING, "snapshot",
                       "give --snapshot FILE... or --log FILE; see memest check --help");
    goto done;
  }
  if (memest_validate("{}", 2, &ca.p, &e, 1) > 0 && e.code == MEMEST_E_MISSING) {
    rc = check_fail(&args, err, &e, NULL);
    goto done;
  }
  if ((rc = refuse_same_rank(&args, err, in, n)) >= 0) goto done;
  rc = 1;
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
  if (log_path != NULL) {
    size_t len = 0;
    char why[1200];
    char *text = cli_read_file(log_path, MEMEST_INPUT_LOG, &len, why, sizeof why);
    memest_code code;
    if (text == NULL) {
      rc = cli_fail_text(&args, err, MEMEST_E_IO, "log", "%s", why);
      goto done;
    }
    code = memest_runlog_read(text, len, &log, &e);
    free(text);
    if (code != MEMEST_OK) {
      rc = check_fail(&args, err, &e, log_path);
      goto done;
    }
  }
  if (memest_check_run(config, config_len, &ca.p, in, n, log, &chk, &e) != MEMEST_OK) {
    rc = check_fail(&args, err, &e, NULL);
    goto done;
  }
  report = args.json ? memest_check_json(chk) : memest_check_text(chk);
  if (report == NULL) {
    rc = cli_fail_text(&args, err, MEMEST_E_NOMEM, "", "out of memory writing the report");
    goto done;
  }
  fprintf(out, "%s%s", report, args.json ? "\n" : "");
  rc = 0;
done:
  memest_free(report);
  memest_check_free(chk);
  memest_runlog_free(log);
  for (i = 0; i < n; i++) memest_snapshot_free((memest_snapshot *)in[i].snapshot);
  free(in);
  free(rest);
  free(config);
  return rc;
}
