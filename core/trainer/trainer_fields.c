/*
** trainer_fields.c — the one table from the trainer's config fields to
** memest's inputs, and what every reader does with a field it found
** (memi_trainer_take): a memest input with how it was converted, the
** run's regime, "read and ignored" for a field that changes no memory, or a
** warning naming a field memest does not know. The rows follow the
** trainer's DistributedCfg and TrainingCfg at 889a408 plus the fields of
** its older schemas (docs/trainer-files.md gives the history). A new field
** is one row here.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trainer/trainer.h"
#include "trainer/trainer_commits.h"

#define DIST "distributed"
#define TRAIN "training"

/* section, name, since, until (the commits that added and removed the field), conversion,
** input, the trainer's default (as memest takes it), note */
static const trainer_field field_table[] = {
  {DIST, "pipeline_parallel_size", NULL, NULL, TF_INT, MEMEST_P_PP_SIZE, "1",
   "pipeline-parallel degree; DualPipeV runs two stages per rank"},
  {DIST, "context_parallel_size", NULL, NULL, TF_INT, MEMEST_P_CP_SIZE, "1", "context-parallel degree"},
  {DIST, "expert_parallel_size", NULL, NULL, TF_INT, MEMEST_P_EP_SIZE, "1", "expert-parallel degree"},
  {DIST, "sharding_strategy", "093a9e4", NULL, TF_SHARDING, MEMEST_P_SHARDING, "fsdp",
   "since 093a9e4 (2026-05-16); every run before it was FSDP"},
  {DIST, "timeout", "fb6798d", NULL, TF_IGNORE, -1, NULL,
   "NCCL and heartbeat timeout, since fb6798d (2026-05-17)"},
  {DIST, "nccl_timeout_seconds", "093a9e4", "fb6798d", TF_IGNORE, -1, NULL,
   "NCCL timeout, from 093a9e4 until fb6798d made it timeout"},
  {TRAIN, "dataset", NULL, NULL, TF_IGNORE, -1, NULL, "the token files read"},
  {TRAIN, "sequence_length", NULL, NULL, TF_INT, MEMEST_P_SEQUENCE_LENGTH, NULL,
   "tokens per sequence; also the rotary tables' length"},
  {TRAIN, "seed", NULL, NULL, TF_IGNORE, -1, NULL, "random seed"},
  {TRAIN, "lr", "cae7fb3", NULL, TF_IGNORE, -1, NULL, "learning rate, since cae7fb3 (2026-06-21)"},
  {TRAIN, "min_lr", NULL, "cae7fb3", TF_IGNORE, -1, NULL, "learning rate, until cae7fb3"},
  {TRAIN, "max_lr", NULL, "cae7fb3", TF_IGNORE, -1, NULL, "learning rate, until cae7fb3"},
  {TRAIN, "warmup_steps", NULL, "cae7fb3", TF_IGNORE, -1, NULL, "learning-rate warmup, until cae7fb3"},
  {TRAIN, "wsd_decay_type", "941bfc0", "cae7fb3", TF_IGNORE, -1, NULL, "learning-rate decay, 941bfc0 to cae7fb3"},
  {TRAIN, "wsd_decay_steps", "941bfc0", "cae7fb3", TF_IGNORE, -1, NULL, "learning-rate decay, 941bfc0 to cae7fb3"},
  {TRAIN, "max_steps", NULL, NULL, TF_IGNORE, -1, NULL, "steps to train"},
  {TRAIN, "micro_batch_size", NULL, NULL, TF_INT, MEMEST_P_MICRO_BATCH_SIZE, NULL, "sequences per micro-batch"},
  {TRAIN, "global_batch_size", NULL, NULL, TF_INT, MEMEST_P_GLOBAL_BATCH_SIZE, NULL,
   "sequences per optimizer step"},
  {TRAIN, "optimizer", NULL, NULL, TF_OPTIMIZER, MEMEST_P_OPTIMIZER, NULL,
   "make_muon_optimizer or make_adamw_optimizer, also in partial(...); before cae7fb3 the "
   "strings 'Adam' and (since d2fffcc) 'Muon'"},
  {TRAIN, "scheduler", NULL, NULL, TF_IGNORE, -1, NULL, "learning-rate schedule"},
  {TRAIN, "model", NULL, NULL, TF_MODEL, MEMEST_P_MODEL, NULL,
   "a config.json path relative to the trainer's root, or a hub id"},
  {TRAIN, "save_interval", NULL, NULL, TF_IGNORE, -1, NULL,
   "the checkpoint is saved after the step's peak is measured, from host memory"},
  {TRAIN, "save_location", NULL, NULL, TF_SAVE_LOCATION, -1, NULL,
   "None: the run starts from scratch; a folder: the run loads its latest checkpoint (the "
   "regime)"},
  {TRAIN, "moe_load_balance_coef", NULL, NULL, TF_IGNORE, -1, NULL,
   "auxiliary loss weight; a few per-expert buffers when above 0, negligible"},
  {TRAIN, "moe_load_balance_type", NULL, NULL, TF_IGNORE, -1, NULL, "auxiliary loss kind"},
  {TRAIN, "benchmark", "9d6634b", NULL, TF_BENCHMARK, MEMEST_P_ROUTING, "measured",
   "force-balanced routing, since 9d6634b (2026-06-23)"},
  {TRAIN, "fp8", "f53f32d", NULL, TF_FP8, MEMEST_P_FP8_TRAINING, "disabled",
   "FP8 through DeepGEMM, since f53f32d (2026-07-14)"},
  {TRAIN, "fp8_training", NULL, "f53f32d", TF_FP8_STRING, MEMEST_P_FP8_TRAINING, NULL,
   "'deep-gemm' or 'disabled', until f53f32d made it fp8"},
  {TRAIN, "init_std", NULL, NULL, TF_IGNORE, -1, NULL, "weight initialisation"},
  {TRAIN, "nsys_start", NULL, NULL, TF_IGNORE, -1, NULL, "profiler window"},
  {TRAIN, "nsys_stop", NULL, NULL, TF_IGNORE, -1, NULL, "profiler window"},
  {TRAIN, "memory_profile_start", "d80a5e6", NULL, TF_IGNORE, -1, NULL,
   "the allocation history is kept on the host: no effect on the GPU peak"},
  {TRAIN, "memory_profile_stop", "d80a5e6", NULL, TF_IGNORE, -1, NULL,
   "the allocation history is kept on the host: no effect on the GPU peak"},
  {TRAIN, "memory_profile_output", "d80a5e6", NULL, TF_ROOT_HINT, -1, NULL,
   "the folder of the snapshots; the working directory at import, the trainer's root"},
};

