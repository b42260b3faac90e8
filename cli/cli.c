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
      snprintf(flag, sizeof flag, "%s %s", pi->flag,
               id == MEMEST_P_MODEL ? "PATH|PRESET|ORG/NAME" : "N");
      missing = p != NULL && !((p->given >> id) & 1u);
    }
    fprintf(out, "  %-32s %s; %s%s\n", flag, pi->meaning, pi->choose,
            missing ? "   [missing]" : "");
  }
  fprintf(out, "Example: memest --model qwen3-30b-a3b --pp-size 4 --ep-size 8 --cp-size 1 "
               "--total-gpus 32 --micro-batch-size 1 --global-batch-size 1024 "
               "--sequence-length 4096 --gpu h100\n");
}

/* --help's usage lines. */
static const char usage[] =
    "Usage: memest --model PATH|PRESET|ORG/NAME --pp-size N --ep-size N --cp-size N\n"
    "              --total-gpus N --micro-batch-size N --global-batch-size N\n"
    "              --sequence-length N (--gpu-memory-gb N | --gpu NAME) [options]\n"
    "       memest --script PATH [flags]  the inputs from a trainer launch script\n"
    "       memest plan|compare ...  sweeps and side-by-side runs (memest plan --help)\n"
    "       memest check ...  measured snapshots and logs beside the estimate\n\n";

/* The flags --help lists after the parameters: the command's own. */
static const struct help_flag {
  const char *flag;
  const char *meaning;
} help_flags[] = {
  {"--script PATH", "read the inputs from a trainer launch script (never run); flags given too win"},
  {"--trainer-commit H", "the trainer commit the run uses: the report names what older versions "
                         "hold differently"},
  {"--require fits|ok", "exit 3 when the verdict is OOM (fits) or TIGHT or OOM (ok); the report is "
                        "printed all the same"},
  {"--json", "print one JSON object instead of the text report"},
  {"--list-models", "list the model presets: name and hub id"},
  {"--list-gpus", "list the GPU presets"},
  {"--version", "print the version"},
};

/* --help's last paragraph: where --model looks. */
static const char model_order[] =
    "\nThe model (--model, the same in plan, compare and check), tried in this order:\n"
    "  1. a name without '/': a preset (--list-models), else a file;\n"
    "  2. a path that exists: a config.json, or a model's folder holding one;\n"
    "  3. a hub id org/name: a preset's id (--list-models), else the hub's cache\n"
    "     (HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else\n"
    "     ~/.cache/huggingface/hub), else memest's cache ($XDG_CACHE_HOME/memest/hub,\n"
    "     else ~/.cache/memest/hub), else a download of\n"
    "     ${HF_ENDPOINT:-https://huggingface.co}/ORG/NAME/resolve/main/config.json, kept in\n"
    "     memest's cache; HF_TOKEN is sent as a bearer token (gated models),\n"
    "     HF_HUB_OFFLINE=1 forbids the download, MEMEST_HUB_TIMEOUT sets its limit in\n"
    "     seconds (default 30). Delete the model's folder in memest's cache to download\n"
    "     it again. A missing file that looks like org/name is read as an id: write\n"
    "     ./org/name to mean only a file.\n";

static void print_help(FILE *out) {
  int id;
  fprintf(out, "memest %s — peak GPU memory of DualPipeV MoE training (FSDP, EP, CP)\n\n",
          memest_version());
  fputs(usage, out);
  fprintf(out, "Parameters:\n");
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    char choices[128] = "";
    if (pi->choices[0]) snprintf(choices, sizeof choices, " {%s}", pi->choices);
    fprintf(out, "  %-20s %s%s%s%s%s\n", pi->flag, pi->meaning, choices,
            pi->required ? " [required]" : "", pi->default_text[0] ? "; default " : "",
            pi->default_text);
  }
  for (id = 0; id < (int)(sizeof help_flags / sizeof help_flags[0]); id++)
    fprintf(out, "  %-20s %s\n", help_flags[id].flag, help_flags[id].meaning);
  fputs(model_order, out);
}

