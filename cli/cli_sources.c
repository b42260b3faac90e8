/*
** cli_sources.c — the trainer's own files on the command line: --script
** PATH (its imports found as Python finds them: the script's folder, then
** PYTHONPATH, then, as the trainer's benchmark launch.sh sets it, the
** parent folders up to the trainer's root), --log FILE (its launch line),
** --wandb DIR (a W&B run), --trainer-commit HASH; training.model and the
** checkpoint looked up on this file system; and the --require gate. The
** readers are the core's (memest_script_read, memest_launch_log_read,
** memest_wandb_read); every file is opened through cli_read_file.
** Design note: docs/trainer-files.md.
*/
#define _XOPEN_SOURCE 700   /* realpath, stat, opendir */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "memest.h"

#define CLI_PATH 4096

/* Copies src into dst of size bytes, cut short if need be. */
static void copy(char *dst, size_t size, const char *src) {
  size_t n = strlen(src);
  if (size == 0) return;
  if (n >= size) n = size - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

int cli_source_flag(cli_source_args *s, const char *name, const char *value, int check) {
  const char **slot = NULL;
  if (strcmp(name, "--script") == 0) slot = &s->script;
  else if (strcmp(name, "--trainer-commit") == 0) slot = &s->commit;
  else if (strcmp(name, "--require") == 0) slot = &s->require;
  else if (check && strcmp(name, "--log") == 0) slot = &s->log;
  else if (check && strcmp(name, "--wandb") == 0) slot = &s->wandb;
  if (slot == NULL) return 0;
  *slot = value;
  return 1;
}

/* {======================================================================
** Files and folders
** ======================================================================= */

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether path names anything: a run's file that is there but is no regular
** file (a FIFO, a folder) is read, so that cli_read_file refuses it by name. */
static int exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* a/b into out: b alone when it is absolute or a is empty or ".". A path
** too long for out is "", which names no file. */
static void join(char *out, size_t size, const char *a, const char *b) {
  int n;
  if (b[0] == '/' || a[0] == '\0' || strcmp(a, ".") == 0) n = snprintf(out, size, "%s", b);
  else n = snprintf(out, size, "%s%s%s", a, a[strlen(a) - 1] == '/' ? "" : "/", b);
  if (n < 0 || (size_t)n >= size) out[0] = '\0';
}

/* The folder of path ("." when it has none). */
static void dir_of(const char *path, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL) snprintf(out, size, ".");
  else if (slash == path) snprintf(out, size, "/");
  else snprintf(out, size, "%.*s", (int)(slash - path), path);
}

/* The trainer's root above (or at) folder dir: the nearest folder with a
** pyproject.toml and pithtrain/__init__.py, as the trainer's checkout has.
** "" when there is none. */
static void trainer_root(const char *dir, char *root, size_t size) {
  char abs[CLI_PATH], probe[CLI_PATH + 32];
  root[0] = '\0';
  if (realpath(dir, abs) == NULL) return;
  for (;;) {
    char *slash;
    snprintf(probe, sizeof probe, "%s/pyproject.toml", strcmp(abs, "/") == 0 ? "" : abs);
    if (is_file(probe)) {
      snprintf(probe, sizeof probe, "%s/pithtrain/__init__.py", strcmp(abs, "/") == 0 ? "" : abs);
      if (is_file(probe)) {
        copy(root, size, abs);
        return;
      }
    }
    slash = strrchr(abs, '/');
    if (slash == NULL || strcmp(abs, "/") == 0) return;
    if (slash == abs) slash[1] = '\0';
    else *slash = '\0';
  }
}

/* path as the report names it: relative to the working folder when under it. */
static void label_of(const char *path, char *out, size_t size) {
  char cwd[CLI_PATH], abs[CLI_PATH];
  size_t n;
  if (path[0] == '/' && getcwd(cwd, sizeof cwd) != NULL && realpath(path, abs) != NULL) {
    n = strlen(cwd);
    if (strncmp(abs, cwd, n) == 0 && abs[n] == '/') {
      copy(out, size, abs + n + 1);
      return;
    }
  }
  copy(out, size, path);
}
/* }====================================================================== */

/* {======================================================================
** The module finder: what `from setup import cfg` finds
** ======================================================================= */

