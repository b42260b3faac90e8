/*
** command.c — memest_command (include/memest_command.h): the whole command
** run as a function, its stdout and stderr kept in memory, for the shared
** library that the Python package loads. The program's main (main.c)
** writes the same reports to the real streams.
*/
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Closes a memory stream and hands its text over; 0, or -1 when a write
** into it failed (out of memory), with the text freed. */
static int take_stream(FILE *f, char **text, size_t *len) {
  int lost = ferror(f) != 0;
  if (fclose(f) != 0) lost = 1;
  if (lost) {
    free(*text);
    *text = NULL;
    *len = 0;
    return -1;
  }
  return 0;
}

int memest_command(int argc, const char *const *argv, const memest_command_input *in,
                   char **out, size_t *out_len, char **err, size_t *err_len) {
  FILE *o, *e;
  int rc, lost;
  *out = *err = NULL;
  *out_len = *err_len = 0;
  if (argc < 1 || argv == NULL) return -1;
  o = open_memstream(out, out_len);
  e = o != NULL ? open_memstream(err, err_len) : NULL;
  if (e == NULL) {
    if (o != NULL) take_stream(o, out, out_len);
    free(*out);
    *out = NULL;
    return -1;
  }
  /* The command reads argv and never writes into it. */
  rc = memest_cli_run_given(argc, (char **)argv, in, o, e);
  lost = take_stream(o, out, out_len) != 0;
  lost |= take_stream(e, err, err_len) != 0;
  if (lost) {
    free(*out);
    free(*err);
    *out = *err = NULL;
    *out_len = *err_len = 0;
    return -1;
  }
  return rc;
}
