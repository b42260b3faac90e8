/*
** wandb.c — a W&B run's files read for the run's inputs
** (memest_wandb_read): config.yaml through libyaml's event parser (both
** forms W&B writes: `key: {value: ...}` from wandb-core, and the older
** `wandb_version: 1` with `desc:` and `value:`; any indentation and key
** order), whose distributed and training sections go through the field
** table; wandb-metadata.json through cJSON for the GPU (its name and the
** capacity NVML reports, mapped to a GPU preset), the GPUs per node, the
** node count (slurm.nnodes, or the program's benchmark folder), the
** trainer commit and the working directory; and wandb-summary.json for the
** last step's peak, step time and tokens/s. W&B 0.21+ also keeps the environment under
** _wandb.value.e in config.yaml, read where the metadata is missing.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <yaml.h>

#include "trainer/trainer.h"

#define PATH_DEPTH 8

/* What the run's environment says, from the metadata or config.yaml. */
typedef struct wb_env {
  char gpu[128];
  double gpu_bytes;            /* NVML's total memory of GPU 0; 0 when not given */
  int64_t gpu_count, nodes;
  char nodes_from[64];
  char commit[48], program[512], root[512];
  char from[64];               /* the file it was read from */
  char refused[300];           /* a count that is no count: why the GPU count is not read */
} wb_env;

/* {======================================================================
** Counts from the files: whole numbers checked before any arithmetic
** ======================================================================= */

