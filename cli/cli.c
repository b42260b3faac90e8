/*
** cli.c — the `memest` command: flags in the older estimator's form, the
** model from a preset or a config.json, and the text or JSON report. A
** plain client of the library: it includes memest.h and nothing else of
** the core. Exit status: 0 done, 1 bad input, 2 missing parameters.
** memest_cli_main() is the whole command as a function that never exits
** the process (tests/fuzz/fuzz_cli.c calls it); its arguments go through
** the parser the subcommands share (args.c).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memest.h"

static void print_required(FILE *out, const memest_params *p) {
  int id;
  fprintf(out, "memest needs all nine of these parameters:\n");
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    int missing;
    char flag[64];
    if (!pi->required) continue;
    if (id == MEMEST_P_GPU_MEMORY_GB) {
      snprintf(flag, sizeof flag, "--gpu-memory-gb N | --gpu NAME");
      missing = p != NULL && !((p->given >> MEMEST_P_GPU_MEMORY_GB) & 1u) &&
                !((p->given >> MEMEST_P_GPU) & 1u);
    } else {
      snprintf(flag, sizeof flag, "%s %s", pi->flag, id == MEMEST_P_MODEL ? "PATH|PRESET" : "N");
      missing = p != NULL && !((p->given >> id) & 1u);
    }
    fprintf(out, "  %-32s %s; %s%s\n", flag, pi->meaning, pi->choose,
            missing ? "   [missing]" : "");
  }
  fprintf(out, "Example: memest --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 "
               "--total-gpus 32 --micro-batch-size 1 --global-batch-size 1024 "
               "--sequence-length 4096 --gpu h100\n");
}

static void print_help(FILE *out) {
  int id;
  fprintf(out, "memest %s — peak GPU memory of DualPipeV MoE training (FSDP, EP, CP)\n\n",
          memest_version());
  fprintf(out, "Usage: memest --model PATH|PRESET --pp-size N --ep-size N --cp-size N --total-gpus N\n"
               "              --micro-batch-size N --global-batch-size N --sequence-length N\n"
               "              (--gpu-memory-gb N | --gpu NAME) [options]\n"
               "       memest --script PATH [flags]  the inputs from a trainer launch script\n"
               "       memest plan|compare ...  sweeps and side-by-side runs (memest plan --help)\n"
               "       memest check ...  measured snapshots and logs beside the estimate\n\n");
  fprintf(out, "Parameters:\n");
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    char choices[128] = "";
    if (pi->choices[0]) snprintf(choices, sizeof choices, " {%s}", pi->choices);
    fprintf(out, "  %-20s %s%s%s%s%s\n", pi->flag, pi->meaning, choices,
            pi->required ? " [required]" : "", pi->default_text[0] ? "; default " : "",
            pi->default_text);
  }
  fprintf(out, "  %-20s %s\n", "--script PATH", "read the inputs from a trainer launch script (never run); "
               "flags given too win");
  fprintf(out, "  %-20s %s\n", "--trainer-commit H", "the trainer commit the run uses: the report "
               "names what older versions hold differently");
  fprintf(out, "  %-20s %s\n", "--require fits|ok", "exit 3 when the verdict is OOM (fits) or "
               "TIGHT or OOM (ok); the report is printed all the same");
  fprintf(out, "  %-20s %s\n", "--json", "print one JSON object instead of the text report");
  fprintf(out, "  %-20s %s\n", "--list-models", "list the model presets");
  fprintf(out, "  %-20s %s\n", "--list-gpus", "list the GPU presets");
  fprintf(out, "  %-20s %s\n", "--version", "print the version");
}

static void list_models(FILE *out) {
  int i;
  for (i = 0; i < memest_model_preset_count(); i++) {
    fprintf(out, "%-20s %s\n", memest_model_preset_name(i), memest_model_preset_title(i));
  }
}

static void list_gpus(FILE *out) {
  int i;
  for (i = 0; i < memest_gpu_preset_count(); i++) {
    fprintf(out, "%-10s %-20s %.2f GiB\n", memest_gpu_preset_name(i), memest_gpu_preset_title(i),
            (double)memest_gpu_preset_bytes(i) / (1024.0 * 1024.0 * 1024.0));
  }
}

/* The inputs as cli_parse hands them over. */
typedef struct estimate_args {
  memest_params p;
  cli_source_args src;       /* --script, --trainer-commit, --require */
  FILE *err;
  const cli_args *args;
} estimate_args;

