/*
** main.c — the memest program and its subcommands' dispatch. The command
** writes its report into memory; deliver() then writes it to stdout and
** checks every write and the close, and checks stderr: a write that fails
** (a full disk, a closed stdout) exits 1 with a message on stderr, or
** with no message when stderr itself failed. A reader that went away (a
** broken pipe) ends the program as SIGPIPE does, quietly. The main is left
** out (MEMEST_CLI_NO_MAIN) where a test drives the command as a function.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream, sigprocmask */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int memest_cli_run_given(int argc, char **argv, const memest_command_input *given, FILE *out,
                         FILE *err) {
  if (argc >= 2 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "compare") == 0))
    return memest_cli_plan(argc, argv, given, out, err);
  if (argc >= 2 && strcmp(argv[1], "check") == 0) return memest_cli_check(argc, argv, given, out, err);
  return memest_cli_main(argc, argv, given, out, err);
}

int memest_cli_run(int argc, char **argv, FILE *out, FILE *err) {
  return memest_cli_run_given(argc, argv, NULL, out, err);
}

#ifndef MEMEST_CLI_NO_MAIN
/* The reader of stdout is gone: end as the default action of SIGPIPE
** would have (status 128 + 13 in a shell), even where SIGPIPE was ignored
** or blocked, with nothing on stderr. */
static int broken_pipe(void) {
  sigset_t pipe_only;
  signal(SIGPIPE, SIG_DFL);
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigprocmask(SIG_UNBLOCK, &pipe_only, NULL);
  raise(SIGPIPE);
  return 1;   /* not reached where signals are delivered */
}

/* Writes the n bytes of text to fd 1; 0, or -1 with errno set. */
static int write_all(const char *text, size_t n) {
  while (n > 0) {
    ssize_t put = write(STDOUT_FILENO, text, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return -1;
    text += put;
    n -= (size_t)put;
  }
  return 0;
}

/* Hands the report (out, a memory stream over *text) to stdout, checks
** every write and the close of both streams, and returns the exit status:
** the command's rc, or 1 when a write failed. */
static int deliver(int rc, const char *prog, FILE *out, char **text, size_t *len) {
  int lost = ferror(out) != 0, why = ENOMEM;
  if (fclose(out) != 0) lost = 1;
  if (!lost && *len > 0 && write_all(*text, *len) != 0) {
    lost = 1;
    why = errno;
  }
  free(*text);
  /* Close stdout to see an error the system reports only then (a file on
  ** NFS); a stdout that was closed all along fails only if written to. */
  if (!lost && *len > 0 && close(STDOUT_FILENO) != 0 && errno != EINTR) {
    lost = 1;
    why = errno;
  }
  if (lost && why == EPIPE) return broken_pipe();
  if (lost) {
    fprintf(stderr, "%s: error: cannot write the output to stdout: %s%s\n", prog, strerror(why),
            why == EBADF ? " (stdout is closed; redirect it to a file or a pipe)" : "");
    rc = 1;
  }
  if (fflush(stderr) != 0 || ferror(stderr)) rc = 1;
  return rc;
}

int main(int argc, char **argv) {
  char *text = NULL, prog[32] = "memest";
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  int rc;
  if (argc >= 2 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "compare") == 0 ||
                    strcmp(argv[1], "check") == 0)) {
    snprintf(prog, sizeof prog, "memest %s", argv[1]);
  }
  if (out == NULL) {
    fprintf(stderr, "%s: error: out of memory\n", prog);
    return 1;
  }
  rc = memest_cli_run(argc, argv, out, stderr);
  return deliver(rc, prog, out, &text, &len);
}
#endif