/* A count as a file writes it, a JSON or YAML number or a string of digits
** (protojson's uint64): 1 with *out when it is a whole number from 0 to
** INT64_MAX, else 0 with its text in shown (never more than 40 bytes of it). */
static int count_text(const char *s, int64_t *out, char *shown, size_t size) {
  int64_t v = 0;
  size_t i;
  snprintf(shown, size, "'%.40s%s'", s, strlen(s) > 40 ? "..." : "");
  if (s[0] == '\0' || strlen(s) > 19) return 0;
  for (i = 0; s[i]; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    if (v > (INT64_MAX - (s[i] - '0')) / 10) return 0;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return 1;
}

static int count_number(double x, int64_t *out, char *shown, size_t size) {
  snprintf(shown, size, "%.17g", x);
  /* 2^63 is the first double past INT64_MAX. */
  if (!(x >= 0 && x < 9223372036854775808.0) || x != floor(x)) return 0;
  *out = (int64_t)x;
  return 1;
}

/* Takes count `field` of file `from` into *dst when it is one from 1 to
** MEMEST_MAX_GPUS; 0 is left as not given; anything else is the reason the
** GPU count is refused (the first such reason is kept). */
static void take_count(wb_env *e, const char *from, const char *field, int ok, int64_t v,
                       const char *shown, int64_t *dst) {
  if (ok && v >= 1 && v <= MEMEST_MAX_GPUS) {
    *dst = v;
    return;
  }
  if (ok && v == 0) return;
  if (e->refused[0] == '\0')
    snprintf(e->refused, sizeof e->refused,
             "%.80s: %.60s is %.60s, not a count from 1 to MEMEST_MAX_GPUS (%d)", from, field, shown,
             MEMEST_MAX_GPUS);
}
/* }====================================================================== */

/* {======================================================================
** config.yaml
** ======================================================================= */

typedef struct yaml_walk {
  memest_trainer_run *run;
  const char *label;
  wb_env *env;                /* _wandb.value.e, where the metadata is missing */
  char key[PATH_DEPTH][64];   /* the mapping keys (or "#i" in a sequence) down to here */
  int is_map[MEMEST_MAX_YAML_DEPTH + 1], want_key[MEMEST_MAX_YAML_DEPTH + 1];
  int64_t index[MEMEST_MAX_YAML_DEPTH + 1];
  int depth;
  int sections;               /* distributed and training sections met */
  int skip_from;              /* a field's value that is a container: its depth, else 0 */
} yaml_walk;

/* A plain scalar as YAML 1.1 reads it (null, bool, int, float), else a str. */
static void yaml_scalar(const yaml_event_t *e, tvalue *v) {
  const char *s = (const char *)e->data.scalar.value, *tag = (const char *)e->data.scalar.tag;
  size_t n = e->data.scalar.length;
  int plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  char buf[64], *end;
  memset(v, 0, sizeof *v);
  if (tag != NULL && strcmp(tag, YAML_STR_TAG) != 0) plain = 1;   /* !!int, !!float, !!bool, !!null */
  if (tag != NULL && strcmp(tag, YAML_STR_TAG) == 0) plain = 0;
  if (plain && n < sizeof buf) {
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (n == 0 || strcmp(buf, "~") == 0 || strcmp(buf, "null") == 0 || strcmp(buf, "Null") == 0 ||
        strcmp(buf, "NULL") == 0) {
      v->kind = TV_NONE;
      return;
    }
    if (strcmp(buf, "true") == 0 || strcmp(buf, "True") == 0 || strcmp(buf, "TRUE") == 0 ||
        strcmp(buf, "false") == 0 || strcmp(buf, "False") == 0 || strcmp(buf, "FALSE") == 0) {
      v->kind = TV_BOOL;
      v->i = buf[0] == 't' || buf[0] == 'T';
      return;
    }
    if (strspn(buf, "+-0123456789_") == n && strpbrk(buf, "0123456789") != NULL) {
      long long x = strtoll(buf, &end, 10);
      if (*end == '\0' && x > -(1LL << 62) && x < (1LL << 62)) {
        v->kind = TV_INT;
        v->i = x;
        return;
      }
    }
    if (strcmp(buf, ".inf") == 0 || strcmp(buf, ".Inf") == 0 || strcmp(buf, ".nan") == 0 ||
        strcmp(buf, ".NaN") == 0 || strcmp(buf, "-.inf") == 0) {
      v->kind = TV_FLOAT;
      v->f = buf[1] == 'n' || buf[1] == 'N' ? NAN : buf[0] == '-' ? -HUGE_VAL : HUGE_VAL;
      return;
    }
    if (strspn(buf, "+-0123456789.eE_") == n && strpbrk(buf, "0123456789") != NULL) {
      double x = strtod(buf, &end);
      if (*end == '\0') {
        v->kind = TV_FLOAT;
        v->f = x;
        return;
      }
    }
  }
  memi_tv_set_text(v, TV_STR, s, n);
  if (n >= sizeof v->text) memi_tv_set_text(v, TV_OTHER, "a string longer than memest reads", 33);
}

/* Whether the path so far is _wandb.value.e.<id>.<a>[.<b>[.<c>]]. */
static int env_path(const yaml_walk *w, const char *a, const char *b, const char *c) {
  int need = 5 + (b != NULL) + (c != NULL);
  return w->depth == need && strcmp(w->key[0], "_wandb") == 0 && strcmp(w->key[1], "value") == 0 &&
         strcmp(w->key[2], "e") == 0 && strcmp(w->key[4], a) == 0 &&
         (b == NULL || strcmp(w->key[5], b) == 0) && (c == NULL || strcmp(w->key[6], c) == 0);
}

/* A YAML count: an int, or a string of digits; 0 with shown otherwise. */
static int yaml_count(const tvalue *v, int64_t *out, char *shown, size_t size) {
  if (v->kind == TV_INT && v->i >= 0) {
    *out = v->i;
    return 1;
  }
  if (v->kind == TV_STR) return count_text(v->text, out, shown, size);
  memi_tv_show(v, shown, size);
  return 0;
}

static void yaml_env(yaml_walk *w, const tvalue *v) {
  wb_env *e = w->env;
  const char *text = v->kind == TV_STR ? v->text : "";
  char shown[64];
  int64_t n = 0;
  if (env_path(w, "gpu", NULL, NULL)) tr_copy(e->gpu, sizeof e->gpu, text);
  else if (env_path(w, "gpu_count", NULL, NULL)) {
    int ok = yaml_count(v, &n, shown, sizeof shown);
    take_count(e, "config.yaml", "_wandb.e.gpu_count", ok, n, shown, &e->gpu_count);
  } else if (env_path(w, "gpu_nvidia", "#0", "name") && e->gpu[0] == '\0') tr_copy(e->gpu, sizeof e->gpu, text);
  else if (env_path(w, "gpu_nvidia", "#0", "memoryTotal")) {
    if (yaml_count(v, &n, shown, sizeof shown)) e->gpu_bytes = (double)n;
  } else if (env_path(w, "git", "commit", NULL)) tr_copy(e->commit, sizeof e->commit, text);
  else if (env_path(w, "slurm", "nnodes", NULL)) {
    int64_t before = e->nodes;
    int ok = yaml_count(v, &n, shown, sizeof shown);
    take_count(e, "config.yaml", "_wandb.e.slurm.nnodes", ok, n, shown, &e->nodes);
    if (e->nodes != before) snprintf(e->nodes_from, sizeof e->nodes_from, "slurm.nnodes");
  } else if (env_path(w, "program", NULL, NULL)) tr_copy(e->program, sizeof e->program, text);
  else if (env_path(w, "root", NULL, NULL)) tr_copy(e->root, sizeof e->root, text);
}

/* A value at the current path: a field of a section, or the environment. */
static void yaml_value(yaml_walk *w, const tvalue *v, int line) {
  tloc at;
  const char *section = w->key[0];
  int field_at;
  if (w->depth >= 5 && strcmp(section, "_wandb") == 0) {
    yaml_env(w, v);
    return;
  }
  if (strcmp(section, "distributed") != 0 && strcmp(section, "training") != 0) return;
  field_at = w->depth >= 3 && strcmp(w->key[1], "value") == 0 ? 2 : 1;
  if (w->depth != field_at + 1 || strcmp(w->key[1], "desc") == 0) return;
  memi_tloc_set(&at, w->label, line);
  memi_trainer_take(w->run, section, w->key[field_at], v, &at);
}

/* The key the next event is under: the mapping's last key, or the index. */
static void yaml_enter(yaml_walk *w) {
  if (w->depth > 0 && !w->is_map[w->depth]) {
    if (w->depth <= PATH_DEPTH) snprintf(w->key[w->depth - 1], sizeof w->key[0], "#%lld", (long long)w->index[w->depth]);
    w->index[w->depth]++;
  }
}

static memest_code yaml_fail(memest_error *err, const char *label, const yaml_parser_t *ps) {
  return memi_err_set(err, MEMEST_E_VALUE, "config.yaml", "%.200s:%d:%d: not YAML as W&B writes it: %.200s%s%.100s",
                      label, (int)ps->problem_mark.line + 1, (int)ps->problem_mark.column + 1,
                      ps->problem ? ps->problem : "a syntax error", ps->context ? " " : "",
                      ps->context ? ps->context : "");
}

/* One event; returns 0 at the end of the first document. */
static int yaml_event(yaml_walk *w, const yaml_event_t *e, memest_error *err, memest_code *rc) {
  int line = (int)e->start_mark.line + 1;
  tvalue v;
  switch (e->type) {
    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT:
      yaml_enter(w);
      if (w->depth >= 1 && w->depth <= PATH_DEPTH && w->is_map[w->depth] && !w->want_key[w->depth]) {
        /* A container as a value: a field's value is then not one memest reads. */
        if (w->depth == 3 || (w->depth == 2 && strcmp(w->key[1], "value") != 0 && strcmp(w->key[1], "desc") != 0)) {
          memset(&v, 0, sizeof v);
          memi_tv_set_text(&v, TV_OTHER, e->type == YAML_MAPPING_START_EVENT ? "a mapping" : "a list", e->type == YAML_MAPPING_START_EVENT ? 9 : 6);
          yaml_value(w, &v, line);
        }
      }
      if (w->depth >= 1 && w->is_map[w->depth]) w->want_key[w->depth] = 1;
      if (w->depth == MEMEST_MAX_YAML_DEPTH) {
        *rc = memi_err_set(err, MEMEST_E_LIMIT, "config.yaml",
                           "%.200s:%d: nests deeper than MEMEST_MAX_YAML_DEPTH (%d); W&B's "
                           "config.yaml nests a few levels",
                           w->label, line, MEMEST_MAX_YAML_DEPTH);
        return 0;
      }
      w->depth++;
      w->is_map[w->depth] = e->type == YAML_MAPPING_START_EVENT;
      w->want_key[w->depth] = 1;
      w->index[w->depth] = 0;
      return 1;
    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT:
      if (w->depth > 0) w->depth--;
      if (w->depth >= 1 && w->is_map[w->depth]) w->want_key[w->depth] = 1;
      return 1;
    case YAML_SCALAR_EVENT:
    case YAML_ALIAS_EVENT:
      if (w->depth >= 1 && w->is_map[w->depth] && w->want_key[w->depth]) {
        if (w->depth <= PATH_DEPTH) {
          size_t n = e->type == YAML_SCALAR_EVENT ? e->data.scalar.length : 0;
          if (n >= sizeof w->key[0]) n = sizeof w->key[0] - 1;
          memcpy(w->key[w->depth - 1], e->type == YAML_SCALAR_EVENT ? (const char *)e->data.scalar.value : "", n);
          w->key[w->depth - 1][n] = '\0';
          if (w->depth == 1 && (strcmp(w->key[0], "distributed") == 0 || strcmp(w->key[0], "training") == 0))
            w->sections++;
        }
        w->want_key[w->depth] = 0;
        return 1;
      }
      yaml_enter(w);
      if (e->type == YAML_ALIAS_EVENT) {
        memset(&v, 0, sizeof v);
        memi_tv_set_text(&v, TV_OTHER, "a YAML alias", 12);
      } else {
        yaml_scalar(e, &v);
      }
      if (w->depth <= PATH_DEPTH) yaml_value(w, &v, line);
      if (w->depth >= 1 && w->is_map[w->depth]) w->want_key[w->depth] = 1;
      return 1;
    case YAML_DOCUMENT_END_EVENT:
    case YAML_STREAM_END_EVENT:
      return 0;
    default:
      return 1;
  }
}

static memest_code read_config(memest_trainer_run *run, const char *text, size_t len, const char *label,
                               wb_env *env, memest_error *err) {
  yaml_parser_t ps;
  yaml_walk *w = calloc(1, sizeof *w);
  memest_code rc = MEMEST_OK;
  if (w == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "config.yaml", "out of memory");
  if (!yaml_parser_initialize(&ps)) {
    free(w);
    return memi_err_set(err, MEMEST_E_NOMEM, "config.yaml", "out of memory");
  }
  w->run = run;
  w->label = label;
  w->env = env;
  yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
  for (;;) {
    yaml_event_t e;
    int go;
    if (!yaml_parser_parse(&ps, &e)) {
      rc = ps.error == YAML_MEMORY_ERROR ? memi_err_set(err, MEMEST_E_NOMEM, "config.yaml", "out of memory")
                                         : yaml_fail(err, label, &ps);
      break;
    }
    go = yaml_event(w, &e, err, &rc);
    yaml_event_delete(&e);
    if (!go) break;
  }
  if (rc == MEMEST_OK && w->sections == 0)
    rc = memi_err_set(err, MEMEST_E_VALUE, "config.yaml",
                      "%.200s has no distributed or training section: the trainer writes both into "
                      "the run's config at every step; is it a pretraining run's?",
                      label);
  yaml_parser_delete(&ps);
  free(w);
  return rc;
}
/* }====================================================================== */

/* {======================================================================
** wandb-metadata.json, wandb-summary.json
** ======================================================================= */

static cJSON *parse_json(const char *text, size_t len, const char *label, memest_error *err) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (root == NULL || !cJSON_IsObject(root)) {
    int line = 1;
    const char *p;
    for (p = text; end != NULL && p < end && p < text + len; p++) line += *p == '\n';
    cJSON_Delete(root);
    memi_err_set(err, MEMEST_E_VALUE, "wandb", "%.200s:%d: not a JSON object as W&B writes it", label, line);
    return NULL;
  }
  return root;
}