#define FIELD_COUNT ((int)(sizeof field_table / sizeof field_table[0]))

int memi_trainer_field_count(void) { return FIELD_COUNT; }

const trainer_field *memi_trainer_field_at(int i) {
  return i >= 0 && i < FIELD_COUNT ? &field_table[i] : NULL;
}

const trainer_field *memi_trainer_field(const char *section, const char *name) {
  int i;
  for (i = 0; i < FIELD_COUNT; i++) {
    if (strcmp(field_table[i].section, section) == 0 && strcmp(field_table[i].name, name) == 0)
      return &field_table[i];
  }
  return NULL;
}

/* The conversions by their names in memest_trainer_field_info, in tf_conv's order. */
static const char *const conv_names[] = {"ignore", "int", "sharding", "model", "optimizer", "fp8",
                                         "fp8-string", "benchmark", "save-location", "root-hint"};

int memest_trainer_field_count(void) { return FIELD_COUNT; }

int memest_trainer_field_describe(int i, memest_trainer_field_info *out) {
  const trainer_field *f = memi_trainer_field_at(i);
  if (f == NULL || out == NULL) return 0;
  out->section = f->section;
  out->name = f->name;
  out->since = f->since;
  out->until = f->until;
  out->conversion = conv_names[f->conv];
  out->input = f->input >= 0 ? memest_param_describe((memest_param_id)f->input)->name : NULL;
  out->default_text = f->dflt;
  out->note = f->note;
  return 1;
}

