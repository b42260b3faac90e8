/*
** cli_plan.c — the `memest plan` and `memest compare` subcommands: flags
** (numeric ones as comma lists) into a memest_plan_request, the model from
** a preset or a config.json, and the plan's text or JSON report. A plain
** client of the library: it includes memest.h only, and reads its
** arguments through the parser memest shares (args.c). Exit status: 0
** done, 1 bad input, 2 missing inputs. Design note: docs/planner.md.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memest.h"

/* memest plan --help. */
static const char plan_usage[] =
    "memest plan — planning questions answered by sweeping estimates\n\n"
    "Usage:\n"
    "  memest plan --model M --gpu G --global-batch-size N --sequence-length N\n"
    "              (--total-gpus N | --nodes N --gpus-per-node G | --dp N) [inputs]\n"
    "      every valid (pp, ep, cp, dp, mbs) layout, the answer first (--objective), each\n"
    "      with its pipeline bubble and tokens/s; invalid layouts are counted by reason\n"
    "  memest plan ... --vary pp|ep|cp|dp|gpus|nodes|mbs|gbs|seq\n"
    "      each value of one input (all other inputs given once) with its peak and status;\n"
    "      the answer is the smallest OK value (the largest for mbs, gbs and seq)\n\n"
    "Inputs; every numeric one takes a comma list (--micro-batch-size 1,2,4):\n"
    "  --pp-size LIST          default: every value 1..layers/2 within the GPUs\n"
    "  --ep-size LIST          default: the divisors of the expert count up to 32\n"
    "  --cp-size LIST          default: the powers of two the architecture and sequence allow\n"
    "  --micro-batch-size LIST default: 1,2,4\n"
    "  --total-gpus LIST       GPUs; dp = GPUs / (pp*ep*cp)\n"
    "  --nodes LIST            GPUs as nodes, with --gpus-per-node\n"
    "  --dp LIST               pins the data-parallel degree (GPUs = pp*ep*cp*dp)\n"
    "  --gpus-per-node G       GPUs come in whole nodes of G; rows show the nodes\n"
    "  --ep-across-nodes avoid|allow  with --gpus-per-node: avoid (default) ranks a layout\n"
    "                          whose EP group spans nodes (ep marked *) after the others\n"
    "  --global-batch-size LIST, --sequence-length LIST   required\n"
    "  --model, --gpu | --gpu-memory-gb, --optimizer, --sharding, --fp8-training,\n"
    "  --ep-imbalance, --fragmentation, --routing, --routing-factor, --nvlink-gb-per-s,\n"
    "  --network-gbit-per-s, --efficiency   as for memest (--efficiency takes one value)\n"
    "  --objective throughput|headroom  the answer among the OK layouts: the most tokens/s\n"
    "                          (default; the most headroom when the GPU has no speed, i.e.\n"
    "                          --gpu-memory-gb without --gpu) or the most headroom\n"
    "  --min-routing-margin F  keep only layouts that still fit when the busiest EP rank\n"
    "                          receives F x the uniform tokens (each row shows its margin)\n"
    "  --vary NAME             answer \"which value of NAME?\" instead of ranking layouts\n"
    "  --top N                 rows in the text report (default 20, 0 = all)\n"
    "  --script PATH           the model, batch, sequence, GPUs and options from a trainer\n"
    "                          launch script; the plan sweeps the layout (flags win)\n"
    "  --require fits|ok       exit 3 when no row fits (fits) or none is OK (ok)\n"
    "  --json                  one JSON object {rows, answer, invalid, ...}\n\n"
    "Example: memest plan --model qwen3-235b-a22b --gpu b200 --gpus-per-node 8 --ep-size 8\n"
    "         --cp-size 1 --dp 1 --micro-batch-size 1 --global-batch-size 1024\n"
    "         --sequence-length 2048 --vary pp\n"
    "Exit status: 0 done, 1 bad input, 2 missing inputs. More: docs/planner.md\n";

