/*
** main.c — the memest program: hands argv to memest_cli_run() on stdout
** and stderr. Left out (MEMEST_CLI_NO_MAIN) where a test drives the
** command as a function.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"

int memest_cli_run(int argc, char **argv, FILE *out, FILE *err) {
  if (argc >= 2 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "compare") == 0))
    return memest_cli_plan(argc, argv, out, err);
  if (argc >= 2 && strcmp(argv[1], "check") == 0) return memest_cli_check(argc, argv, out, err);
  return memest_cli_main(argc, argv, out, err);
}

#ifndef MEMEST_CLI_NO_MAIN
int main(int argc, char **argv) { return memest_cli_run(argc, argv, stdout, stderr); }
#endif