typedef struct finder {
  char dir[CLI_PATH];        /* the script's folder, as given */
  char root[CLI_PATH];       /* the trainer's root, or "" */
  char *texts[64];
  char labels[64][CLI_PATH];
  char names[64][128];       /* the module each text is */
  char pkg_dirs[64][CLI_PATH];   /* a package's folder (its __path__), or "" */
  int n;
} finder;

/* Whether folder dir holds a compiled module base.*.so, base.so or
** base.pyc, which Python's finder takes before base.py. */
static int compiled_module(const char *dir, const char *base) {
  DIR *d = opendir(dir[0] ? dir : ".");
  struct dirent *de;
  size_t n = strlen(base);
  int found = 0;
  if (d == NULL) return 0;
  while (!found && (de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (strncmp(de->d_name, base, n) != 0 || de->d_name[n] != '.') continue;
    found = (len > 3 && strcmp(de->d_name + len - 3, ".so") == 0) ||
            strcmp(de->d_name + n, ".pyc") == 0;
  }
  closedir(d);
  return found;
}

/* Whether module rel (a/b for a.b) is compiled in dir, so that Python
** imports that before rel.py; err says so when it is. */
static int compiled_refused(const char *dir, const char *rel, memest_error *err) {
  char sub[2 * CLI_PATH];
  const char *slash = strrchr(rel, '/');
  join(sub, sizeof sub, dir, rel);
  if (slash != NULL) sub[strlen(sub) - strlen(slash)] = '\0';
  else snprintf(sub, sizeof sub, "%s", dir);
  if (!compiled_module(sub, slash ? slash + 1 : rel)) return 0;
  err->code = MEMEST_E_VALUE;
  snprintf(err->message, sizeof err->message,
           "module %.100s is compiled (a .so or .pyc in %.300s), which Python imports before "
           "any %.100s.py and memest cannot read",
           rel, sub, slash ? slash + 1 : rel);
  return 1;
}

/* Reads dir/rel/__init__.py or dir/rel.py, in Python's order (a package
** before a module of the same name); 1 found, 0 not there, -1 error (also
** a compiled module, which memest cannot read). */
static int try_module(finder *f, const char *dir, const char *rel, const char **text, size_t *len,
                      const char **label, memest_error *err) {
  static const char *const forms[] = {"%s/__init__.py", "%s.py"};
  char file[CLI_PATH + 16], path[2 * CLI_PATH], why[1200];
  int k;
  for (k = 0; k < 2; k++) {
    snprintf(file, sizeof file, forms[k], rel);
    join(path, sizeof path, dir, file);
    if (k == 1 && compiled_refused(dir, rel, err)) return -1;
    if (!is_file(path)) continue;
    if (f->n == 64) {
      err->code = MEMEST_E_LIMIT;
      snprintf(err->message, sizeof err->message, "the script imports too many modules");
      return -1;
    }
    f->texts[f->n] = cli_read_file(path, MEMEST_INPUT_SCRIPT, len, why, sizeof why);
    if (f->texts[f->n] == NULL) {
      err->code = MEMEST_E_IO;
      copy(err->message, sizeof err->message, why);
      return -1;
    }
    label_of(path, f->labels[f->n], sizeof f->labels[0]);
    if (k == 0) {   /* a package: its submodules are found in its folder only */
      join(f->pkg_dirs[f->n], sizeof f->pkg_dirs[0], dir, rel);
    } else {
      f->pkg_dirs[f->n][0] = '\0';
    }
    *text = f->texts[f->n];
    *label = f->labels[f->n];
    f->n++;
    return 1;
  }
  return 0;
}

static int find_in_path(finder *f, const char *name, const char **text, size_t *len,
                        const char **label, memest_error *err);

/* The module finder the reader asks (memest_module_finder). */
static int find_module(void *ctx, const char *name, const char **text, size_t *len,
                       const char **label, memest_error *err) {
  finder *f = ctx;
  int rc = find_in_path(f, name, text, len, label, err);
  if (rc == 1) copy(f->names[f->n - 1], sizeof f->names[0], name);
  return rc;
}

/* A submodule (pkg.mod): in its package's folder only. */
static int find_submodule(finder *f, const char *name, const char **text, size_t *len,
                          const char **label, memest_error *err) {
  const char *dot = strrchr(name, '.');
  int i, rc;
  for (i = 0; i < f->n; i++) {
    if (strlen(f->names[i]) == (size_t)(dot - name) && strncmp(f->names[i], name, (size_t)(dot - name)) == 0)
      break;
  }
  if (i == f->n || f->pkg_dirs[i][0] == '\0') {
    snprintf(err->message, sizeof err->message, "no module %.100s: %.100s is no package memest read",
             name, i == f->n ? "its parent" : f->names[i]);
    return 0;
  }
  rc = try_module(f, f->pkg_dirs[i], dot + 1, text, len, label, err);
  if (rc == 0)
    snprintf(err->message, sizeof err->message, "no module %.100s: looked in its package's folder %.300s",
             name, f->pkg_dirs[i]);
  return rc;
}

/* A relative import (dots leading dots): the script's folder, or one above
** per dot after the first. */
static int find_relative(finder *f, const char *name, size_t dots, const char *rel,
                         const char **text, size_t *len, const char **label, memest_error *err) {
  char base[CLI_PATH];
  size_t k;
  int rc;
  copy(base, sizeof base, f->dir);
  for (k = 1; k < dots; k++) {
    char up[CLI_PATH + 8];
    snprintf(up, sizeof up, "%s/..", base);
    snprintf(base, sizeof base, "%.4000s", up);
  }
  rc = try_module(f, base, rel, text, len, label, err);
  if (rc == 0)
    snprintf(err->message, sizeof err->message, "no module %.100s: looked for %.200s.py in %.400s", name,
             rel, base);
  return rc;
}

/* PYTHONPATH's folders, in order; an empty entry is the working folder. */
static int find_on_pythonpath(finder *f, const char *rel, const char **text, size_t *len,
                              const char **label, memest_error *err) {
  const char *pp = getenv("PYTHONPATH");
  int rc;
  while (pp != NULL) {
    const char *colon = strchr(pp, ':');
    char entry[CLI_PATH];
    snprintf(entry, sizeof entry, "%.*s", (int)(colon ? (size_t)(colon - pp) : strlen(pp)) & 0xfff, pp);
    if (entry[0] == '\0') snprintf(entry, sizeof entry, ".");
    if ((rc = try_module(f, entry, rel, text, len, label, err)) != 0) return rc;
    pp = colon ? colon + 1 : NULL;
  }
  return 0;
}

/* The folders above the script's up to the trainer's root, where
** PYTHONPATH is unset (as the trainer's launch.sh sets it); what was looked
** at goes into looked, for the message when nothing is found. */
static int find_above(finder *f, const char *rel, char *looked, size_t size, const char **text,
                      size_t *len, const char **label, memest_error *err) {
  const char *pp = getenv("PYTHONPATH");
  char abs[CLI_PATH];
  int rc;
  if (pp != NULL && pp[0] != '\0') {
    snprintf(looked, size, "and no folder above it: PYTHONPATH is set, and Python "
             "searches no other folder");
  } else if (f->root[0] && realpath(f->dir, abs) != NULL && strcmp(abs, f->root) != 0) {
    for (;;) {
      char *slash = strrchr(abs, '/');
      if (slash == NULL || slash == abs) break;
      *slash = '\0';
      if ((rc = try_module(f, abs, rel, text, len, label, err)) != 0) return rc;
      if (strcmp(abs, f->root) == 0) break;
    }
    snprintf(looked, size, "and the folders above it up to the trainer's root %.300s", f->root);
  } else if (!f->root[0]) {
    snprintf(looked, size, "and no folder above it: no trainer checkout (a folder with "
             "pyproject.toml and pithtrain/__init__.py) holds the script");
  }
  return 0;
}

static int find_in_path(finder *f, const char *name, const char **text, size_t *len,
                        const char **label, memest_error *err) {
  char rel[CLI_PATH], looked[600] = "";
  size_t dots = strspn(name, "."), k;
  int rc;
  copy(rel, sizeof rel, name + dots);
  for (k = 0; rel[k]; k++)
    if (rel[k] == '.') rel[k] = '/';
  if (dots == 0 && strchr(name, '.') != NULL) return find_submodule(f, name, text, len, label, err);
  if (dots > 0) return find_relative(f, name, dots, rel, text, len, label, err);
  if ((rc = try_module(f, f->dir, rel, text, len, label, err)) != 0 ||
      (rc = find_on_pythonpath(f, rel, text, len, label, err)) != 0 ||
      (rc = find_above(f, rel, looked, sizeof looked, text, len, label, err)) != 0)
    return rc;
  snprintf(err->message, sizeof err->message,
           "no module %.60s: looked for %.60s.py in the script's folder %.120s, in PYTHONPATH "
           "(%.100s), %.200s; put its folder on PYTHONPATH as the trainer's launch.sh does",
           name, rel, f->dir, getenv("PYTHONPATH") == NULL ? "unset" : getenv("PYTHONPATH"), looked);
  return 0;
}
/* }====================================================================== */

/* {======================================================================
** Reading the sources
** ======================================================================= */

static int fail_error(const cli_args *a, FILE *err, const memest_error *e) { return cli_fail(a, err, e); }

/* Whether path reaches its file through a symbolic link: its real path is
** not its absolute path with "." and ".." folded. */
static int through_link(const char *path, char *real, size_t size) {
  char abs[2 * CLI_PATH], out[2 * CLI_PATH], cwd[CLI_PATH], r[CLI_PATH];
  size_t o = 0, i = 0, n;
  if (realpath(path, r) == NULL) return 0;
  copy(real, size, r);
  if (path[0] == '/') copy(abs, sizeof abs, path);
  else if (getcwd(cwd, sizeof cwd) != NULL) snprintf(abs, sizeof abs, "%s/%s", cwd, path);
  else return 0;
  n = strlen(abs);
  while (i < n) {   /* fold the parts */
    size_t j = i;
    while (j < n && abs[j] != '/') j++;
    if (j - i == 2 && abs[i] == '.' && abs[i + 1] == '.') {
      while (o > 0 && out[o - 1] != '/') o--;
      if (o > 0) o--;
    } else if (j > i && !(j - i == 1 && abs[i] == '.')) {
      out[o++] = '/';
      memcpy(out + o, abs + i, j - i);
      o += j - i;
    }
    i = j + 1;
  }
  if (o == 0) out[o++] = '/';
  out[o] = '\0';
  return strcmp(out, r) != 0;
}

static int read_script(const cli_args *a, FILE *err, const char *path, cli_source *src) {
  char why[1200];
  size_t len = 0;
  char *text = cli_read_file(path, MEMEST_INPUT_SCRIPT, &len, why, sizeof why);
  finder *f;
  memest_error e;
  int i, rc = -1;
  if (text == NULL) return cli_fail_text(a, err, MEMEST_E_IO, "script", "%s", why);
  if (through_link(path, why, sizeof why)) {   /* __file__ and Path(__file__).resolve() differ then */
    free(text);
    return cli_fail_text(a, err, MEMEST_E_VALUE, "script",
                         "%s goes through a symbolic link (the file is %s): Python's __file__ and "
                         "its resolve(), and the folder it imports from, then name different "
                         "folders, which memest does not follow; give the real path",
                         path, why);
  }
  f = calloc(1, sizeof *f);
  if (f == NULL) {
    free(text);
    return cli_fail_text(a, err, MEMEST_E_NOMEM, "", "out of memory");
  }
  dir_of(path, f->dir, sizeof f->dir);
  trainer_root(f->dir, f->root, sizeof f->root);
  copy(src->root, sizeof src->root, f->root);
  if (memest_script_read(text, len, path, find_module, f, &src->run, &e) != MEMEST_OK)
    rc = fail_error(a, err, &e);
  for (i = 0; i < f->n; i++) free(f->texts[i]);
  free(f);
  free(text);
  return rc;
}

static int read_log(const cli_args *a, FILE *err, const char *path, cli_source *src) {
  char why[1200];
  memest_error e;
  memest_code code;
  src->log_text = cli_read_file(path, MEMEST_INPUT_LOG, &src->log_len, why, sizeof why);
  if (src->log_text == NULL) return cli_fail_text(a, err, MEMEST_E_IO, "log", "%s", why);
  src->log_label = path;
  code = memest_launch_log_read(src->log_text, src->log_len, path, &src->run, &e);
  if (code == MEMEST_E_MISSING) {   /* no launch line: the flags give the layout */
    src->no_launch = 1;
    copy(src->hint, sizeof src->hint, e.message);
    return -1;
  }
  if (code != MEMEST_OK) return fail_error(a, err, &e);
  memest_trainer_run_steps(src->run, &src->steps_offset, &src->steps_line);
  return -1;
}

/* Reads base/name whole when it is there; NULL (and *len 0) when not. */
static int read_optional(const cli_args *a, FILE *err, const char *base, const char *name,
                         memest_input_file kind, char **text, size_t *len) {
  char path[CLI_PATH + 64], why[1200];
  *text = NULL;
  *len = 0;
  join(path, sizeof path, base, name);
  if (!exists(path)) return -1;
  *text = cli_read_file(path, kind, len, why, sizeof why);
  return *text == NULL ? cli_fail_text(a, err, MEMEST_E_IO, "wandb", "%s", why) : -1;
}

/* How many W&B runs (run-* or offline-run-* folders) folder dir holds. */
static int wandb_runs(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *ent;
  int runs = 0;
  if (d == NULL) return 0;
  while ((ent = readdir(d)) != NULL)
    runs += strncmp(ent->d_name, "run-", 4) == 0 || strncmp(ent->d_name, "offline-run-", 12) == 0;
  closedir(d);
  return runs;
}

/* The folder holding a W&B run's files: DIR/files, DIR itself, or DIR's
** latest-run; "" with a message when DIR holds several runs or none. */
static int wandb_folder(const cli_args *a, FILE *err, const char *dir, char *base, size_t size) {
  static const char *const forms[] = {"%s/files", "%s", "%s/latest-run/files", "%s/wandb/latest-run/files"};
  char probe[CLI_PATH + 64], yaml[CLI_PATH + 96], meta[CLI_PATH + 96];
  size_t k;
  int runs;
  if (!is_dir(dir))
    return cli_fail_text(a, err, MEMEST_E_IO, "wandb",
                         "--wandb %s is not a folder; give a W&B run's folder, "
                         "wandb/run-<date>-<id> (W&B keeps it under $WANDB_DIR, the trainer's "
                         "default /tmp/wandb)",
                         dir);
  for (k = 0; k < sizeof forms / sizeof forms[0]; k++) {
    snprintf(probe, sizeof probe, forms[k], dir);
    join(yaml, sizeof yaml, probe, "config.yaml");
    join(meta, sizeof meta, probe, "wandb-metadata.json");
    if (is_dir(probe) && (exists(yaml) || exists(meta) || k == 0)) {
      copy(base, size, probe);
      return -1;
    }
  }
  if ((runs = wandb_runs(dir)) > 0)
    return cli_fail_text(a, err, MEMEST_E_VALUE, "wandb",
                         "%s holds %d W&B runs; give one of them (its run-<date>-<id> folder), "
                         "or %s/latest-run",
                         dir, runs, dir);
  return cli_fail_text(a, err, MEMEST_E_IO, "wandb",
                       "%s holds no W&B run: no files/config.yaml or files/wandb-metadata.json; "
                       "give a run's folder, wandb/run-<date>-<id>",
                       dir);
}

static int read_wandb(const cli_args *a, FILE *err, const char *dir, cli_source *src) {
  char base[CLI_PATH + 64];
  char *yaml = NULL, *meta = NULL, *summary = NULL;
  memest_wandb_files files;
  memest_error e;
  int rc;
  if ((rc = wandb_folder(a, err, dir, base, sizeof base)) >= 0) return rc;
  memset(&files, 0, sizeof files);
  files.dir = base;
  rc = read_optional(a, err, base, "config.yaml", MEMEST_INPUT_WANDB_CONFIG, &yaml, &files.config_len);
  if (rc < 0) rc = read_optional(a, err, base, "wandb-metadata.json", MEMEST_INPUT_WANDB_JSON, &meta, &files.metadata_len);
  if (rc < 0) rc = read_optional(a, err, base, "wandb-summary.json", MEMEST_INPUT_WANDB_JSON, &summary, &files.summary_len);
  if (rc < 0) rc = read_optional(a, err, base, "output.log", MEMEST_INPUT_LOG, &src->log_text, &src->log_len);
  files.config_yaml = yaml;
  files.metadata_json = meta;
  files.summary_json = summary;
  if (rc < 0 && memest_wandb_read(&files, &src->run, &e) != MEMEST_OK) rc = fail_error(a, err, &e);
  if (rc < 0 && src->log_text != NULL) {
    snprintf(src->log_name, sizeof src->log_name, "%.4000s/output.log", base);
    src->log_label = src->log_name;
    src->steps_line = 1;
  }
  free(yaml);
  free(meta);
  free(summary);
  return rc;
}

/* A live config object's run (memest_command): a copy of it, with the
** trainer's root above the script that handed it over and the GPUs its
** folder names, as for --script. */
static int take_given(const cli_args *a, FILE *err, const memest_command_input *in, cli_source *src) {
  char dir[CLI_PATH], label[CLI_PATH];
  const char *base;
  if ((src->run = memest_trainer_run_copy(in->run)) == NULL)
    return cli_fail_text(a, err, MEMEST_E_NOMEM, "", "out of memory");
  if (in->workdir != NULL) copy(src->workdir, sizeof src->workdir, in->workdir);
  if (in->script == NULL || in->script[0] == '\0') return -1;
  dir_of(in->script, dir, sizeof dir);
  trainer_root(dir, src->root, sizeof src->root);
  label_of(dir, label, sizeof label);
  base = strrchr(label, '/');
  memest_trainer_run_folder(src->run, base ? base + 1 : label, base ? base + 1 : label);
  return -1;
}

int cli_source_read(const cli_args *a, FILE *err, const cli_source_args *s, cli_source *src) {
  int cfg = s->given != NULL && s->given->run != NULL;
  int given = (s->script != NULL) + (s->log != NULL) + (s->wandb != NULL);
  memest_error e;
  int rc = -1;
  memset(src, 0, sizeof *src);
  src->steps_line = 1;
  if (given > 1)
    return cli_fail_text(a, err, MEMEST_E_VALUE, "",
                         "give one of --script, --log and --wandb: each holds the whole run's inputs");
  if (given > 0 && cfg)
    return cli_fail_text(a, err, MEMEST_E_VALUE, "",
                         "the config object holds the whole run's inputs; give none of --script, "
                         "--log and --wandb with it");
  if (s->require != NULL && strcmp(s->require, "fits") != 0 && strcmp(s->require, "ok") != 0)
    return cli_fail_text(a, err, MEMEST_E_UNKNOWN, "require",
                         "--require '%.40s' is not one of: fits, ok (fits: exit 3 on OOM; ok: exit "
                         "3 on TIGHT or OOM)",
                         s->require);
  if (cfg) rc = take_given(a, err, s->given, src);
  else if (s->script != NULL) rc = read_script(a, err, s->script, src);
  else if (s->log != NULL) rc = read_log(a, err, s->log, src);
  else if (s->wandb != NULL) rc = read_wandb(a, err, s->wandb, src);
  if (rc >= 0) return rc;
  if (s->commit != NULL) {
    if (src->run == NULL && (src->run = memest_trainer_run_new(MEMEST_SOURCE_FLAGS)) == NULL)
      return cli_fail_text(a, err, MEMEST_E_NOMEM, "", "out of memory");
    if (memest_trainer_run_set_commit(src->run, s->commit, "--trainer-commit", &e) != MEMEST_OK)
      return fail_error(a, err, &e);
  }
  return -1;
}
/* }====================================================================== */

/* {======================================================================
** The model and the checkpoint, on this file system
** ======================================================================= */

static int looks_like_hub_id(const char *s) {
  const char *slash = strchr(s, '/');
  size_t n = strlen(s);
  return slash != NULL && strchr(slash + 1, '/') == NULL && s[0] != '.' && s[0] != '/' &&
         !(n > 5 && strcmp(s + n - 5, ".json") == 0);
}

/* A file training.model names is read as a model config before it is
** taken, and refused by its name when it is none: it may be any file (a
** credentials file, named by mistake), so its text is never shown. */
static int model_file_refused(const cli_args *a, FILE *err, const char *path) {
  char why[1200];
  size_t len;
  memest_error e;
  memest_code code;
  char *text = cli_read_file(path, MEMEST_INPUT_CONFIG, &len, why, sizeof why);
  if (text == NULL) return cli_fail_text(a, err, MEMEST_E_IO, "model", "training.model: %s", why);
  code = memest_config_check(text, len, &e);
  free(text);
  if (code == MEMEST_OK) return -1;
  return cli_fail_text(a, err, code, "model",
                       "training.model names %.1000s, which is no model config.json (%s); give "
                       "--model with the model's config.json, a preset or a hub id",
                       path, e.message);
}

/* training.model as a string (not a Path): a hub id is the model
** loader's; a bare name is no preset here. */
static int model_string(const cli_args *a, FILE *err, const char *model) {
  if (strchr(model, '/') != NULL || is_file(model) || is_dir(model)) return -1;
  return cli_fail_text(a, err, MEMEST_E_IO, "model",
                       "training.model '%.300s' is neither a file in the working folder nor a hub "
                       "id (org/name), so the trainer would not find it (memest's preset names are "
                       "its own, not the trainer's); set training.model to the model's config.json "
                       "or hub id, or give --model",
                       model);
}

/* The model file at path taken for the run (how: where it was found),
** once it reads as a model config; the exit status, -1 to go on. */
static int take_model_file(const cli_args *a, FILE *err, cli_source *src, const char *path,
                           const char *how) {
  memest_error e;
  int rc;
  if ((rc = model_file_refused(a, err, path)) >= 0) return rc;
  if (memest_trainer_run_resolve_model(src->run, path, how, &e) != MEMEST_OK) return cli_fail(a, err, &e);
  return -1;
}

/* The config a training.model path names: the file, or the config.json in
** the model's folder, as the trainer's loader reads a folder. */
static int config_at(const char *path, char *out, size_t size) {
  if (is_file(path)) {
    copy(out, size, path);
    return 1;
  }
  return cli_folder_config(path, out, size) > 0 && is_file(out);
}

/* training.model as a file (or a model's folder): from the working folder
** (a live object's at its launch, else this process's), else (a relative
** path) under the trainer's root or the run's working folder. 0 when there
** is none; else 1, with take_model_file's exit status in *rc. */
static int model_from_file(const cli_args *a, FILE *err, cli_source *src, const char *model,
                           int *rc) {
  static const char *const what[3] = {"from the working folder at launch", "under the trainer's root",
                                      "under the run's working folder"};
  const char *hint = memest_trainer_run_root_hint(src->run), *bases[3];
  char path[2 * CLI_PATH], found[2 * CLI_PATH + 16], how[CLI_PATH + 96], shown[2 * CLI_PATH];
  int k;
  if (model[0] == '/' || src->workdir[0] == '\0') {
    if (config_at(model, found, sizeof found)) {
      *rc = take_model_file(a, err, src, found, model[0] == '/' ? "" : "found from the working folder");
      return 1;
    }
    if (model[0] == '/') return 0;
  }
  bases[0] = src->workdir;
  bases[1] = src->root;
  bases[2] = hint ? hint : "";
  for (k = 0; k < 3; k++) {
    if (bases[k][0] == '\0') continue;
    join(path, sizeof path, bases[k], model);
    if (!config_at(path, found, sizeof found)) continue;
    snprintf(how, sizeof how, "found %s %.4000s", what[k], bases[k]);
    label_of(found, shown, sizeof shown);
    *rc = take_model_file(a, err, src, shown, how);
    return 1;
  }
  return 0;
}

static int resolve_model(const cli_args *a, FILE *err, cli_source *src) {
  int is_path, rc;
  const char *model = memest_trainer_run_model(src->run, &is_path), *preset;
  char how[CLI_PATH + 64];
  memest_error e;
  if (model == NULL) return -1;
  if (is_path == 0) return model_string(a, err, model);
  if (model_from_file(a, err, src, model, &rc)) return rc;
  if ((preset = memest_trainer_model_preset(model)) != NULL) {
    snprintf(how, sizeof how, "not found here: the trainer's own config of %s, which memest ships as "
             "the preset", preset);
    if (memest_trainer_run_resolve_model(src->run, preset, how, &e) != MEMEST_OK) return cli_fail(a, err, &e);
    return -1;
  }
  if (is_path < 0 && looks_like_hub_id(model)) return -1;
  return cli_fail_text(a, err, MEMEST_E_IO, "model",
                       "training.model %.300s is not a file from the working folder%s%.300s%s; run "
                       "memest from the trainer's root (where the trainer runs), or give --model",
                       model, src->root[0] ? " or under the trainer's root " : "", src->root,
                       src->root[0] ? "" : " (no trainer checkout holds the script)");
}

/* A save_location looked into: torch-dcp/step-* there means the run loads it. */
static void look_for_checkpoint(cli_source *src) {
  const char *where = memest_trainer_run_checkpoint(src->run), *hint = memest_trainer_run_root_hint(src->run);
  const char *bases[3];
  char folder[2 * CLI_PATH + 16];
  int k;
  if (where == NULL) return;
  bases[0] = src->workdir[0] ? src->workdir : ".";
  bases[1] = src->root;
  bases[2] = hint ? hint : "";
  for (k = 0; k < 3; k++) {
    char base[2 * CLI_PATH];
    DIR *d;
    struct dirent *ent;
    int found = 0;
    if (bases[k][0] == '\0') continue;
    join(base, sizeof base, bases[k], where);
    snprintf(folder, sizeof folder, "%s/torch-dcp", base);
    if (!is_dir(base)) continue;
    if ((d = opendir(folder)) != NULL) {
      while ((ent = readdir(d)) != NULL) found |= strncmp(ent->d_name, "step-", 5) == 0;
      closedir(d);
    }
    memest_trainer_run_checkpoint_seen(src->run, found, folder);
    return;
  }
}

int cli_source_apply(const cli_args *a, FILE *err, cli_source *src, memest_params *p) {
  memest_error e;
  int rc;
  if (src->run == NULL) return -1;
  if (!((p->given >> MEMEST_P_MODEL) & 1u) && (rc = resolve_model(a, err, src)) >= 0) return rc;
  look_for_checkpoint(src);
  if (memest_trainer_run_apply(src->run, p, &e) != MEMEST_OK) return cli_fail(a, err, &e);
  return -1;
}

int cli_source_apply_plan(const cli_args *a, FILE *err, cli_source *src, memest_plan_request *req) {
  memest_error e;
  int rc;
  if (src->run == NULL) return -1;
  if (!((req->base.given >> MEMEST_P_MODEL) & 1u) && (rc = resolve_model(a, err, src)) >= 0) return rc;
  look_for_checkpoint(src);
  if (memest_trainer_run_apply_plan(src->run, req, &e) != MEMEST_OK) return cli_fail(a, err, &e);
  return -1;
}

void cli_source_missing(const cli_args *a, FILE *err, const cli_source *src) {
  static const char *const what[] = {"", "launch script", "log's launch line", "W&B run",
                                     "config object"};
  char *text;
  if (a->json) return;
  if (src->no_launch) fprintf(err, "%s: %s\n", a->prog, src->hint);
  if (src->run == NULL || memest_trainer_run_kind(src->run) == MEMEST_SOURCE_FLAGS) return;
  text = memest_trainer_run_text(src->run);
  if (text != NULL) fputs(text, err);
  memest_free(text);
  fprintf(err, "%s: the %s gives the inputs above; give the missing ones as flags (the GPU count "
               "is nodes x GPUs per node)\n",
          a->prog, what[memest_trainer_run_kind(src->run)]);
}

void cli_source_free(cli_source *src) {
  memest_trainer_run_free(src->run);
  free(src->log_text);
  memset(src, 0, sizeof *src);
}
/* }====================================================================== */

/* {======================================================================
** The gate
** ======================================================================= */

int cli_gate(const cli_args *a, FILE *err, const char *require, memest_status status,
             const char *what) {
  int worse;
  if (require == NULL) return 0;
  worse = strcmp(require, "ok") == 0 ? status != MEMEST_FITS_OK : status == MEMEST_FITS_OOM;
  if (!worse) return 0;
  fprintf(err, "%s: --require %s: %s is %s; exit 3\n", a->prog, require, what, memest_status_name(status));
  return 3;
}
/* }====================================================================== */
