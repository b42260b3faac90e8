/*
** trainer_run.c — the record every reader of the trainer's files fills
** (memest_trainer_run): each memest input with the file and line it came
** from, the fields read and ignored, warnings and notes, the regime and the
** trainer commit; the GPU and GPU count of a benchmark folder's name; and
** applying the inputs to memest_params, where a flag on the command line
** wins. The source object and its text are source_report.c's.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainer/trainer.h"
#include "trainer/trainer_commits.h"

/* {======================================================================
** Values and places
** ======================================================================= */

void memi_tv_set_text(tvalue *v, tv_kind kind, const char *text, size_t n) {
  v->kind = kind;
  if (n >= sizeof v->text) n = sizeof v->text - 1;
  memcpy(v->text, text, n);
  v->text[n] = '\0';
}

/* Python's repr of a str, shortened to size. */
static void show_str(const char *s, char *buf, size_t size, const char *pre, const char *post) {
  size_t o = 0, k;
  const char *q = strchr(s, '\'') != NULL && strchr(s, '"') == NULL ? "\"" : "'";
  k = (size_t)snprintf(buf, size, "%s%s", pre, q);
  o = k < size ? k : size - 1;
  for (; *s && o + 8 < size; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\\' || c == (unsigned char)q[0]) {
      buf[o++] = '\\';
      buf[o++] = (char)c;
    } else if (c < 0x20 || c == 0x7f) {
      o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
    } else {
      buf[o++] = (char)c;
    }
  }
  if (*s) {
    snprintf(buf + o, size - o, "...");
    return;
  }
  snprintf(buf + o, size - o, "%s%s", q, post);
}

const char *memi_tv_show(const tvalue *v, char *buf, size_t size) {
  if (size == 0) return buf;
  switch (v->kind) {
    case TV_NONE: snprintf(buf, size, "None"); break;
    case TV_BOOL: snprintf(buf, size, "%s", v->i ? "True" : "False"); break;
    case TV_INT: snprintf(buf, size, "%lld", (long long)v->i); break;
    case TV_FLOAT: snprintf(buf, size, "%.17g", v->f); break;
    case TV_STR: show_str(v->text, buf, size, "", ""); break;
    case TV_PATH: show_str(v->text, buf, size, "Path(", ")"); break;
    case TV_FUNC: snprintf(buf, size, "%.200s", v->text); break;
    case TV_PARTIAL: snprintf(buf, size, "partial(%.120s%s%.100s)", v->text, v->args[0] ? ", " : "", v->args); break;
    case TV_TIMEDELTA: snprintf(buf, size, "timedelta(seconds=%g)", v->f); break;
    case TV_OBJECT: snprintf(buf, size, "%.200s()", v->text); break;
    case TV_OTHER: snprintf(buf, size, "%.300s", v->text); break;
  }
  return buf;
}

void memi_tloc_set(tloc *at, const char *file, int line) {
  snprintf(at->file, sizeof at->file, "%s", file ? file : "");
  at->line = line;
}

const char *memi_tloc_show(const tloc *at, char *buf, size_t size) {
  size_t n;
  tr_copy(buf, size, at->file);
  n = strlen(buf);
  if (at->line > 0 && n + 1 < size) snprintf(buf + n, size - n, ":%d", at->line);
  return buf;
}
/* }====================================================================== */

/* {======================================================================
** The record
** ======================================================================= */

static const char *const kind_names[] = {"flags", "script", "log", "wandb", "cfg"};

const char *memest_source_kind_name(memest_source_kind k) {
  return (int)k >= 0 && k <= MEMEST_SOURCE_CFG ? kind_names[k] : NULL;
}

memest_trainer_run *memi_run_new(memest_source_kind kind) {
  memest_trainer_run *run = calloc(1, sizeof *run);
  if (run == NULL) return NULL;
  run->kind = kind;
  run->benchmark = -1;
  run->model_is_path = -1;
  run->steps_line = 1;
  run->summary_gib = -1;
  run->summary_step = -1;
  return run;
}

memest_trainer_run *memest_trainer_run_new(memest_source_kind kind) {
  if ((int)kind < 0 || kind > MEMEST_SOURCE_CFG) return NULL;
  return memi_run_new(kind);
}