static int estimate_set(void *target, const char *name, const char *value) {
  estimate_args *ea = target;
  memest_error e;
  if (cli_source_flag(&ea->src, name, value, 0)) return -1;
  if (memest_params_set(&ea->p, name, value, &e) != MEMEST_OK) return cli_fail(ea->args, ea->err, &e);
  return -1;
}

/* Runs an action flag; returns the exit status. */
static int run_action(const char *action, FILE *out) {
  if (strcmp(action, "--version") == 0) fprintf(out, "memest %s\n", memest_version());
  else if (strcmp(action, "--list-models") == 0) list_models(out);
  else if (strcmp(action, "--list-gpus") == 0) list_gpus(out);
  else print_help(out);
  return 0;
}

/* The memest command: parses argv, prints the report on `out` and every
** message on `err`, and returns the exit status. */
int memest_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  static const char *const actions[] = {"--version", "--list-models", "--list-gpus", NULL};
  estimate_args ea;
  cli_args args = {"memest", NULL, 0, NULL};
  cli_source src;
  memest_error e;
  memest_result *res = NULL;
  const char *config_path;
  char *config = NULL, *report;
  size_t config_len = 0;
  int rc;
  memest_code code;
  memest_status status;
  memest_params_init(&ea.p);
  memset(&ea.src, 0, sizeof ea.src);
  memset(&src, 0, sizeof src);
  ea.err = err;
  ea.args = &args;
  args.out = out;
  if (argc == 1) {
    print_required(err, &ea.p);
    return 2;
  }
  rc = cli_parse(argc, argv, 1, actions, &args, estimate_set, &ea, err);
  if (rc >= 0) return rc;
  if (args.action != NULL) return run_action(args.action, out);
  if ((rc = cli_source_read(&args, err, &ea.src, &src)) >= 0 ||
      (rc = cli_source_apply(&args, err, &src, &ea.p)) >= 0) {
    cli_source_free(&src);
    return rc;
  }
  config_path = ea.p.model;
  if (memest_validate("{}", 2, &ea.p, &e, 1) > 0 && e.code == MEMEST_E_MISSING) {
    cli_source_missing(&args, err, &src);
    cli_source_free(&src);
    if (args.json) return cli_fail(&args, err, &e);
    print_required(err, &ea.p);
    return 2;
  }
  if (cli_model_is_file(config_path)) {
    char why[1200];
    config = cli_read_file(config_path, MEMEST_INPUT_CONFIG, &config_len, why, sizeof why);
    if (config == NULL) {
      cli_source_free(&src);
      return cli_fail_text(&args, err, MEMEST_E_IO, "model", "%s", why);
    }
  }
  code = memest_estimate(config, config_len, &ea.p, &res, &e);
  free(config);
  if (code == MEMEST_OK && src.run != NULL) code = memest_result_set_source(res, src.run, &e);
  cli_source_free(&src);
  if (code != MEMEST_OK) {
    memest_result_free(res);
    return cli_fail(&args, err, &e);
  }
  report = args.json ? memest_result_json(res) : memest_result_text(res);
  status = memest_result_status(res);
  memest_result_free(res);
  if (report == NULL) {
    fprintf(err, "memest: error: out of memory writing the report\n");
    return 1;
  }
  rc = fputs(report, out) < 0 || (args.json && fputs("\n", out) < 0) ? 1 : 0;
  memest_free(report);
  return rc ? rc : cli_gate(&args, err, ea.src.require, status, "the estimate");
}
