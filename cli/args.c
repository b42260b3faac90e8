/*
** args.c — the one argument parser of memest, memest plan and memest
** compare (flags as --name value or --name=value, value-less booleans,
** --json and the action flags).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memest.h"

static int is_action(const char *a, const char *const *actions) {
  int i;
  if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return 1;
  for (i = 0; actions != NULL && actions[i] != NULL; i++) {
    if (strcmp(a, actions[i]) == 0) return 1;
  }
  return 0;
}

int cli_fail(const cli_args *a, FILE *err, const memest_error *e) {
  if (a->json && a->out != NULL) {
    char *text = memest_error_json(e);
    if (text == NULL) {
      fprintf(err, "%s: error: out of memory writing an error\n", a->prog);
      return 1;
    }
    fprintf(a->out, "%s\n", text);
    memest_free(text);
  } else {
    /* A message quotes file names, config keys and values as given:
    ** printed, each is escaped for the terminal. */
    char text[4 * sizeof e->message];
    memest_text_escape(text, sizeof text, e->message);
    fprintf(err, "%s: error: %s\n", a->prog, text);
    if (e->fix[0]) {
      memest_text_escape(text, sizeof text, e->fix);
      fprintf(err, "%s: a valid choice: %s\n", a->prog, text);
    }
  }
  return e->code == MEMEST_E_MISSING ? 2 : 1;
}

int cli_no_value(const cli_args *a, FILE *err, const char *name, memest_code code,
                 const memest_error *probe) {
  char field[48];
  size_t k;
  /* The library refuses a name it does not know with no field to fix. */
  if (code == MEMEST_E_UNKNOWN && probe->field[0] == '\0') return cli_fail(a, err, probe);
  /* The field is the flag's snake_case name: --pp-size, pp_size. */
  for (k = 0; name[k + 2] != '\0' && k + 1 < sizeof field; k++) {
    field[k] = name[k + 2] == '-' ? '_' : name[k + 2];
  }
  field[k] = '\0';
  return cli_fail_text(a, err, MEMEST_E_VALUE, field, "%.60s needs a value; see %s --help", name,
                       a->prog);
}

int cli_fail_text(const cli_args *a, FILE *err, memest_code code, const char *field,
                  const char *fmt, ...) {
  memest_error e;
  va_list ap;
  memset(&e, 0, sizeof e);
  e.code = code;
  snprintf(e.field, sizeof e.field, "%s", field);
  va_start(ap, fmt);
  vsnprintf(e.message, sizeof e.message, fmt, ap);
  va_end(ap);
  return cli_fail(a, err, &e);
}

/* Flags accepted so far, for refusing a repeated one. Every accepted name
** is a known flag, so the table fills only past a repeat: 64 suffice. */
typedef struct seen_flags {
  char name[64][64];
  int n;
} seen_flags;

/* Whether name was given before; records it otherwise. */
static int seen_before(seen_flags *sf, const char *name) {
  int k;
  for (k = 0; k < sf->n; k++) {
    if (strcmp(sf->name[k], name) == 0) return 1;
  }
  if (sf->n < 64) snprintf(sf->name[sf->n++], sizeof sf->name[0], "%s", name);
  return 0;
}

/* An argument that is no flag --name[=value] memest reads (--json with a
** value, or no leading --), refused; -1 when it is one. */
static int refuse_form(const cli_args *a, FILE *err, const char *arg) {
  if (strncmp(arg, "--json=", 7) == 0)
    return cli_fail_text(a, err, MEMEST_E_VALUE, "json",
                         "--json takes no value; give --json alone for one JSON object, or "
                         "leave it out for the text report");
  if (strncmp(arg, "--", 2) != 0)
    return cli_fail_text(a, err, MEMEST_E_UNKNOWN, "",
                         "unexpected argument '%.200s'; flags start with --, see %s --help", arg,
                         a->prog);
  return -1;
}

/* The name (at most 63 bytes) and value of the flag at argv[*i]: after
** '=', "true" for a boolean, else the next argument (*i moves past it).
** The value is NULL when none is given: a value never starts with "--",
** so "--pp-size --json" is a flag without its value, not a pipeline of
** size "--json". */
static const char *flag_value(int argc, char **argv, int *i, char name[64]) {
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  if (eq != NULL) {
    snprintf(name, 64, "%.*s", (int)(eq - arg) < 63 ? (int)(eq - arg) : 63, arg);
    return eq + 1;
  }
  snprintf(name, 64, "%s", arg);
  if (strcmp(arg, "--detail") == 0 || strcmp(arg, "--timeline") == 0) return "true";
  if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0) return NULL;
  return argv[++*i];
}

int cli_parse(int argc, char **argv, int first, const char *const *actions, cli_args *a,
              cli_setter set, void *target, FILE *err) {
  int i, rc;
  seen_flags seen;
  seen.n = 0;
  /* --json anywhere makes every error, even one before it, a JSON object. */
  for (i = first; i < argc; i++) a->json |= strcmp(argv[i], "--json") == 0;
  for (i = first; i < argc; i++) {
    const char *value;
    char name[64];
    if (is_action(argv[i], actions)) {
      a->action = argv[i];
      return -1;
    }
    if (strcmp(argv[i], "--json") == 0) continue;
    if ((rc = refuse_form(a, err, argv[i])) >= 0) return rc;
    if ((value = flag_value(argc, argv, &i, name)) == NULL) return set(target, name, NULL);
    if (seen_before(&seen, name)) {
      return cli_fail_text(a, err, MEMEST_E_VALUE, "",
                           "%.60s is given twice; give each flag once (a list of values is one "
                           "flag with commas, --pp-size 2,4)",
                           name);
    }
    rc = set(target, name, value);
    if (rc >= 0) return rc;
  }
  return -1;
}