/* memest compare --help. */
static const char compare_usage[] =
    "memest compare — two or more configurations side by side\n\n"
    "Usage: memest compare --model M --gpu G --pp-size N --ep-size N --cp-size N\n"
    "              (--total-gpus N | --nodes N --gpus-per-node G | --dp N)\n"
    "              --micro-batch-size N --global-batch-size N --sequence-length N\n\n"
    "Give any inputs comma lists (--sequence-length 4096,8192, --optimizer adamw,muon):\n"
    "configuration k takes the k-th value of every list, so lists have one value or as\n"
    "many as there are configurations. Each configuration's static and dynamic\n"
    "components (its worst rank at its peak) are shown with their deltas against the\n"
    "first. --json prints {rows, answer, invalid, ...}, each row with its components and\n"
    "a delta object. The answer is the configuration that fits with the most tokens/s\n"
    "(--objective throughput, the default) or the most headroom (--objective headroom).\n"
    "--schedules all (or --schedule dualpipev,1f1b,...) sets the pipeline schedules side\n"
    "by side: DualPipeV, 1F1B, interleaved 1F1B, ZB-H1 and DualPipe, each with its stages,\n"
    "activations and parameters per GPU in stages, replayed bubble, peak and tokens/s\n"
    "(\"schedules\" in --json; docs/schedules.md).\n"
    "--script PATH takes every input flags do not give from a trainer\n"
    "launch script; --require fits|ok exits 3 when any configuration is OOM (fits) or\n"
    "TIGHT or OOM (ok). Exit status: 0 done, 1 bad input, 2 missing inputs, 3 refused.\n"
    "More: docs/planner.md\n";

/* The two subcommands: the plan each asks for and its --help. */
typedef struct plan_command {
  const char *name;
  memest_plan_mode mode;
  const char *usage;
} plan_command;

static const plan_command plan_commands[] = {
  {"plan", MEMEST_PLAN_LAYOUTS, plan_usage},
  {"compare", MEMEST_PLAN_COMPARE, compare_usage},
};

/* The row of cmd (memest dispatches only "plan" and "compare" here). */
static const plan_command *command_of(const char *cmd) {
  return &plan_commands[strcmp(cmd, plan_commands[1].name) == 0];
}

/* The request being filled, for cli_parse. */
typedef struct plan_args {
  memest_plan_request *req;
  const char *cmd;   /* "plan" or "compare" */
  cli_source_args src;   /* --script, --trainer-commit, --require */
  FILE *err;
  const cli_args *args;
} plan_args;

/* Reports err as every command does; in text, missing inputs point to the
** subcommand's help. */
static int plan_fail(const plan_args *pa, const memest_error *err) {
  int rc = cli_fail(pa->args, pa->err, err);
  if (!pa->args->json && err->code == MEMEST_E_MISSING) {
    fprintf(pa->err, "memest %s: see memest %s --help\n", pa->cmd, pa->cmd);
  }
  return rc;
}

static int plan_set(void *target, const char *name, const char *value) {
  plan_args *pa = target;
  memest_error err;
  if (value == NULL) {
    memest_code code = cli_source_flag(&pa->src, name, NULL, 0)
                           ? MEMEST_E_VALUE : memest_plan_request_set(pa->req, name, "", &err);
    return cli_no_value(pa->args, pa->err, name, code, &err);
  }
  if (cli_source_flag(&pa->src, name, value, 0)) return -1;
  if (memest_plan_request_set(pa->req, name, value, &err) != MEMEST_OK) return plan_fail(pa, &err);
  return -1;
}

/* The model's config text (NULL for a preset), and where it came from in
** the request. */
static int load_model(const plan_args *pa, char **config, size_t *len) {
  char why[1200];
  cli_model m;
  memest_code code = cli_load_model(pa->req->base.model, pa->args->prog, pa->err, &m, why,
                                     sizeof why);
  *config = m.config;
  *len = m.len;
  if (code != MEMEST_OK) return cli_fail_text(pa->args, pa->err, code, "model", "%s", why);
  pa->req->base.model_source = m.source;
  return -1;
}