memest_trainer_run *memest_trainer_run_copy(const memest_trainer_run *run) {
  memest_trainer_run *copy;
  if (run == NULL || (copy = memi_run_new(run->kind)) == NULL) return NULL;
  *copy = *run;   /* the record holds no pointers */
  return copy;
}

void memest_trainer_run_free(memest_trainer_run *run) { free(run); }

memest_source_kind memest_trainer_run_kind(const memest_trainer_run *run) { return run->kind; }

void memi_run_file(memest_trainer_run *run, const char *label) {
  int i;
  for (i = 0; i < run->n_files; i++)
    if (strcmp(run->files[i], label) == 0) return;
  if (run->n_files < TR_MAX_FILES) snprintf(run->files[run->n_files++], sizeof run->files[0], "%s", label);
}

static void add_line(char (*list)[400], int *n, int *more, const char *fmt, va_list ap) {
  char line[400];
  int i;
  vsnprintf(line, sizeof line, fmt, ap);
  for (i = 0; i < *n; i++)
    if (strcmp(list[i], line) == 0) return;
  if (*n < TR_MAX_NOTES) memcpy(list[(*n)++], line, sizeof line);
  else (*more)++;
}

void memi_run_warn(memest_trainer_run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(run->warnings, &run->n_warnings, &run->more_warnings, fmt, ap);
  va_end(ap);
}

void memi_run_note(memest_trainer_run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(run->notes, &run->n_notes, &run->more_notes, fmt, ap);
  va_end(ap);
}

void memi_run_input(memest_trainer_run *run, memest_param_id id, const char *value, const tloc *at,
                    const char *field, const char *how) {
  tr_input *in;
  if ((int)id < 0 || id >= MEMEST_P_COUNT) return;
  in = &run->in[id];
  memset(in, 0, sizeof *in);
  in->set = 1;
  snprintf(in->value, sizeof in->value, "%s", value);
  in->at = *at;
  snprintf(in->field, sizeof in->field, "%s", field ? field : "");
  snprintf(in->how, sizeof in->how, "%s", how ? how : "");
}

void memi_run_refuse(memest_trainer_run *run, memest_param_id id, const tloc *at, const char *field,
                     const char *fmt, ...) {
  tr_input *in;
  va_list ap;
  if ((int)id < 0 || id >= MEMEST_P_COUNT) return;
  in = &run->in[id];
  memset(in, 0, sizeof *in);
  in->refused = 1;
  in->at = *at;
  snprintf(in->field, sizeof in->field, "%s", field ? field : "");
  va_start(ap, fmt);
  vsnprintf(in->why, sizeof in->why, fmt, ap);
  va_end(ap);
  if (id == MEMEST_P_ROUTING) run->benchmark = -1;
}

void memi_run_ignored(memest_trainer_run *run, const char *field, const tloc *at) {
  char line[96], where[300];
  const char *slash = strrchr(at->file, '/');
  tloc s = *at;
  int i;
  if (slash != NULL && slash[1] != '\0') memi_tloc_set(&s, slash + 1, at->line);
  snprintf(line, sizeof line, "%.40s (%.50s)", field, memi_tloc_show(&s, where, sizeof where));
  for (i = 0; i < run->n_ignored; i++) {
    if (strncmp(run->ignored[i], field, strlen(field)) == 0 && run->ignored[i][strlen(field)] == ' ') {
      memcpy(run->ignored[i], line, sizeof line);   /* the last assignment is the one that holds */
      return;
    }
  }
  if (run->n_ignored < TR_MAX_IGNORED) memcpy(run->ignored[run->n_ignored++], line, sizeof line);
  else run->more_ignored++;
}

/* Reads a positive count at *s (advancing it); 0 when none or too large. */
static int64_t folder_count(const char **s) {
  int64_t v = 0;
  const char *p = *s;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p++ - '0');
    if (v > MEMEST_MAX_GPUS) return 0;
  }
  if (p == *s) return 0;
  *s = p;
  return v;
}

