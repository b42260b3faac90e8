/*
** fuzz_cli.c — libFuzzer target: the memest command's argument handling,
** through memest_cli_run() in cli/main.c (memest, memest plan and memest
** compare, with the argument parser they share in cli/args.c, and the
** trainer's files of cli/cli_sources.c). Every run returns 0, 1, 2 or 3
** (--require refused the verdict) and prints: the report on stdout for 0
** and 3 (with the reason on stderr for 3), a message on stderr otherwise;
** everything it prints is safe for a terminal, and with --json stdout is
** one strict UTF-8 JSON object. Seeds: corpus/cli/.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>

#include "cli.h"
#include "fuzz_common.h"

/* The input is the argument list, NUL-separated. An argument that names a
** path (holds '/') is replaced by one of a few known files (a config, a
** directory, a missing file, a launch script, a log, a W&B run), so that
** the target never reads what the fuzzer invents. The command writes into
** two memory streams. */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ARGS_MAX 48

static const char *const known_paths[] = {
  "presets/qwen3-30b-a3b.json",
  "presets/deepseek-v3.json",
  "presets/mixtral-8x7b.json",
  "tests/fuzz",
  "tests/fuzz/no-such-config.json",
  "tests/trainer/checkout/benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py",
  "tests/trainer/scripts/refused-expression.py",
  "tests/trainer/logs/restarted.log",
  "tests/trainer/wandb/run-20260723_100000-core",
};

/* A stand-in for a path: the same known file for the same argument. */
static const char *known_path(const char *arg) {
  uint32_t h = 2166136261u;
  for (; *arg; arg++) h = (h ^ (unsigned char)*arg) * 16777619u;
  return known_paths[h % (sizeof known_paths / sizeof known_paths[0])];
}

/* Whether an argument after the command's name is `flag` (or, with
** alias, that other spelling). */
static int has_arg(int argc, char **argv, const char *flag, const char *alias) {
  int i;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], flag) == 0 || (alias != NULL && strcmp(argv[i], alias) == 0)) return 1;
  }
  return 0;
}

static int asks_json(int argc, char **argv) { return has_arg(argc, argv, "--json", NULL); }
static int asks_help(int argc, char **argv) { return has_arg(argc, argv, "--help", "-h"); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cJSON *doc;
  char *buf = malloc(size + 1), *argv[FUZZ_ARGS_MAX + 2], *out_text = NULL, *err_text = NULL;
  size_t at = 0, out_len = 0, err_len = 0;
  int argc = 1, rc;
  FILE *out, *err;
  if (buf == NULL) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  argv[0] = "memest";
  while (size > 0 && at <= size && argc < FUZZ_ARGS_MAX + 1) {
    char *arg = buf + at;
    size_t n = strlen(arg);
    argv[argc++] = strchr(arg, '/') != NULL ? (char *)known_path(arg) : arg;
    at += n + 1;
  }
  argv[argc] = NULL;
  out = open_memstream(&out_text, &out_len);
  err = open_memstream(&err_text, &err_len);
  FUZZ_REQUIRE(out != NULL && err != NULL);
  rc = memest_cli_run(argc, argv, out, err);
  fclose(out);
  fclose(err);
  FUZZ_REQUIRE(rc == 0 || rc == 1 || rc == 2 || rc == 3);
  if (rc == 0) FUZZ_REQUIRE(out_len > 0);
  else if (rc == 3) FUZZ_REQUIRE(out_len > 0 && err_len > 0);
  /* With --json an error is one {"error": ...} object on stdout. */
  else FUZZ_REQUIRE(err_len > 0 || (out_len > 0 && strncmp(out_text, "{\"error\":", 9) == 0));
  /* Whatever the arguments held, nothing reaches a terminal raw. */
  FUZZ_REQUIRE(fuzz_terminal_safe(out_text, out_len));
  FUZZ_REQUIRE(fuzz_terminal_safe(err_text, err_len));
  /* With --json, stdout is one strict UTF-8 JSON object and a newline
  ** (--help alone answers in text). */
  if (asks_json(argc, argv) && !(asks_help(argc, argv) && (out_len == 0 || out_text[0] != '{'))) {
    FUZZ_REQUIRE(out_len > 1 && out_text[out_len - 1] == '\n');
    out_text[out_len - 1] = '\0';
    doc = fuzz_strict_json(out_text, out_len - 1);
    FUZZ_REQUIRE(cJSON_IsObject(doc));
    cJSON_Delete(doc);
  }
  free(out_text);
  free(err_text);
  free(buf);
  return 0;
}
