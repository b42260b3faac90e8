/*
** cli.c — the `memest` command: flags in the older estimator's form, the
** model from a preset or a config.json, and the text or JSON report. A
** plain client of the library: it includes memest.h and nothing else of
** the core. Exit status: 0 done, 1 bad input, 2 missing parameters.
** memest_cli_main() is the whole command as a function that never exits
** the process (tests/fuzz/fuzz_cli.c calls it); main() only forwards.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memest.h"

#define CONFIG_READ_MAX (4 * 1024 * 1024)

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
               "       memest plan|compare ...  sweeps and side-by-side runs (memest plan --help)\n\n");
  fprintf(out, "Parameters:\n");
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    char choices[128] = "";
    if (pi->choices[0]) snprintf(choices, sizeof choices, " {%s}", pi->choices);
    fprintf(out, "  %-20s %s%s%s%s%s\n", pi->flag, pi->meaning, choices,
            pi->required ? " [required]" : "", pi->default_text[0] ? "; default " : "",
            pi->default_text);
  }
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

char *cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf;
  size_t n;
  if (f == NULL) return NULL;
  buf = malloc(CONFIG_READ_MAX + 1);
  if (buf == NULL) {
    fclose(f);
    errno = ENOMEM;
    return NULL;
  }
  n = fread(buf, 1, CONFIG_READ_MAX + 1, f);
  if (ferror(f)) {
    int e = errno ? errno : EIO;
    free(buf);
    fclose(f);
    errno = e;
    return NULL;
  }
  fclose(f);
  buf[n < CONFIG_READ_MAX ? n : CONFIG_READ_MAX] = '\0';
  *len = n;
  return buf;
}

/* With --json, an error is one JSON object on stdout (memest_error_json). */
static int fail_json(FILE *out, const memest_error *e) {
  char *text = memest_error_json(e);
  if (text != NULL) {
    fputs(text, out);
    fputs("\n", out);
    memest_free(text);
  }
  return e->code == MEMEST_E_MISSING ? 2 : 1;
}

static int fail(FILE *ferr, const memest_error *e) {
  fprintf(ferr, "memest: error: %s\n", e->message);
  if (e->fix[0]) fprintf(ferr, "memest: a valid choice: %s\n", e->fix);
  return e->code == MEMEST_E_MISSING ? 2 : 1;
}

/* A problem the command itself finds (not the library's), as an error. */
static memest_error cli_error(memest_code code, const char *field, const char *message) {
  memest_error e;
  memset(&e, 0, sizeof e);
  e.code = code;
  snprintf(e.field, sizeof e.field, "%s", field);
  snprintf(e.message, sizeof e.message, "%s", message);
  return e;
}

static int is_flag(const char *a, const char *name) { return strcmp(a, name) == 0; }

/* The memest command: parses argv, prints the report on `out` and every
** message on `err`, and returns the exit status. */
int memest_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  memest_params p;
  memest_error e;
  memest_result *res = NULL;
  const char *config_path = NULL;
  char *config = NULL, *report;
  size_t config_len = 0;
  int json = 0, i, rc;
  memest_code code;
  memest_params_init(&p);
  for (i = 1; i < argc; i++) json |= is_flag(argv[i], "--json");
  if (argc == 1) {
    print_required(err, &p);
    return 2;
  }
  for (i = 1; i < argc; i++) {
    const char *a = argv[i], *eq = strchr(a, '='), *value;
    char name[64];
    if (is_flag(a, "--help") || is_flag(a, "-h")) {
      print_help(out);
      return 0;
    }
    if (is_flag(a, "--version")) {
      fprintf(out, "memest %s\n", memest_version());
      return 0;
    }
    if (is_flag(a, "--list-models")) {
      list_models(out);
      return 0;
    }
    if (is_flag(a, "--list-gpus")) {
      list_gpus(out);
      return 0;
    }
    if (is_flag(a, "--json")) continue;
    if (strncmp(a, "--", 2) != 0) {
      char msg[400];
      snprintf(msg, sizeof msg, "unexpected argument '%.200s'; flags start with --, see memest --help", a);
      if (json) {
        memest_error ue = cli_error(MEMEST_E_UNKNOWN, "", msg);
        return fail_json(out, &ue);
      }
      fprintf(err, "memest: error: %s\n", msg);
      return 1;
    }
    if (eq != NULL) {
      snprintf(name, sizeof name, "%.*s", (int)(eq - a) < 63 ? (int)(eq - a) : 63, a);
      value = eq + 1;
    } else if (is_flag(a, "--detail") || is_flag(a, "--timeline")) {
      snprintf(name, sizeof name, "%s", a);
      value = "true";
    } else {
      snprintf(name, sizeof name, "%s", a);
      if (i + 1 >= argc) {
        char msg[200];
        snprintf(msg, sizeof msg, "%.60s needs a value; see memest --help", a);
        if (json) {
          memest_error ve = cli_error(MEMEST_E_VALUE, "", msg);
          return fail_json(out, &ve);
        }
        fprintf(err, "memest: error: %s\n", msg);
        return 1;
      }
      value = argv[++i];
    }
    if (strcmp(name, "--model") == 0) config_path = value;
    code = memest_params_set(&p, name, value, &e);
    if (code != MEMEST_OK) return json ? fail_json(out, &e) : fail(err, &e);
  }
  if (memest_validate("{}", 2, &p, &e, 1) > 0 && e.code == MEMEST_E_MISSING) {
    if (json) return fail_json(out, &e);
    print_required(err, &p);
    return 2;
  }
  if (memest_model_preset_config(config_path) == NULL || strchr(config_path, '/') != NULL) {
    config = cli_read_file(config_path, &config_len);
    if (config == NULL) {
      char msg[700];
      snprintf(msg, sizeof msg,
               "cannot read config file '%.400s': %s; give a config.json path or a preset "
               "(memest --list-models)",
               config_path, strerror(errno));
      if (json) {
        memest_error ie = cli_error(MEMEST_E_IO, "model", msg);
        return fail_json(out, &ie);
      }
      fprintf(err, "memest: error: %s\n", msg);
      return 1;
    }
  }
  code = memest_estimate(config, config_len, &p, &res, &e);
  free(config);
  if (code != MEMEST_OK) return json ? fail_json(out, &e) : fail(err, &e);
  report = json ? memest_result_json(res) : memest_result_text(res);
  memest_result_free(res);
  if (report == NULL) {
    fprintf(err, "memest: error: out of memory writing the report\n");
    return 1;
  }
  rc = fputs(report, out) < 0 || (json && fputs("\n", out) < 0) ? 1 : 0;
  memest_free(report);
  return rc;
}

#ifndef MEMEST_CLI_NO_MAIN
int main(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "compare") == 0))
    return memest_cli_plan(argc, argv);
  return memest_cli_main(argc, argv, stdout, stderr);
}
#endif