static const char *json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A count written as a number or as a string (protojson's uint64): 1 with
** *out; 0 when absent; -1 when it is no whole number from 0 to INT64_MAX
** (shown says what it is). */
static int json_count(const cJSON *o, const char *key, int64_t *out, char *shown, size_t size) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (v == NULL || cJSON_IsNull(v)) return 0;
  if (cJSON_IsNumber(v)) return count_number(v->valuedouble, out, shown, size) ? 1 : -1;
  if (cJSON_IsString(v)) return count_text(v->valuestring, out, shown, size) ? 1 : -1;
  snprintf(shown, size, "%s", cJSON_IsBool(v) ? "a boolean" : cJSON_IsArray(v) ? "a list" : "an object");
  return -1;
}

/* Count `key` of object o (field `field` of wandb-metadata.json) through
** take_count; 1 when it was there at all. */
static int metadata_count(wb_env *env, const cJSON *o, const char *key, const char *field,
                          int64_t *dst) {
  char shown[64];
  int64_t n = 0;
  int got = json_count(o, key, &n, shown, sizeof shown);
  if (got == 0) return 0;
  take_count(env, "wandb-metadata.json", field, got > 0, n, shown, dst);
  return 1;
}

static void read_metadata(const cJSON *m, wb_env *env) {
  const cJSON *list, *first, *git, *slurm;
  const char *s;
  char shown[64];
  int64_t bytes = 0;
  if ((s = json_str(m, "gpu")) != NULL) tr_copy(env->gpu, sizeof env->gpu, s);
  metadata_count(env, m, "gpu_count", "gpu_count", &env->gpu_count);
  list = cJSON_GetObjectItemCaseSensitive(m, "gpu_nvidia");
  if (!cJSON_IsArray(list)) list = cJSON_GetObjectItemCaseSensitive(m, "gpuNvidia");
  if (!cJSON_IsArray(list)) list = cJSON_GetObjectItemCaseSensitive(m, "gpu_devices");
  first = cJSON_IsArray(list) ? cJSON_GetArrayItem(list, 0) : NULL;
  if (cJSON_IsObject(first)) {
    if ((s = json_str(first, "name")) != NULL && env->gpu[0] == '\0') tr_copy(env->gpu, sizeof env->gpu, s);
    if (json_count(first, "memoryTotal", &bytes, shown, sizeof shown) > 0 ||
        json_count(first, "memory_total", &bytes, shown, sizeof shown) > 0)
      env->gpu_bytes = (double)bytes;
  }
  git = cJSON_GetObjectItemCaseSensitive(m, "git");
  if (cJSON_IsObject(git) && (s = json_str(git, "commit")) != NULL) tr_copy(env->commit, sizeof env->commit, s);
  slurm = cJSON_GetObjectItemCaseSensitive(m, "slurm");
  if (cJSON_IsObject(slurm)) {
    if (metadata_count(env, slurm, "nnodes", "slurm.nnodes", &env->nodes))
      snprintf(env->nodes_from, sizeof env->nodes_from, "slurm.nnodes");
    else if (metadata_count(env, slurm, "job_num_nodes", "slurm.job_num_nodes", &env->nodes))
      snprintf(env->nodes_from, sizeof env->nodes_from, "slurm.job_num_nodes");
  }
  if ((s = json_str(m, "program")) != NULL) tr_copy(env->program, sizeof env->program, s);
  if ((s = json_str(m, "root")) != NULL) tr_copy(env->root, sizeof env->root, s);
}