void memi_trainer_field_seen(memest_trainer_run *run, const char *section, const char *name) {
  const trainer_field *f = memi_trainer_field(section, name);
  if (f != NULL && (size_t)(f - field_table) < sizeof run->seen) run->seen[f - field_table] = 1;
}

int memi_trainer_section_known(const char *section) {
  return strcmp(section, DIST) == 0 || strcmp(section, TRAIN) == 0;
}

int memi_trainer_field_matters(const char *section, const char *name) {
  const trainer_field *f = memi_trainer_field(section, name);
  return f != NULL && f->conv != TF_IGNORE && f->conv != TF_ROOT_HINT;
}

/* "section.name" into buf. */
static const char *field_name(char *buf, size_t size, const char *section, const char *name) {
  snprintf(buf, size, "%.40s.%.50s", section, name);
  return buf;
}

/* {======================================================================
** Conversions: each takes the field's value and records an input, a
** regime fact or a refusal.
** ======================================================================= */

static void refuse_value(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                         const tloc *at, const char *want) {
  char shown[160], where[200], field[96];
  field_name(field, sizeof field, f->section, f->name);
  memi_run_refuse(run, (memest_param_id)f->input, at, field, "%s: %s is %s; %s",
                  memi_tloc_show(at, where, sizeof where), field,
                  memi_tv_show(v, shown, sizeof shown), want);
}

static void take_int(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                     const tloc *at) {
  char text[32], field[96];
  int64_t x;
  if (v->kind == TV_INT) {
    x = v->i;
  } else if (v->kind == TV_FLOAT && isfinite(v->f) && v->f == floor(v->f) && fabs(v->f) < 9e15) {
    x = (int64_t)v->f;   /* W&B's JSON and YAML may write a whole number so */
  } else {
    refuse_value(run, f, v, at, "the trainer takes a whole number");
    return;
  }
  snprintf(text, sizeof text, "%lld", (long long)x);
  memi_run_input(run, (memest_param_id)f->input, text, at,
                 field_name(field, sizeof field, f->section, f->name), "");
}

static void take_choice(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                        const tloc *at, const char *a, const char *b, const char *want) {
  char field[96];
  if (v->kind == TV_STR && (strcmp(v->text, a) == 0 || strcmp(v->text, b) == 0)) {
    memi_run_input(run, (memest_param_id)f->input, v->text, at,
                   field_name(field, sizeof field, f->section, f->name), "");
    return;
  }
  refuse_value(run, f, v, at, want);
}

static void take_model(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                       const tloc *at) {
  char field[96];
  if ((v->kind != TV_PATH && v->kind != TV_STR) || v->text[0] == '\0') {
    refuse_value(run, f, v, at, "the trainer takes a config.json path or a hub id");
    return;
  }
  run->model_is_path = v->kind == TV_PATH ? 1 : run->kind == MEMEST_SOURCE_WANDB ? -1 : 0;
  run->model_resolved[0] = '\0';
  memi_run_input(run, MEMEST_P_MODEL, v->text, at, field_name(field, sizeof field, f->section, f->name),
                 v->kind == TV_PATH ? "a path, relative to the trainer's root"
                 : run->model_is_path < 0 ? "a path or a hub id"
                                          : "a hub id");
}

/* The optimizer a builder's name means; NULL when memest does not know it. */
static const char *optimizer_of(const char *name) {
  if (strcmp(name, "make_muon_optimizer") == 0 || strcmp(name, "Muon") == 0) return "muon";
  if (strcmp(name, "make_adamw_optimizer") == 0 || strcmp(name, "Adam") == 0) return "adamw";
  return NULL;
}