/* --require over a plan's rows: plan passes when a row meets it, compare
** when every configuration does. 0, or 3 with a line on err. */
static int plan_gate(const plan_args *pa, const memest_plan *plan) {
  int i, n = memest_plan_row_count(plan), pass = 0, fail = 0, worst = MEMEST_FITS_OK;
  const char *req = pa->src.require;
  if (req == NULL) return 0;
  for (i = 0; i < n; i++) {
    int s = memest_plan_row_status(plan, i);
    int ok = s >= 0 && (strcmp(req, "ok") == 0 ? s == MEMEST_FITS_OK : s != MEMEST_FITS_OOM);
    if (s < 0) continue;
    pass += ok;
    fail += !ok;
    if (!ok && s > worst) worst = s;
  }
  if (pa->req->mode == MEMEST_PLAN_COMPARE ? fail == 0 && pass > 0 : pass > 0) return 0;
  if (pa->req->mode == MEMEST_PLAN_COMPARE)
    return cli_gate(pa->args, pa->err, req, (memest_status)worst, "a configuration");
  fprintf(pa->err, "%s: --require %s: no layout of the plan is %s; exit 3\n", pa->args->prog, req,
          strcmp(req, "ok") == 0 ? "OK" : "OK or TIGHT");
  return 3;
}

/* The trainer's files read, the model loaded and the plan run into *plan;
** -1 to go on. */
static int run_plan(const plan_args *pa, cli_source *src, memest_plan **plan) {
  memest_error err;
  char *config = NULL;
  size_t len = 0;
  int rc = cli_source_read(pa->args, pa->err, &pa->src, src);
  if (rc < 0) rc = cli_source_apply_plan(pa->args, pa->err, src, pa->req);
  if (rc < 0) rc = load_model(pa, &config, &len);
  if (rc < 0 && memest_plan_run(config, len, pa->req, plan, &err) != MEMEST_OK) {
    if (err.code == MEMEST_E_MISSING) cli_source_missing(pa->args, pa->err, src);
    rc = plan_fail(pa, &err);
  }
  free(config);
  return rc;
}

/* The report (after the trainer files' summary, in text) on out, then the
** --require gate. */
static int plan_report(const plan_args *pa, const cli_source *src, const memest_plan *plan,
                       FILE *out) {
  int json = pa->args->json;
  char *text = json ? memest_plan_json(plan) : memest_plan_text(plan);
  if (text != NULL && !json && src->run != NULL) {
    char *head = memest_trainer_run_text(src->run);
    if (head == NULL) {
      memest_free(text);
      text = NULL;
    } else {
      fprintf(out, "%s\n", head);
      memest_free(head);
    }
  }
  if (text == NULL)
    return cli_fail_text(pa->args, pa->err, MEMEST_E_NOMEM, "", "out of memory writing the report");
  fprintf(out, "%s%s", text, json ? "\n" : "");
  memest_free(text);
  return plan_gate(pa, plan);
}

int memest_cli_plan(int argc, char **argv, const memest_command_input *given, FILE *out, FILE *errf) {
  memest_plan_request *req = malloc(sizeof *req);
  memest_plan *plan = NULL;
  const plan_command *command = command_of(argv[1]);
  char prog[32];
  int rc;
  plan_args pa;
  cli_args args = {prog, NULL, 0, out};
  cli_source src;
  memset(&pa, 0, sizeof pa);
  memset(&src, 0, sizeof src);
  pa.req = req;
  pa.cmd = argv[1];
  pa.err = errf;
  pa.args = &args;
  pa.src.given = given;
  snprintf(prog, sizeof prog, "memest %s", pa.cmd);
  if (req == NULL) {
    fprintf(errf, "%s: error: out of memory\n", prog);
    return 1;
  }
  memest_plan_request_init(req, command->mode);
  rc = cli_parse(argc, argv, 2, NULL, &args, plan_set, &pa, errf);
  if (rc < 0 && args.action != NULL) {
    fputs(command->usage, out);
    rc = 0;
  }
  if (rc < 0) rc = run_plan(&pa, &src, &plan);
  if (rc < 0) rc = plan_report(&pa, &src, plan, out);
  memest_plan_free(plan);
  free(req);
  cli_source_free(&src);
  return rc;
}