int memi_run_folder_layout(memest_trainer_run *run, const char *folder, const char *label) {
  const char *dash = strrchr(folder, '-'), *p;
  char gpu[32], total[32], how[160];
  int64_t nodes, per_node;
  tloc at;
  int i;
  if (dash == NULL || dash == folder || (size_t)(dash - folder) >= sizeof gpu) return 0;
  p = dash + 1;
  nodes = folder_count(&p);
  if (nodes == 0 || *p++ != 'n') return 0;
  per_node = folder_count(&p);
  if (per_node == 0 || *p++ != 'g' || *p != '\0' || nodes * per_node > MEMEST_MAX_GPUS) return 0;
  snprintf(gpu, sizeof gpu, "%.*s", (int)(dash - folder), folder);
  snprintf(total, sizeof total, "%lld", (long long)(nodes * per_node));
  snprintf(how, sizeof how, "%lld node%s x %lld GPUs", (long long)nodes, nodes == 1 ? "" : "s",
           (long long)per_node);
  memi_tloc_set(&at, label, 0);
  memi_run_input(run, MEMEST_P_TOTAL_GPUS, total, &at, "", how);
  for (i = 0; i < memest_gpu_preset_count(); i++) {
    if (strcmp(memest_gpu_preset_name(i), gpu) == 0) {
      memi_run_input(run, MEMEST_P_GPU, gpu, &at, "", memest_gpu_preset_title(i));
      return 1;
    }
  }
  memi_run_note(run, "%s names the GPU '%s', which is no GPU preset (memest --list-gpus); give "
                     "--gpu or --gpu-memory-gb",
                label, gpu);
  return 1;
}

int memest_trainer_run_folder(memest_trainer_run *run, const char *folder, const char *label) {
  if (run == NULL || folder == NULL) return 0;
  return memi_run_folder_layout(run, folder, label ? label : folder);
}
/* }====================================================================== */

/* {======================================================================
** What the front ends ask and tell
** ======================================================================= */

const char *memest_trainer_run_model(const memest_trainer_run *run, int *is_path) {
  if (is_path) *is_path = run->model_is_path;
  return run->in[MEMEST_P_MODEL].set ? run->in[MEMEST_P_MODEL].value : NULL;
}

const char *memest_trainer_run_root_hint(const memest_trainer_run *run) {
  return run->root_hint[0] ? run->root_hint : NULL;
}

memest_code memest_trainer_run_resolve_model(memest_trainer_run *run, const char *resolved,
                                             const char *how, memest_error *err) {
  memi_err_clear(err);
  if (resolved == NULL || resolved[0] == '\0' || strlen(resolved) >= sizeof run->model_resolved)
    return memi_err_set(err, MEMEST_E_VALUE, "model",
                        "the model's resolution must be a path or preset of 1 to %d characters",
                        (int)sizeof run->model_resolved - 1);
  snprintf(run->model_resolved, sizeof run->model_resolved, "%s", resolved);
  snprintf(run->model_how, sizeof run->model_how, "%s", how ? how : "");
  return MEMEST_OK;
}

/* The preset a trainer path names: examples/pretrain_lm/<preset>/config.json
** or benchmarks/pretraining/<preset>/model.json, the trainer's own configs,
** for a front end that does not find the file (the CLI's, the page's). */
const char *memest_trainer_model_preset(const char *model) {
  static const char *const forms[][2] = {{"examples/pretrain_lm/", "/config.json"},
                                         {"benchmarks/pretraining/", "/model.json"}};
  size_t k, n = model != NULL ? strlen(model) : 0;
  for (k = 0; k < 2; k++) {
    size_t a = strlen(forms[k][0]), b = strlen(forms[k][1]);
    char name[128];
    if (n <= a + b || strncmp(model, forms[k][0], a) != 0 || strcmp(model + n - b, forms[k][1]) != 0 ||
        n - a - b >= sizeof name)
      continue;
    snprintf(name, sizeof name, "%.*s", (int)(n - a - b), model + a);
    if (strchr(name, '/') == NULL && memest_model_preset_config(name) != NULL) {
      int i;
      for (i = 0; i < memest_model_preset_count(); i++)
        if (strcmp(memest_model_preset_name(i), name) == 0) return memest_model_preset_name(i);
    }
  }
  return NULL;
}

void memest_trainer_run_checkpoint_seen(memest_trainer_run *run, int found, const char *where) {
  if (run->init != TR_INIT_MAYBE) return;
  run->init = found ? TR_INIT_CHECKPOINT : TR_INIT_SCRATCH;
  if (where != NULL) snprintf(run->checkpoint, sizeof run->checkpoint, "%s", where);
}

const char *memest_trainer_run_checkpoint(const memest_trainer_run *run) {
  return run->init == TR_INIT_MAYBE && run->checkpoint[0] ? run->checkpoint : NULL;
}