/* A summary figure from 0 (exclusive) to max, or 0 when it is none. */
static double summary_figure(const cJSON *s, const char *key, double max) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, key);
  return cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble <= max ? v->valuedouble : 0;
}

static void read_summary(memest_trainer_run *run, const cJSON *s) {
  const cJSON *peak = cJSON_GetObjectItemCaseSensitive(s, "infra/peak-gpu-memory");
  const cJSON *step = cJSON_GetObjectItemCaseSensitive(s, "train/step");
  /* The trainer logs the step's wall seconds (MAX over ranks) and global
  ** batch x sequence over them under these keys. */
  run->summary_step_seconds = summary_figure(s, "infra/step-time", 1e7);
  run->summary_tokens_per_second = summary_figure(s, "infra/tokens-per-second", 1e15);
  if (cJSON_IsNumber(peak) && isfinite(peak->valuedouble) && peak->valuedouble >= 0 &&
      peak->valuedouble <= MEMEST_MAX_GPU_GIB) {
    run->summary_gib = peak->valuedouble;
    run->summary_step = cJSON_IsNumber(step) && step->valuedouble >= 0 && step->valuedouble < 1e15
                            ? (int64_t)step->valuedouble + 1
                            : 0;
  }
}
void memest_trainer_run_summary_time(const memest_trainer_run *run, double *step_seconds,
                                     double *tokens_per_second) {
  *step_seconds = run->summary_step_seconds > 0 ? run->summary_step_seconds : -1;
  *tokens_per_second = run->summary_tokens_per_second > 0 ? run->summary_tokens_per_second : -1;
}
/* }====================================================================== */