static void take_optimizer(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                           const tloc *at) {
  char name[TV_TEXT], how[200], field[96];
  const char *opt;
  snprintf(name, sizeof name, "%s", v->text);
  if (v->kind == TV_STR) {
    /* W&B writes a partial as its call form, "make_muon_optimizer(k=v)". */
    char *paren = strchr(name, '(');
    if (paren != NULL && name[strlen(name) - 1] == ')') *paren = '\0';
  } else if (v->kind != TV_FUNC && v->kind != TV_PARTIAL) {
    name[0] = '\0';
  }
  opt = name[0] ? optimizer_of(name) : NULL;
  if (opt == NULL) {
    refuse_value(run, f, v, at,
                 "memest knows what make_muon_optimizer and make_adamw_optimizer build (and the "
                 "older 'Muon' and 'Adam'), not this");
    return;
  }
  snprintf(how, sizeof how, "%s%.40s%s", v->kind == TV_PARTIAL ? "partial(" : "", name,
           v->kind == TV_PARTIAL ? ", ...)" : "");
  memi_run_input(run, MEMEST_P_OPTIMIZER, opt, at, field_name(field, sizeof field, f->section, f->name),
                 how);
}

static void take_bool(memest_trainer_run *run, const trainer_field *f, const tvalue *v,
                      const tloc *at, const char *yes, const char *no, const char *how_yes,
                      const char *how_no) {
  char field[96];
  if (v->kind != TV_BOOL) {
    refuse_value(run, f, v, at, "the trainer takes True or False");
    return;
  }
  field_name(field, sizeof field, f->section, f->name);
  memi_run_input(run, (memest_param_id)f->input, v->i ? yes : no, at, field, v->i ? how_yes : how_no);
  if (f->conv == TF_BENCHMARK) {
    run->benchmark = v->i ? 1 : 0;
    run->benchmark_at = *at;
  }
}

static void take_save_location(memest_trainer_run *run, const tvalue *v, const tloc *at) {
  if (v->kind == TV_NONE) {
    if (run->init == TR_INIT_UNKNOWN || run->init == TR_INIT_MAYBE) {
      run->init = TR_INIT_SCRATCH;
      run->checkpoint[0] = '\0';
      run->init_at = *at;
    }
  } else if (v->kind == TV_PATH || v->kind == TV_STR) {
    if (run->init == TR_INIT_UNKNOWN || run->init == TR_INIT_SCRATCH) {
      run->init = TR_INIT_MAYBE;
      snprintf(run->checkpoint, sizeof run->checkpoint, "%s", v->text);
      run->init_at = *at;
    }
  } else {
    memi_run_ignored(run, "training.save_location", at);
  }
}
/* }====================================================================== */

void memi_trainer_take(memest_trainer_run *run, const char *section, const char *name,
                       const tvalue *v, const tloc *at) {
  const trainer_field *f;
  char field[96], where[200];
  field_name(field, sizeof field, section, name);
  if (strcmp(section, "logging") == 0) {
    memi_run_ignored(run, field, at);
    return;
  }
  f = memi_trainer_field(section, name);
  if (f != NULL && (size_t)(f - field_table) < sizeof run->seen) run->seen[f - field_table] = 1;
  if (f == NULL) {
    memi_run_warn(run,
                  "%s: %s is not a field memest knows (the trainer's %s at 889a408 has no such "
                  "field); it was not read, and if it changes memory the estimate misses it",
                  memi_tloc_show(at, where, sizeof where), field,
                  strcmp(section, DIST) == 0 ? "DistributedCfg" : strcmp(section, TRAIN) == 0 ? "TrainingCfg" : "PretrainLMCfg");
    return;
  }
  switch (f->conv) {
    case TF_INT: take_int(run, f, v, at); break;
    case TF_SHARDING:
      take_choice(run, f, v, at, "fsdp", "hsdp", "the trainer takes 'fsdp' or 'hsdp'");
      break;
    case TF_MODEL: take_model(run, f, v, at); break;
    case TF_OPTIMIZER: take_optimizer(run, f, v, at); break;
    case TF_FP8:
      take_bool(run, f, v, at, "deep-gemm", "disabled", "fp8 = True: FP8 through DeepGEMM", "");
      break;
    case TF_FP8_STRING:
      take_choice(run, f, v, at, "deep-gemm", "disabled",
                  "the trainer before f53f32d takes 'deep-gemm' or 'disabled'");
      break;
    case TF_BENCHMARK:
      take_bool(run, f, v, at, "balanced", "measured",
                "benchmark = True: the trainer's force-balanced routing",
                "benchmark = False: the model's own router");
      break;
    case TF_SAVE_LOCATION: take_save_location(run, v, at); break;
    case TF_ROOT_HINT:
      if ((v->kind == TV_PATH || v->kind == TV_STR) && v->text[0] == '/')
        snprintf(run->root_hint, sizeof run->root_hint, "%s", v->text);
      memi_run_ignored(run, field, at);
      break;
    case TF_IGNORE: memi_run_ignored(run, field, at); break;
  }
}

