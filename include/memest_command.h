/*
** memest_command.h — the memest command as a function, for a front end
** that runs in another program's process (the Python package, python/):
** the command line's parsing, files, model lookup, reports and exit
** status, exactly as the `memest` program has them, with what it would
** print returned in memory. The shared library libmemest.so holds it with
** the core; the static core library and the WebAssembly build do not.
** Calls share nothing: one may run in each thread at once.
*/
#ifndef MEMEST_COMMAND_H
#define MEMEST_COMMAND_H

#include <stddef.h>

#include "memest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a caller hands the command beside its arguments. */
typedef struct memest_command_input {
  /* The run's inputs from a live config object (memest_cfg_run_new), taken
  ** as --script's are (flags given too win); NULL for none. Not changed. */
  const memest_trainer_run *run;
  /* The launch script that handed the object over, or NULL: its folder
  ** finds the trainer's root (for training.model) and, named like the
  ** trainer's benchmark folders ("h100-4n8g"), the GPUs, as for --script. */
  const char *script;
  /* The working folder when the object was launched, where the script had
  ** moved to (os.chdir), or NULL for this process's: the trainer finds a
  ** relative training.model and save_location from there. */
  const char *workdir;
} memest_command_input;

/* Runs `memest ARGS...` (argv[0] is the program's name; argv[1] "plan",
** "compare" or "check" picks the subcommand) with `in` (may be NULL).
** What the program would write on stdout is *out and on stderr *err
** (each NUL-terminated, *_len bytes; free them with memest_free()); the
** return value is its exit status, as the program's (README.md, "Command line"). -1 when out of memory,
** with *out and *err NULL. */
int memest_command(int argc, const char *const *argv, const memest_command_input *in,
                   char **out, size_t *out_len, char **err, size_t *err_len);

#ifdef __cplusplus
}
#endif

#endif /* MEMEST_COMMAND_H */