/* {======================================================================
** The GPU, the GPU count, the commit
** ======================================================================= */

/* The token of NVIDIA's device name for each GPU preset. */
static const struct { const char *token, *preset, *size; } gpu_names[] = {
  {"H100", "h100", NULL}, {"H200", "h200", NULL}, {"B200", "b200", NULL},
  {"A100", "a100-80", "80GB"}, {"A100", "a100-40", "40GB"},
};

/* The preset of GPU name with NVML's total memory bytes (0: not given). */
static const char *gpu_preset(const char *name, double bytes) {
  size_t k;
  int i;
  for (k = 0; k < sizeof gpu_names / sizeof gpu_names[0]; k++) {
    if (strstr(name, gpu_names[k].token) == NULL) continue;
    for (i = 0; i < memest_gpu_preset_count(); i++) {
      double preset = (double)memest_gpu_preset_bytes(i);
      if (strcmp(memest_gpu_preset_name(i), gpu_names[k].preset) != 0) continue;
      /* NVML counts a few hundred MiB more than the driver gives PyTorch. */
      if (bytes > 0 && bytes >= preset * 0.995 && bytes <= preset * 1.03) return gpu_names[k].preset;
      if (bytes <= 0 && (gpu_names[k].size == NULL || strstr(name, gpu_names[k].size) != NULL))
        return gpu_names[k].preset;
    }
  }
  return NULL;
}