void memi_trainer_take_python(memest_trainer_run *run, const char *section, const char *name,
                              const tvalue *v, const tloc *at) {
  const trainer_field *tf = memi_trainer_field(section, name);
  char why[700], shown[80], where[300];
  if (tf != NULL && tf->conv == TF_OPTIMIZER && v->kind == TV_STR && strcmp(v->text, "Muon") != 0 &&
      strcmp(v->text, "Adam") != 0) {
    /* a builder's name as a string is no builder: the trainer calls it */
    snprintf(why, sizeof why, "%.200s: training.optimizer is the string '%.60s', not a builder "
             "(the trainer calls it); write the builder's name without quotes",
             memi_tloc_show(at, where, sizeof where), v->text);
    memi_trainer_refuse(run, section, name, at, why);
  } else if (tf != NULL && tf->conv == TF_INT && v->kind != TV_INT) {
    if (v->kind == TV_FLOAT) {   /* repr: a whole float keeps its ".0" */
      snprintf(shown, sizeof shown, "%.17g", v->f);
      if (strspn(shown, "-0123456789") == strlen(shown)) strcat(shown, ".0");
    } else {
      memi_tv_show(v, shown, sizeof shown);
    }
    snprintf(why, sizeof why, "%.200s: %.40s.%.64s is %s, a %s where the trainer takes an int; "
             "memest reads what Python passes: write a whole number",
             memi_tloc_show(at, where, sizeof where), section, name, shown,
             v->kind == TV_FLOAT ? "float" : v->kind == TV_BOOL ? "bool" : "value of another type");
    memi_trainer_refuse(run, section, name, at, why);
  } else {
    memi_trainer_take(run, section, name, v, at);
  }
}

void memi_trainer_note_required(memest_trainer_run *run, const char *who) {
  static const memest_param_id required[] = {MEMEST_P_MODEL, MEMEST_P_MICRO_BATCH_SIZE,
                                             MEMEST_P_GLOBAL_BATCH_SIZE, MEMEST_P_SEQUENCE_LENGTH,
                                             MEMEST_P_OPTIMIZER};
  static const char *const fields[] = {"model", "micro_batch_size", "global_batch_size",
                                       "sequence_length", "optimizer"};
  int k;
  for (k = 0; k < 5; k++)
    if (!run->in[required[k]].set && !run->in[required[k]].refused)
      memi_run_note(run, "%s training.%s, which the trainer requires", who, fields[k]);
}

void memi_trainer_refuse(memest_trainer_run *run, const char *section, const char *name,
                         const tloc *at, const char *why) {
  const trainer_field *f = memi_trainer_field(section, name);
  char field[96];
  field_name(field, sizeof field, section, name);
  if (f != NULL && (size_t)(f - field_table) < sizeof run->seen) run->seen[f - field_table] = 1;
  if (f == NULL || f->input < 0) {
    if (f != NULL && f->conv == TF_SAVE_LOCATION) {
      run->init = TR_INIT_UNKNOWN;
      run->init_unread = 1;
      run->init_at = *at;
    }
    if (f == NULL && strcmp(section, "logging") != 0) memi_trainer_take(run, section, name, NULL, at);
    else memi_run_ignored(run, field, at);
    return;
  }
  memi_run_refuse(run, (memest_param_id)f->input, at, field, "%s", why);
}

