/*
** cli.h — what the command's two files share: `memest` (cli.c) and its
** `plan` / `compare` subcommands (cli_plan.c). Like them, it builds on the
** public API only.
*/
#ifndef MEMEST_CLI_H
#define MEMEST_CLI_H

#include <stddef.h>
#include <stdio.h>

/* The `memest` command without exiting the process; output goes to out
** and err. Returns the exit status: 0 done, 1 bad input, 2 missing. */
int memest_cli_main(int argc, char **argv, FILE *out, FILE *err);
/* `memest plan ...` and `memest compare ...`, on stdout and stderr. */
int memest_cli_plan(int argc, char **argv);
/* `memest check ...`: snapshots and a log beside the estimate. */
int memest_cli_check(int argc, char **argv, FILE *out, FILE *err);
/* Reads a config file whole (up to 4 MiB and one byte, so the library can
** refuse an oversized one by its own limit). NULL with errno on failure;
** free the result with free(). */
char *cli_read_file(const char *path, size_t *len);

#endif /* MEMEST_CLI_H */