static void apply_env(memest_trainer_run *run, const wb_env *env) {
  tloc at;
  char how[200], total[32];
  memi_tloc_set(&at, env->from, 0);
  if (env->program[0]) {   /* benchmarks/pretraining/<model>/h100-4n8g/<name>.py */
    const char *slash = strrchr(env->program, '/'), *start;
    if (slash != NULL && slash > env->program) {
      char folder[128];
      for (start = slash; start > env->program && start[-1] != '/'; start--) continue;
      snprintf(folder, sizeof folder, "%.*s", (int)(slash - start < 120 ? slash - start : 120), start);
      memi_run_folder_layout(run, folder, folder);
    }
  }
  if (env->gpu[0]) {
    const char *preset = gpu_preset(env->gpu, env->gpu_bytes);
    if (preset != NULL) {
      snprintf(how, sizeof how, "%.100s%s", env->gpu, env->gpu_bytes > 0 ? ", by its name and NVML's total memory" : ", by its name");
      memi_run_input(run, MEMEST_P_GPU, preset, &at, "gpu", how);
    } else {
      run->in[MEMEST_P_GPU].set = 0;
      memi_run_note(run, "%s: the GPU '%.100s' (%.2f GiB in NVML) is no GPU preset; give --gpu-memory-gb "
                         "with what torch.cuda.get_device_properties(0).total_memory / 2**30 gives",
                    env->from, env->gpu, env->gpu_bytes / GIB);
    }
  }
  /* Each count is at most MEMEST_MAX_GPUS (take_count), so the product fits. */
  if (env->refused[0]) {
    memi_run_refuse(run, MEMEST_P_TOTAL_GPUS, &at, "", "%s, so the GPU count cannot be read",
                    env->refused);
  } else if (env->gpu_count > 0 && env->nodes > 0 && env->gpu_count * env->nodes > MEMEST_MAX_GPUS) {
    memi_run_refuse(run, MEMEST_P_TOTAL_GPUS, &at, "",
                    "%s: %s %lld nodes x gpu_count %lld GPUs per node is %lld GPUs, over "
                    "MEMEST_MAX_GPUS (%d)",
                    env->from, env->nodes_from, (long long)env->nodes, (long long)env->gpu_count,
                    (long long)(env->gpu_count * env->nodes), MEMEST_MAX_GPUS);
  } else if (env->gpu_count > 0 && env->nodes > 0) {
    snprintf(total, sizeof total, "%lld", (long long)(env->gpu_count * env->nodes));
    snprintf(how, sizeof how, "%s %lld nodes x gpu_count %lld GPUs per node", env->nodes_from,
             (long long)env->nodes, (long long)env->gpu_count);
    memi_run_input(run, MEMEST_P_TOTAL_GPUS, total, &at, "", how);
  } else if (env->gpu_count > 0 && !run->in[MEMEST_P_TOTAL_GPUS].set) {
    memi_run_note(run, "%s gives %lld GPUs per node (gpu_count) but no node count (no slurm.nnodes); "
                       "give --total-gpus",
                  env->from, (long long)env->gpu_count);
  }
  if (env->commit[0]) {
    char from[96];
    memest_error e;
    snprintf(from, sizeof from, "%.60s git.commit", env->from);
    if (memest_trainer_run_set_commit(run, env->commit, from, &e) != MEMEST_OK)
      memi_run_note(run, "%s: git.commit %.48s is not a commit memest can read", env->from, env->commit);
  }
  if (env->root[0] == '/') tr_copy(run->root_hint, sizeof run->root_hint, env->root);
}
/* }====================================================================== */

