/*
** cli.h — what the command's files share: the argument parser and the
** config reader (args.c), `memest` (cli.c), `memest plan` / `memest
** compare` (cli_plan.c), `memest check` (cli_check.c), the dispatch
** between them (main.c), the files they read (files.c) and the model
** --model names (model_lookup.c, with the hub's files behind it, hub.h). Like them,
** it builds on the public API only. Each command writes on the streams it
** is given and never exits the process; whether those writes succeeded is
** the caller's to check on the streams (main.c does, for every command).
** Exit status: 0 done, 1 bad input or a failed write, 2 missing inputs, 3
** the verdict is worse than --require asks.
*/
#ifndef MEMEST_CLI_H
#define MEMEST_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "memest.h"
#include "memest_command.h"

/* What cli_parse met besides the inputs it handed to the setter. */
typedef struct cli_args {
  const char *prog;     /* "memest", "memest plan": the messages' prefix */
  const char *action;   /* the first action flag met (--help, -h, ...), or NULL */
  int json;             /* --json was given (anywhere in argv) */
  FILE *out;            /* where a --json error goes (the report's stream), or NULL */
} cli_args;

/* Hands one input (a flag or its name=value form) to a command; returns
** -1 to go on, else the exit status to stop with. A flag given without a
** value (the last argument, or one followed by another flag) comes with
** value NULL: the setter refuses it with cli_no_value. */
typedef int (*cli_setter)(void *target, const char *name, const char *value);

/* Reads argv[first..] for one command: --json; the flags in `actions`
** (NULL-terminated; --help and -h always) stop the parse with a->action set;
** --detail and --timeline take no value; every other flag takes the next
** argument or its =value and goes to set(target, ...). Returns -1 when the
** command should go on, else the exit status (messages on err). */
int cli_parse(int argc, char **argv, int first, const char *const *actions, cli_args *a,
              cli_setter set, void *target, FILE *err);

/* Reports a problem and returns its exit status (2 for missing inputs, else
** 1): with --json as one JSON object on a->out (memest_error_json), else as
** "<prog>: error: ..." and "<prog>: a valid choice: ..." lines on err, each
** escaped for the terminal (memest_text_escape). */
int cli_fail(const cli_args *a, FILE *err, const memest_error *e);
/* The refusal of flag `name` given without a value: the library's own
** refusal (`code`, `probe`: what its setter said to the name with an
** empty value) when it does not know the name, else "NAME needs a value". */
int cli_no_value(const cli_args *a, FILE *err, const char *name, memest_code code,
                 const memest_error *probe);
/* A problem the command finds itself (not the library), reported likewise. */
int cli_fail_text(const cli_args *a, FILE *err, memest_code code, const char *field,
                  const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Reads a file of `kind` whole (files.c): only a regular file within the
** kind's limit (memest_input_file_describe) is read. A FIFO, a directory, a
** device, a socket or a larger file is refused before its first byte is
** read, and opening it never blocks. NULL with the message in why on
** failure; free the result with free(). */
char *cli_read_file(const char *path, memest_input_file kind, size_t *len, char *why,
                    size_t why_size);
/* The config.json in a model's folder, as transformers reads a folder: 1
** with its path in out when path is a folder (the file may be missing), 0
** when path is no folder, -1 when out is too small for it. */
int cli_folder_config(const char *path, char *out, size_t size);
/* Whether --model names a file (else a preset): a file unless it is a
** preset's name without a '/'. When that name is also a file or a folder
** in the current folder, a warning on err says the preset is read and how
** to read the other (--model ./NAME). */
int cli_model_is_file(const char *model, const char *prog, FILE *err);

/* The model --model names, as cli_load_model() found it. */
typedef struct cli_model {
  char *config;                  /* the config text (free()), or NULL for a preset */
  size_t len;
  memest_model_source source;    /* where it came from: copy into memest_params */
} cli_model;

/* Resolves a --model value (model_lookup.c): a preset, a file or a model's
** folder, or a hub id org/name from a preset, the hub's cache, memest's
** cache or a download. MEMEST_OK, or the code with the message (naming
** the id, the URL and the caches) in why. An empty value is left to the
** library, which reports it missing. A preset's name that also names a
** file here gets cli_model_is_file's warning on err, after prog. */
memest_code cli_load_model(const char *value, const char *prog, FILE *err, cli_model *m,
                           char *why, size_t why_size);

/* {======================================================================
** The trainer's own files as the run's inputs (cli_sources.c)
** ======================================================================= */
typedef struct cli_source_args {
  const char *script;    /* --script PATH */
  const char *log;       /* --log FILE (memest check) */
  const char *wandb;     /* --wandb DIR (memest check) */
  const char *commit;    /* --trainer-commit HASH */
  const char *require;   /* --require fits|ok */
  const memest_command_input *given;   /* a live config object's run (memest_command), or NULL */
} cli_source_args;

typedef struct cli_source {
  memest_trainer_run *run;   /* NULL: the inputs are flags only */
  char root[4096];           /* the trainer's root above a script, or "" */
  char workdir[4096];        /* the working folder a live object was launched from, or "" */
  char *log_text;            /* --log's text, or the W&B run's output.log; NULL */
  size_t log_len;
  const char *log_label;
  char log_name[4200];
  size_t steps_offset;       /* where the steps after the last launch line begin */
  int64_t steps_line;
  int no_launch;             /* --log has no launch line: hint says so */
  char hint[768];
} cli_source;

/* Takes a source flag (--script, --trainer-commit, --require; with check
** also --log and --wandb) into s; 1 when name was one. */
int cli_source_flag(cli_source_args *s, const char *name, const char *value, int check);
/* Reads what the source flags name; -1 to go on, else the exit status. */
int cli_source_read(const cli_args *a, FILE *err, const cli_source_args *s, cli_source *src);
/* Resolves training.model and the checkpoint on this file system and sets
** the run's inputs that no flag gave; -1 to go on, else the exit status. */
int cli_source_apply(const cli_args *a, FILE *err, cli_source *src, memest_params *p);
int cli_source_apply_plan(const cli_args *a, FILE *err, cli_source *src, memest_plan_request *req);
/* A line on err saying what the source could not give (before a missing-input error). */
void cli_source_missing(const cli_args *a, FILE *err, const cli_source *src);
void cli_source_free(cli_source *src);
/* --require: 0 when status meets it (or there is none), else 3 with a line on err. */
int cli_gate(const cli_args *a, FILE *err, const char *require, memest_status status,
             const char *what);
/* }====================================================================== */

/* `memest ...`, `memest plan ...` and `memest compare ...`; `given` (may be
** NULL) is what a caller of memest_command hands beside argv. */
int memest_cli_main(int argc, char **argv, const memest_command_input *given, FILE *out, FILE *err);
int memest_cli_plan(int argc, char **argv, const memest_command_input *given, FILE *out, FILE *err);
/* `memest check ...`: snapshots and a log beside the estimate (cli_check.c). */
int memest_cli_check(int argc, char **argv, const memest_command_input *given, FILE *out,
                     FILE *err);
/* The whole command: argv[1] "plan", "compare" or "check" picks the
** subcommand. */
int memest_cli_run(int argc, char **argv, FILE *out, FILE *err);
int memest_cli_run_given(int argc, char **argv, const memest_command_input *given, FILE *out,
                         FILE *err);

#endif /* MEMEST_CLI_H */