/* Each preset by its two names: --model takes either. */
static void list_models(FILE *out) {
  int i;
  for (i = 0; i < memest_model_preset_count(); i++) {
    fprintf(out, "%-20s %s\n", memest_model_preset_name(i), memest_model_preset_id(i));
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
  if (value == NULL) {
    memest_code code = cli_source_flag(&ea->src, name, NULL, 0)
                           ? MEMEST_E_VALUE : memest_params_set(&ea->p, name, "", &e);
    return cli_no_value(ea->args, ea->err, name, code, &e);
  }
  if (cli_source_flag(&ea->src, name, value, 0)) return -1;
  if (memest_params_set(&ea->p, name, value, &e) != MEMEST_OK) return cli_fail(ea->args, ea->err, &e);
  return -1;
}

/* --version, --list-models and --list-gpus with --json: one JSON object
** (docs/result-json.md); returns the exit status. */
static int run_action_json(const cli_args *args, FILE *err) {
  char *json;
  if (strcmp(args->action, "--version") == 0) {
    json = memest_json_string(memest_version());
    if (json != NULL) fprintf(args->out, "{\"memest_version\":%s}\n", json);
  } else {
    json = memest_presets_json(strcmp(args->action, "--list-models") == 0 ? MEMEST_PRESETS_MODELS
                                                                          : MEMEST_PRESETS_GPUS);
    if (json != NULL) fprintf(args->out, "%s\n", json);
  }
  if (json == NULL) return cli_fail_text(args, err, MEMEST_E_NOMEM, "", "out of memory");
  memest_free(json);
  return 0;
}

/* Runs an action flag; returns the exit status. */
static int run_action(const cli_args *args, FILE *err) {
  const char *action = args->action;
  FILE *out = args->out;
  if (args->json && strcmp(action, "--help") != 0 && strcmp(action, "-h") != 0) {
    return run_action_json(args, err);
  }
  if (strcmp(action, "--version") == 0) fprintf(out, "memest %s\n", memest_version());
  else if (strcmp(action, "--list-models") == 0) list_models(out);
  else if (strcmp(action, "--list-gpus") == 0) list_gpus(out);
  else print_help(out);
  return 0;
}

/* Inputs still missing: named (with what the trainer's files gave), then
** the nine required ones listed in text; -1 when none is. */
static int refuse_missing(const cli_args *args, FILE *err, const memest_params *p,
                          const cli_source *src) {
  memest_error e;
  if (!(memest_validate("{}", 2, p, &e, 1) > 0 && e.code == MEMEST_E_MISSING)) return -1;
  cli_source_missing(args, err, src);
  if (args->json) return cli_fail(args, err, &e);
  print_required(err, p);
  return 2;
}

/* The model's config read and the run estimated into *res; -1 to go on. */
static int estimate(const cli_args *args, FILE *err, estimate_args *ea, const cli_source *src,
                    memest_result **res) {
  memest_error e;
  char why[1200];
  cli_model m;
  memest_code code = cli_load_model(ea->p.model, args->prog, err, &m, why, sizeof why);
  if (code != MEMEST_OK) return cli_fail_text(args, err, code, "model", "%s", why);
  ea->p.model_source = m.source;
  code = memest_estimate(m.config, m.len, &ea->p, res, &e);
  free(m.config);
  if (code == MEMEST_OK && src->run != NULL) code = memest_result_set_source(*res, src->run, &e);
  return code != MEMEST_OK ? cli_fail(args, err, &e) : -1;
}

/* The report on args->out, then the --require gate. */
static int report(const cli_args *args, FILE *err, const estimate_args *ea,
                  const memest_result *res) {
  char *text = args->json ? memest_result_json(res) : memest_result_text(res);
  if (text == NULL)
    return cli_fail_text(args, err, MEMEST_E_NOMEM, "", "out of memory writing the report");
  fprintf(args->out, "%s%s", text, args->json ? "\n" : "");
  memest_free(text);
  if (ea->src.require != NULL && !memest_result_run_known(res)) {
    fprintf(err, "%s: --require %s: the run's verdict is not known: only --pp-rank %lld was "
                 "replayed, as every rank would exceed MEMEST_MAX_REPLAY_CHUNKS; exit 3\n",
            args->prog, ea->src.require, (long long)ea->p.pp_rank);
    return 3;
  }
  return cli_gate(args, err, ea->src.require, memest_result_status(res), "the estimate");
}

/* The memest command: parses argv, prints the report on `out` and every
** message on `err`, and returns the exit status. */
int memest_cli_main(int argc, char **argv, const memest_command_input *given, FILE *out, FILE *err) {
  static const char *const actions[] = {"--version", "--list-models", "--list-gpus", NULL};
  estimate_args ea;
  cli_args args = {"memest", NULL, 0, NULL};
  cli_source src;
  memest_result *res = NULL;
  int rc;
  memest_params_init(&ea.p);
  memset(&ea.src, 0, sizeof ea.src);
  ea.src.given = given;
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
  if (args.action != NULL) return run_action(&args, err);
  rc = cli_source_read(&args, err, &ea.src, &src);
  if (rc < 0) rc = cli_source_apply(&args, err, &src, &ea.p);
  if (rc < 0) rc = refuse_missing(&args, err, &ea.p, &src);
  if (rc < 0) rc = estimate(&args, err, &ea, &src, &res);
  cli_source_free(&src);
  if (rc < 0) rc = report(&args, err, &ea, res);
  memest_result_free(res);
  return rc;
}