static memest_code too_large(memest_error *err, const char *what, size_t len, long long max, const char *name) {
  return memi_err_set(err, MEMEST_E_LIMIT, "wandb", "%s is %zu bytes, over %s (%lld)", what, len, name, max);
}

/* Refuses the files before a byte is read: none of the two that hold
** inputs, or one over its limit. */
static memest_code check_files(const memest_wandb_files *f, const char *dir, memest_error *err) {
  if (f->config_yaml == NULL && f->metadata_json == NULL)
    return memi_err_set(err, MEMEST_E_MISSING, "wandb",
                        "%.200s has neither config.yaml nor wandb-metadata.json: give a run's "
                        "folder, wandb/run-<date>-<id> (or its files/)",
                        dir);
  if (f->config_yaml && f->config_len > (size_t)MEMEST_MAX_WANDB_CONFIG_BYTES)
    return too_large(err, "config.yaml", f->config_len, MEMEST_MAX_WANDB_CONFIG_BYTES, "MEMEST_MAX_WANDB_CONFIG_BYTES");
  if (f->metadata_json && f->metadata_len > (size_t)MEMEST_MAX_WANDB_JSON_BYTES)
    return too_large(err, "wandb-metadata.json", f->metadata_len, MEMEST_MAX_WANDB_JSON_BYTES, "MEMEST_MAX_WANDB_JSON_BYTES");
  if (f->summary_json && f->summary_len > (size_t)MEMEST_MAX_WANDB_JSON_BYTES)
    return too_large(err, "wandb-summary.json", f->summary_len, MEMEST_MAX_WANDB_JSON_BYTES, "MEMEST_MAX_WANDB_JSON_BYTES");
  return MEMEST_OK;
}