void memi_trainer_defaults(memest_trainer_run *run) {
  int i;
  tloc at;
  for (i = 0; i < FIELD_COUNT; i++) {
    const trainer_field *f = &field_table[i];
    char field[96], how[160];
    if (f->dflt == NULL || f->input < 0 || run->in[f->input].set || run->in[f->input].refused)
      continue;
    memi_tloc_set(&at, strcmp(f->section, DIST) == 0 ? "DistributedCfg's default" : "TrainingCfg's default", 0);
    snprintf(how, sizeof how, "not set: the trainer's default");
    memi_run_input(run, (memest_param_id)f->input, f->dflt, &at,
                   field_name(field, sizeof field, f->section, f->name), how);
    if (f->conv == TF_BENCHMARK && run->benchmark < 0) {
      run->benchmark = 0;
      run->benchmark_at = at;
    }
  }
  if (run->init == TR_INIT_UNKNOWN && !run->init_unread) {
    memi_tloc_set(&at, "TrainingCfg's default", 0);   /* save_location = None */
    run->init = TR_INIT_SCRATCH;
    run->init_at = at;
  }
}

/* The place of a commit in memest's list; -1 for NULL or unknown. */
static int commit_at(const char *hash) {
  int m;
  return hash ? memi_commit_find(hash, &m) : -1;
}

void memi_trainer_date_fields(memest_trainer_run *run, int complete) {
  int i, after = -1, before = memi_commit_count(), last = memi_commit_count() - 1;
  const tr_input *opt = &run->in[MEMEST_P_OPTIMIZER];
  int opt_string = opt->set && strncmp(opt->how, "make_", 5) != 0 && strncmp(opt->how, "partial(", 8) != 0;
  char why_after[96] = "", why_before[96] = "";
  for (i = 0; i < FIELD_COUNT && (size_t)i < sizeof run->seen; i++) {
    const trainer_field *f = &field_table[i];
    int s = commit_at(f->since), u = commit_at(f->until);
    if (run->seen[i] && s > after) {
      after = s;
      snprintf(why_after, sizeof why_after, "it has %.60s", f->name);
    }
    if ((run->seen[i] && u >= 0 && u < before) ||
        (!run->seen[i] && complete && s >= 0 && f->until == NULL && s < before)) {
      before = run->seen[i] ? u : s;
      snprintf(why_before, sizeof why_before, "it %s %.60s", run->seen[i] ? "has" : "has no", f->name);
    }
  }
  if (opt_string && strcmp(opt->how, "Muon") == 0 && commit_at("d2fffcc") > after) {
    after = commit_at("d2fffcc");
    snprintf(why_after, sizeof why_after, "its optimizer is 'Muon'");
  }
  if (opt_string && commit_at("cae7fb3") < before) {
    before = commit_at("cae7fb3");
    snprintf(why_before, sizeof why_before, "its optimizer is a string");
  }
  if (before > last) return;   /* the fields are the current version's */
  if (after >= before)
    memi_run_note(run, "the config's fields fit no one version of the trainer memest knows: %s "
                       "(since %.7s) and %s (before %.7s)",
                  why_after, memi_commit_at(after)->hash, why_before, memi_commit_at(before)->hash);
  else if (after >= 0)
    memi_run_note(run, "the config's fields date its trainer from %.7s (%s: %s) to before %.7s (%s: %s)",
                  memi_commit_at(after)->hash, memi_commit_at(after)->date, why_after,
                  memi_commit_at(before)->hash, memi_commit_at(before)->date, why_before);
  else
    memi_run_note(run, "the config's fields date its trainer before %.7s (%s: %s)",
                  memi_commit_at(before)->hash, memi_commit_at(before)->date, why_before);
}