void memest_trainer_run_steps(const memest_trainer_run *run, size_t *offset, int64_t *line) {
  *offset = run->steps_offset;
  *line = run->steps_line;
}

double memest_trainer_run_summary_gib(const memest_trainer_run *run, int64_t *step) {
  if (step) *step = run->summary_step;
  return run->summary_gib;
}

/* Whether p was given input id, or one that stands for it: --gpu and
** --gpu-memory-gb name one capacity, and --routing, --routing-factor and
** --ep-imbalance one routing. */
static int given_for(const memest_params *p, memest_param_id id) {
  static const memest_param_id gpu[] = {MEMEST_P_GPU, MEMEST_P_GPU_MEMORY_GB};
  static const memest_param_id routing[] = {MEMEST_P_ROUTING, MEMEST_P_ROUTING_FACTOR,
                                            MEMEST_P_EP_IMBALANCE};
  const memest_param_id *group = NULL;
  int n = 0, k;
  if (id == MEMEST_P_GPU || id == MEMEST_P_GPU_MEMORY_GB) group = gpu, n = 2;
  if (id == MEMEST_P_ROUTING) group = routing, n = 3;
  if (group == NULL) return (p->given >> id) & 1u;
  for (k = 0; k < n; k++)
    if ((p->given >> group[k]) & 1u) return 1;
  return 0;
}

memest_code memest_trainer_run_apply(memest_trainer_run *run, memest_params *p, memest_error *err) {
  uint32_t flags = p->given;
  int id;
  memi_err_clear(err);
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    tr_input *in = &run->in[id];
    const memest_param_info *pi = memest_param_describe((memest_param_id)id);
    memest_params flagged = *p;
    memest_error e;
    char where[300];
    const char *value;
    if (!in->set && !in->refused) continue;
    flagged.given = flags;
    if (given_for(&flagged, (memest_param_id)id)) {
      in->overridden = 1;
      continue;
    }
    if (in->refused) {
      memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s; or give %s", in->why, pi->flag);
      return err->code;
    }
    value = id == MEMEST_P_MODEL && run->model_resolved[0] ? run->model_resolved : in->value;
    if (memest_params_set(p, pi->name, value, &e) != MEMEST_OK) {
      memi_err_set(err, e.code, pi->name, "%s%s%s gives %s %.200s, which memest refuses: %.300s",
                   memi_tloc_show(&in->at, where, sizeof where), in->field[0] ? ": " : "",
                   in->field, pi->flag, value, e.message);
      return err->code;
    }
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* The trainer commit the run uses, checked against memest's list of the
** trainer's commits (trainer_commits.c). */
memest_code memest_trainer_run_set_commit(memest_trainer_run *run, const char *commit,
                                          const char *from, memest_error *err) {
  char hash[48];
  size_t n, k;
  int matches, at;
  memi_err_clear(err);
  n = commit ? strlen(commit) : 0;
  if (n < 7 || n > 40 || strspn(commit, "0123456789abcdefABCDEF") != n)
    return memi_err_set(err, MEMEST_E_VALUE, "trainer_commit",
                        "--trainer-commit takes a commit of the trainer as 7 to 40 hex digits, "
                        "got '%.60s'",
                        commit ? commit : "");
  for (k = 0; k <= n; k++) hash[k] = (char)(commit[k] >= 'A' && commit[k] <= 'F' ? commit[k] + 32 : commit[k]);
  at = memi_commit_find(hash, &matches);
  if (matches > 1)
    return memi_err_set(err, MEMEST_E_VALUE, "trainer_commit",
                        "--trainer-commit %s names %d of the trainer's commits; give more digits",
                        hash, matches);
  if (at < 0 && n < 40)
    return memi_err_set(err, MEMEST_E_VALUE, "trainer_commit",
                        "no commit of the trainer that memest knows (%.7s, %s, to %.7s, %s) "
                        "begins with %s; give the full 40-digit hash of a newer one",
                        memi_commit_at(0)->hash, memi_commit_at(0)->date,
                        memi_commit_at(memi_commit_count() - 1)->hash,
                        memi_commit_at(memi_commit_count() - 1)->date, hash);
  snprintf(run->commit, sizeof run->commit, "%s", at >= 0 ? memi_commit_at(at)->hash : hash);
  snprintf(run->commit_from, sizeof run->commit_from, "%s", from ? from : "");
  return MEMEST_OK;
}