/* Parses JSON file `name` of the run (label dir/name) and reads it with fn. */
static memest_code read_json_file(memest_trainer_run *run, const char *dir, const char *name,
                                  const char *text, size_t len, wb_env *env, memest_error *err) {
  char label[300];
  cJSON *doc;
  snprintf(label, sizeof label, "%.200s/%s", dir, name);
  memi_run_file(run, label);
  if ((doc = parse_json(text, len, label, err)) == NULL) return err->code;
  if (env != NULL) {
    snprintf(env->from, sizeof env->from, "%s", name);
    read_metadata(doc, env);
  } else {
    read_summary(run, doc);
  }
  cJSON_Delete(doc);
  return MEMEST_OK;
}

memest_code memest_wandb_read(const memest_wandb_files *f, memest_trainer_run **out,
                              memest_error *err) {
  memest_trainer_run *run;
  wb_env env, from_config;
  char label[300];
  const char *dir;
  memest_code rc = MEMEST_OK;
  *out = NULL;
  memi_err_clear(err);
  if (f == NULL) return memi_err_set(err, MEMEST_E_VALUE, "wandb", "no W&B files were given");
  dir = f->dir && f->dir[0] ? f->dir : "the W&B run";
  if ((rc = check_files(f, dir, err)) != MEMEST_OK) return rc;
  run = memi_run_new(MEMEST_SOURCE_WANDB);
  if (run == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "wandb", "out of memory");
  memset(&env, 0, sizeof env);
  memset(&from_config, 0, sizeof from_config);
  snprintf(from_config.from, sizeof from_config.from, "config.yaml _wandb");
  if (f->config_yaml != NULL) {
    snprintf(label, sizeof label, "%.200s/config.yaml", dir);
    memi_run_file(run, label);
    rc = read_config(run, f->config_yaml, f->config_len, label, &from_config, err);
  } else {
    memi_run_note(run, "%s has no config.yaml: W&B writes it when an online run ends, so a crashed "
                       "or offline run lacks it (wandb sync uploads it); the layout must come from "
                       "flags",
                  dir);
  }
  if (rc == MEMEST_OK && f->metadata_json != NULL) {
    rc = read_json_file(run, dir, "wandb-metadata.json", f->metadata_json, f->metadata_len, &env, err);
  } else if (rc == MEMEST_OK) {
    memi_run_note(run, "%s has no wandb-metadata.json (an offline run does not write it): the GPU "
                       "and the node count come from config.yaml's _wandb section if W&B kept them there",
                  dir);
    env = from_config;
  }
  if (rc == MEMEST_OK && f->summary_json != NULL)
    rc = read_json_file(run, dir, "wandb-summary.json", f->summary_json, f->summary_len, NULL, err);
  if (rc != MEMEST_OK) {
    memest_trainer_run_free(run);
    return rc;
  }
  apply_env(run, &env);
  if (f->config_yaml != NULL) {
    memi_trainer_date_fields(run, 1);
    memi_trainer_defaults(run);
  }
  *out = run;
  return MEMEST_OK;
}
