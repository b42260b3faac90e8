/*
** source_report.c — where a run's inputs came from, as the "source" object
** of the result's and the check's JSON and as lines of their text
** (docs/result-json.md): the files, each input's file and line, the flags
** that overrode a file, the fields read and ignored, warnings, the regime,
** and the trainer commit with the differences that the memory-changing
** commits after it make at this layout (sized where memest can size them:
** the router's kept input, fp32 rotary tables, the deferral terms).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/result.h"
#include "trainer/trainer.h"
#include "trainer/trainer_commits.h"

/* {======================================================================
** The trainer commit
** ======================================================================= */

/* The place of the run's commit in the list; -1 when it is not there. */
static int commit_index(const memest_trainer_run *run) {
  int matches;
  return run->commit[0] ? memi_commit_find(run->commit, &matches) : -1;
}

/* The size of a change's difference at the result's layout. */
typedef struct change_size {
  int applies;        /* 0: the change makes no difference to this run */
  int sized;          /* 1: bytes holds the difference at the layout */
  int64_t bytes;
  char how[240];
} change_size;

static int is_gptoss(const memest_result *r) { return strcmp(r->mc.model_type, "gpt_oss") == 0; }

/* MoE layers of stage s. */
static int64_t moe_layers(const memest_result *r, int s) {
  int64_t n = 0;
  int l;
  if (r->mc.experts <= 0) return 0;
  for (l = r->lo.stage_first[s]; l < r->lo.stage_first[s + 1]; l++) n += !r->mc.layer_dense[l];
  return n;
}

static void size_change(const memory_change *c, const memest_result *r, int before_c3a8cac,
                        change_size *z) {
  const rank_result *rr = &r->ranks[r->worst];
  const memest_params *p = &r->params;
  int64_t rdim = r->mc.arch->rotary_dim(&r->mc), modelled = rr->at_peak.b[C_ROTARY];
  int s, ovf = 0;
  memset(z, 0, sizeof *z);
  z->applies = 1;
  switch (c->kind) {
    case CH_NOTE: break;
    case CH_GPTOSS: case CH_DEFERRAL_GPTOSS: z->applies = is_gptoss(r); break;
    case CH_FP8_GPTOSS: z->applies = is_gptoss(r) && p->fp8_training != MEMEST_FP8_DISABLED; break;
    case CH_CP: z->applies = p->cp_size > 1; break;
    case CH_NO_HSDP: z->applies = p->sharding == MEMEST_HSDP; break;
    case CH_NO_MUON: z->applies = p->optimizer == MEMEST_MUON; break;
    case CH_NO_BENCHMARK: z->applies = p->routing == MEMEST_ROUTING_BALANCED; break;
    case CH_DEFERRAL: {
      /* FP8's grouped GEMMs deferred before; only the BF16 path changed. */
      int64_t then;
      z->applies = r->mc.experts > 0 && p->fp8_training == MEMEST_FP8_DISABLED;
      if (!z->applies) break;
      then = memi_est_peak_immediate_wgrad(r);
      if (then < 0) break;
      z->sized = 1;
      z->bytes = then - r->tensor_peak;
      snprintf(z->how, sizeof z->how,
               "the same replay with every expert weight gradient computed in its backward: a "
               "tensor peak of %.2f GiB against %.2f GiB",
               (double)then / (1024.0 * 1024.0 * 1024.0),
               (double)r->tensor_peak / (1024.0 * 1024.0 * 1024.0));
      break;
    }
    case CH_ROTARY_NATIVE:
      if (r->mc.max_positions <= 0) {
        snprintf(z->how, sizeof z->how,
                 "not sized: the config gives no max_position_embeddings (the example configs of "
                 "those versions did)");
        break;
      }
      /* max_position_embeddings comes from the config, up to 2^53: checked. */
      z->bytes = ck_add(&ovf, ck_mul4(&ovf, 2 * 2, r->mc.max_positions, rdim, 4), -modelled);
      if (ovf) {
        snprintf(z->how, sizeof z->how,
                 "not sized: the config's max_position_embeddings (%lld) makes tables past 2^63 "
                 "bytes", (long long)r->mc.max_positions);
        break;
      }
      z->sized = 1;
      snprintf(z->how, sizeof z->how, "2 modules x cos and sin x %lld positions x %lld x 4 bytes, "
               "less the modelled %lld bytes", (long long)r->mc.max_positions, (long long)rdim,
               (long long)modelled);
      break;
    case CH_ROTARY_FP32:
      z->applies = !before_c3a8cac;
      z->sized = 1;
      z->bytes = ck_add(&ovf, ck_mul4(&ovf, 2, r->lo.seq, rdim, 4), -modelled);   /* seq <= 2^24 */
      snprintf(z->how, sizeof z->how, "cos and sin x %lld positions x %lld x 4 bytes, less the "
               "modelled %lld bytes", (long long)r->lo.seq, (long long)rdim, (long long)modelled);
      break;
    case CH_ROUTER_INPUT:
      z->applies = r->mc.experts > 0;
      for (s = 0; s < r->lo.modules; s++)
        z->bytes = ck_add(&ovf, z->bytes, ck_mul4(&ovf, rr->peak_ev.live[s], moe_layers(r, rr->stages[s]),
                                                  r->lo.d.m, ck_mul(&ovf, r->mc.hidden, 2)));
      z->sized = !ovf;
      if (r->lo.modules == 2)
        snprintf(z->how, sizeof z->how,
                 "pp rank %d at its peak: %d and %d chunks in flight over %lld and %lld MoE layers, "
                 "x %lld tokens x %lld hidden x 2 bytes",
                 rr->rank, rr->peak_ev.live[0], rr->peak_ev.live[1], (long long)moe_layers(r, rr->stages[0]),
                 (long long)moe_layers(r, rr->stages[1]), (long long)r->lo.d.m, (long long)r->mc.hidden);
      else
        snprintf(z->how, sizeof z->how,
                 "pp rank %d at its peak: the chunks in flight of each of its %d stages over their "
                 "MoE layers, x %lld tokens x %lld hidden x 2 bytes",
                 rr->rank, r->lo.modules, (long long)r->lo.d.m, (long long)r->mc.hidden);
      if (ovf) snprintf(z->how, sizeof z->how, "not sized: the router inputs pass 2^63 bytes");
      break;
  }
}
/* }====================================================================== */

/* Whether a change applies to a run known only by its files (no layout). */
static int applies_to_run(const memory_change *c, const memest_trainer_run *run, int before_c3a8cac) {
  const char *model = run->in[MEMEST_P_MODEL].set ? run->in[MEMEST_P_MODEL].value : "";
  int gptoss = strstr(model, "gpt-oss") != NULL || strstr(model, "gpt_oss") != NULL;
#define IS(id, v) (run->in[id].set && strcmp(run->in[id].value, v) == 0)
  switch (c->kind) {
    case CH_GPTOSS: case CH_DEFERRAL_GPTOSS: return gptoss;
    case CH_FP8_GPTOSS: return gptoss && IS(MEMEST_P_FP8_TRAINING, "deep-gemm");
    case CH_CP: return run->in[MEMEST_P_CP_SIZE].set && !IS(MEMEST_P_CP_SIZE, "1");
    case CH_NO_HSDP: return IS(MEMEST_P_SHARDING, "hsdp");
    case CH_NO_MUON: return IS(MEMEST_P_OPTIMIZER, "muon");
    case CH_NO_BENCHMARK: return IS(MEMEST_P_ROUTING, "balanced");
    case CH_ROTARY_FP32: return !before_c3a8cac;
    default: return 1;
  }
#undef IS
}

/* The first memory change from index i on that came after commit index
** `at` and applies to the run (sized at r's layout when r is given), with
** its size in z; -1 when none is left. */
static int next_change(const memest_trainer_run *run, const memest_result *r, int at, int i,
                       change_size *z) {
  int m, before_c3a8cac = at < memi_commit_find("c3a8cac", &m);
  for (; i < memi_memory_change_count(); i++) {
    const memory_change *c = memi_memory_change_at(i);
    if (memi_commit_find(c->commit, &m) <= at) continue;
    memset(z, 0, sizeof *z);
    if (r != NULL) size_change(c, r, before_c3a8cac, z);
    else z->applies = applies_to_run(c, run, before_c3a8cac);
    if (z->applies) return i;
  }
  return -1;
}

/* {======================================================================
** JSON
** ======================================================================= */

/* A place as the text shows it: the file's name without its folders. */
/* file:line with the file's last name only, fit for one line of text. */
static const char *short_place(const tloc *at, char *buf, size_t size) {
  char raw[300];
  tloc s = *at;
  const char *slash = strrchr(at->file, '/');
  if (slash != NULL && slash[1] != '\0') memi_tloc_set(&s, slash + 1, at->line);
  return memi_text_line(buf, size, memi_tloc_show(&s, raw, sizeof raw));
}


static void put_key(strbuf *sb, int *first, const char *key) {
  memi_sb_put(sb, *first ? "" : ",");
  *first = 0;
  memi_sb_json_str(sb, key);
  memi_sb_put(sb, ":");
}

/* A list of n lines of 400 bytes each from items. */
static void put_list(strbuf *sb, const char *key, const char *items, int n) {
  int i;
  memi_sb_printf(sb, ",\"%s\":[", key);
  for (i = 0; i < n; i++) {
    if (i) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, items + (size_t)i * 400);
  }
  memi_sb_put(sb, "]");
}

static const char *init_name(tr_init init) {
  return init == TR_INIT_SCRATCH ? "scratch" : init == TR_INIT_CHECKPOINT ? "checkpoint"
         : init == TR_INIT_MAYBE ? "checkpoint-if-present" : "unknown";
}

/* The regime's name, as tests/data/run-regimes.json names regimes. */
static const char *regime_name(const memest_trainer_run *run) {
  if (run->benchmark == 1) return "benchmark";
  if (run->init == TR_INIT_CHECKPOINT) return "checkpoint";
  if (run->init == TR_INIT_SCRATCH) return "random-init";
  return "not-stated";
}

static void regime_json(strbuf *sb, const memest_trainer_run *run) {
  char where[300];
  memi_sb_printf(sb, ",\"regime\":{\"name\":\"%s\",\"benchmark\":%s,\"init\":\"%s\",\"checkpoint\":",
                 regime_name(run), run->benchmark < 0 ? "null" : run->benchmark ? "true" : "false",
                 init_name(run->init));
  if (run->checkpoint[0]) memi_sb_json_str(sb, run->checkpoint);
  else memi_sb_put(sb, "null");
  memi_sb_put(sb, ",\"benchmark_from\":");
  if (run->benchmark >= 0) memi_sb_json_str(sb, memi_tloc_show(&run->benchmark_at, where, sizeof where));
  else memi_sb_put(sb, "null");
  memi_sb_put(sb, ",\"init_from\":");
  if (run->init != TR_INIT_UNKNOWN) memi_sb_json_str(sb, memi_tloc_show(&run->init_at, where, sizeof where));
  else memi_sb_put(sb, "null");
  memi_sb_put(sb, "}");
}

static void commit_json(strbuf *sb, const memest_trainer_run *run, const memest_result *r) {
  int at = commit_index(run), i, first = 1, m;
  change_size z;
  if (run->commit[0] == '\0') {
    memi_sb_put(sb, ",\"trainer_commit\":null");
    return;
  }
  memi_sb_put(sb, ",\"trainer_commit\":{\"commit\":");
  memi_sb_json_str(sb, run->commit);
  memi_sb_put(sb, ",\"from\":");
  memi_sb_json_str(sb, run->commit_from);
  if (at < 0) {
    memi_sb_put(sb, ",\"known\":false,\"date\":null,\"differences\":[]}");
    return;
  }
  memi_sb_printf(sb, ",\"known\":true,\"date\":\"%s\",\"modelled\":\"%s\",\"differences\":[",
                 memi_commit_at(at)->date, memi_commit_at(memi_commit_count() - 1)->hash);
  for (i = 0; (i = next_change(run, r, at, i, &z)) >= 0; i++) {
    const memory_change *c = memi_memory_change_at(i);
    int ci = memi_commit_find(c->commit, &m);
    memi_sb_printf(sb, "%s{\"commit\":\"%s\",\"date\":\"%s\",\"change\":", first ? "" : ",",
                   c->commit, memi_commit_at(ci)->date);
    first = 0;
    memi_sb_json_str(sb, c->what);
    memi_sb_put(sb, ",\"before\":");
    memi_sb_json_str(sb, c->before);
    if (z.sized) memi_sb_printf(sb, ",\"bytes\":%lld,\"how\":", (long long)z.bytes);
    else memi_sb_put(sb, ",\"bytes\":null,\"how\":");
    memi_sb_json_str(sb, z.how);
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "]}");
}

static void inputs_json(strbuf *sb, const memest_trainer_run *run) {
  int id, first;
  char where[300];
  memi_sb_put(sb, ",\"read\":{");
  for (id = 0, first = 1; id < MEMEST_P_COUNT; id++) {
    const tr_input *in = &run->in[id];
    if (!in->set || in->overridden) continue;
    put_key(sb, &first, memest_param_describe((memest_param_id)id)->name);
    memi_sb_json_str(sb, memi_tloc_show(&in->at, where, sizeof where));
  }
  memi_sb_put(sb, "},\"values\":{");
  for (id = 0, first = 1; id < MEMEST_P_COUNT; id++) {
    const tr_input *in = &run->in[id];
    if (!in->set) continue;
    put_key(sb, &first, memest_param_describe((memest_param_id)id)->name);
    memi_sb_put(sb, "{\"value\":");
    memi_sb_json_str(sb, in->value);
    memi_sb_put(sb, ",\"from\":");
    memi_sb_json_str(sb, memi_tloc_show(&in->at, where, sizeof where));
    memi_sb_put(sb, ",\"field\":");
    memi_sb_json_str(sb, in->field);
    memi_sb_put(sb, ",\"how\":");
    memi_sb_json_str(sb, in->how);
    memi_sb_printf(sb, ",\"overridden\":%s}", in->overridden ? "true" : "false");
  }
  memi_sb_put(sb, "},\"refused\":{");
  for (id = 0, first = 1; id < MEMEST_P_COUNT; id++) {
    const tr_input *in = &run->in[id];
    if (!in->refused) continue;
    put_key(sb, &first, memest_param_describe((memest_param_id)id)->name);
    memi_sb_json_str(sb, in->why);
  }
  memi_sb_put(sb, "}");
}

static void model_json(strbuf *sb, const memest_trainer_run *run) {
  const tr_input *in = &run->in[MEMEST_P_MODEL];
  if (!in->set) {
    memi_sb_put(sb, ",\"model\":null");
    return;
  }
  memi_sb_put(sb, ",\"model\":{\"value\":");
  memi_sb_json_str(sb, in->value);
  memi_sb_printf(sb, ",\"is_path\":%s,\"resolved\":",
                 run->model_is_path < 0 ? "null" : run->model_is_path ? "true" : "false");
  if (run->model_resolved[0]) memi_sb_json_str(sb, run->model_resolved);
  else memi_sb_put(sb, "null");
  memi_sb_put(sb, ",\"how\":");
  memi_sb_json_str(sb, run->model_how);
  memi_sb_put(sb, "}");
}

/* The source object: the run's, or for flags alone (run NULL) the plain one. */
static void source_json(strbuf *sb, const memest_trainer_run *run, const memest_result *r) {
  int i;
  if (run == NULL) {
    memi_sb_put(sb, "{\"kind\":\"flags\",\"files\":[],\"read\":{},\"trainer_commit\":null,"
                    "\"regime\":null}");
    return;
  }
  memi_sb_printf(sb, "{\"kind\":\"%s\",\"files\":[", memest_source_kind_name(run->kind));
  for (i = 0; i < run->n_files; i++) {
    if (i) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, run->files[i]);
  }
  memi_sb_put(sb, "]");
  inputs_json(sb, run);
  model_json(sb, run);
  memi_sb_put(sb, ",\"ignored\":[");
  for (i = 0; i < run->n_ignored; i++) {
    if (i) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, run->ignored[i]);
  }
  memi_sb_put(sb, "]");
  put_list(sb, "warnings", run->warnings[0], run->n_warnings);
  put_list(sb, "notes", run->notes[0], run->n_notes);
  if (run->kind == MEMEST_SOURCE_LOG) {
    memi_sb_put(sb, ",\"launch_lines\":[");
    for (i = 0; i < run->launches && i < TR_MAX_LAUNCHES; i++)
      memi_sb_printf(sb, "%s%d", i ? "," : "", run->launch_line[i]);
    memi_sb_printf(sb, "],\"launches\":%d,\"steps_from_line\":%lld", run->launches,
                   (long long)run->steps_line);
  }
  if (run->kind == MEMEST_SOURCE_FLAGS) memi_sb_put(sb, ",\"regime\":null");
  else regime_json(sb, run);
  commit_json(sb, run, r);
  memi_sb_put(sb, "}");
}

char *memest_trainer_run_json(const memest_trainer_run *run) {
  strbuf sb;
  if (run == NULL) return NULL;
  memi_sb_init(&sb);
  source_json(&sb, run, NULL);
  return memi_sb_finish(&sb);
}

void memi_source_put_json(strbuf *sb, const char *attached) {
  memi_sb_put(sb, ",\"source\":");
  if (attached != NULL) memi_sb_put(sb, attached);
  else source_json(sb, NULL, NULL);
}
/* }====================================================================== */

/* {======================================================================
** Text
** ======================================================================= */

static const char *kind_title(memest_source_kind k) {
  return k == MEMEST_SOURCE_SCRIPT ? "the launch script" : k == MEMEST_SOURCE_LOG ? "the log's launch line"
         : k == MEMEST_SOURCE_WANDB ? "the W&B run" : k == MEMEST_SOURCE_CFG ? "the config object"
         : "the command line";
}

/* Every string from the files goes through memi_text_line: one line, its
** controls and bidi marks visible (docs/result-json.md). */
static void inputs_text(strbuf *sb, const memest_trainer_run *run) {
  int id;
  char where[4 * 300], text[4 * 600];
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    const tr_input *in = &run->in[id];
    const char *name = memest_param_describe((memest_param_id)id)->name;
    if (in->set && !in->overridden) {
      const char *value = id == MEMEST_P_MODEL && run->model_resolved[0] ? run->model_resolved : in->value;
      memi_sb_printf(sb, "  %-18s %-12s %-22s", name, memi_text_line(text, sizeof text, value),
                     short_place(&in->at, where, sizeof where));
      if (in->field[0]) memi_sb_printf(sb, "  %s", memi_text_line(text, sizeof text, in->field));
      if (in->how[0]) memi_sb_printf(sb, " (%s)", memi_text_line(text, sizeof text, in->how));
      if (id == MEMEST_P_MODEL && run->model_resolved[0] && strcmp(run->model_resolved, in->value) != 0) {
        memi_sb_printf(sb, "; the run names %s", memi_text_line(text, sizeof text, in->value));
        if (run->model_how[0]) memi_sb_printf(sb, ", %s", memi_text_line(text, sizeof text, run->model_how));
      }
      memi_sb_put(sb, "\n");
    } else if (in->set || in->refused) {
      memi_sb_printf(sb, "  %-18s %-12s %-22s (%s %s)\n", name, "as the flag", short_place(&in->at, where, sizeof where),
                     in->refused ? "which memest could not read:" : "the file says",
                     memi_text_line(text, sizeof text, in->refused ? in->why : in->value));
    }
  }
}

static void commit_text(strbuf *sb, const memest_trainer_run *run, const memest_result *r) {
  int at = commit_index(run), i, m, n = 0;
  change_size z;
  char gib[32], text[4 * 300];
  if (run->commit[0] == '\0') {
    if (run->kind != MEMEST_SOURCE_FLAGS)
      memi_sb_put(sb, "Trainer commit: not named; give --trainer-commit HASH to hear what an older "
                      "trainer holds differently\n");
    return;
  }
  if (at < 0) {
    memi_sb_printf(sb, "Trainer commit: %s", memi_text_line(text, sizeof text, run->commit));
    memi_sb_printf(sb, " (%s), not in memest's list of the trainer's commits "
                       "(up to %.7s, %s); the estimate models %.7s\n",
                   memi_text_line(text, sizeof text, run->commit_from), memi_commit_at(memi_commit_count() - 1)->hash,
                   memi_commit_at(memi_commit_count() - 1)->date,
                   memi_commit_at(memi_commit_count() - 1)->hash);
    return;
  }
  memi_sb_printf(sb, "Trainer commit: %.7s (%s, %s); the estimate models %.7s (%s)",
                 run->commit, memi_commit_at(at)->date, memi_text_line(text, sizeof text, run->commit_from),
                 memi_commit_at(memi_commit_count() - 1)->hash,
                 memi_commit_at(memi_commit_count() - 1)->date);
  for (i = 0; (i = next_change(run, r, at, i, &z)) >= 0; i++) {
    const memory_change *c = memi_memory_change_at(i);
    int ci = memi_commit_find(c->commit, &m);
    memi_sb_put(sb, n++ ? "" : "; differences that apply to this run:");
    memi_sb_printf(sb, "\n  %s (%s) %s. Before it: %s", c->commit, memi_commit_at(ci)->date, c->what,
                   c->before);
    if (z.sized)
      memi_sb_printf(sb, ". At this layout: %s%s GiB (%s)", z.bytes >= 0 ? "+" : "",
                     memi_fmt_gib(gib, sizeof gib, z.bytes), z.how);
    else if (z.how[0]) memi_sb_printf(sb, " (%s)", z.how);
  }
  memi_sb_put(sb, n ? "\n" : "; no memory change since\n");
}

static void regime_text(strbuf *sb, const memest_trainer_run *run) {
  char where[4 * 300], text[4 * 600];
  if (run->kind == MEMEST_SOURCE_FLAGS) return;
  memi_sb_put(sb, "Regime: ");
  if (run->benchmark == 1) memi_sb_printf(sb, "benchmark, force-balanced routing (%s)", short_place(&run->benchmark_at, where, sizeof where));
  else if (run->benchmark == 0) memi_sb_printf(sb, "the model's own router (%s)", short_place(&run->benchmark_at, where, sizeof where));
  else memi_sb_put(sb, "routing not stated");
  switch (run->init) {
    case TR_INIT_SCRATCH:
      memi_sb_printf(sb, "; from scratch (%s)%s", short_place(&run->init_at, where, sizeof where),
                     run->benchmark == 1 ? ""
                                         : ", whose router skews more than a pretrained one "
                                           "(docs/accuracy.md)");
      break;
    case TR_INIT_CHECKPOINT:
      memi_sb_printf(sb, "; loads the checkpoint %s (%s)", memi_text_line(text, sizeof text, run->checkpoint),
                     short_place(&run->init_at, where, sizeof where));
      break;
    case TR_INIT_MAYBE:
      memi_sb_printf(sb, "; loads the latest checkpoint under %s if there is one, else starts from "
                         "scratch (%s)", memi_text_line(text, sizeof text, run->checkpoint),
                     short_place(&run->init_at, where, sizeof where));
      break;
    case TR_INIT_UNKNOWN: memi_sb_put(sb, "; how the weights start is not stated"); break;
  }
  memi_sb_put(sb, "\n");
}

static void source_text(strbuf *sb, const memest_trainer_run *run, const memest_result *r) {
  int i;
  if (run->kind != MEMEST_SOURCE_FLAGS) {
    memi_sb_printf(sb, "Inputs from %s", kind_title(run->kind));
    if (run->kind == MEMEST_SOURCE_CFG) {   /* where it was handed over */
      char where[300];
      memi_sb_put(sb, " handed over at ");
      memi_sb_text(sb, memi_tloc_show(&run->handed, where, sizeof where));
    }
    for (i = 0; run->kind != MEMEST_SOURCE_CFG && i < run->n_files; i++) {
      memi_sb_put(sb, i ? ", " : " ");
      memi_sb_text(sb, run->files[i]);
    }
    memi_sb_put(sb, ":\n");
    inputs_text(sb, run);
    if (run->n_ignored) {
      memi_sb_put(sb, "  read and ignored, they change no memory:");
      for (i = 0; i < run->n_ignored; i++) {
        memi_sb_put(sb, i ? ", " : " ");
        memi_sb_text(sb, run->ignored[i]);
      }
      if (run->more_ignored) memi_sb_printf(sb, " and %d more", run->more_ignored);
      memi_sb_put(sb, "\n");
    }
    for (i = 0; i < run->n_warnings; i++) {
      memi_sb_put(sb, "  warning: ");
      memi_sb_text(sb, run->warnings[i]);
      memi_sb_put(sb, "\n");
    }
    for (i = 0; i < run->n_notes; i++) {
      memi_sb_put(sb, "  note: ");
      memi_sb_text(sb, run->notes[i]);
      memi_sb_put(sb, "\n");
    }
  }
  regime_text(sb, run);
  commit_text(sb, run, r);
}
/* }====================================================================== */

char *memest_trainer_run_text(const memest_trainer_run *run) {
  strbuf sb;
  if (run == NULL) return NULL;
  memi_sb_init(&sb);
  source_text(&sb, run, NULL);
  return memi_sb_finish_text(&sb);
}

/* {======================================================================
** Attaching a source to a result or a check
** ======================================================================= */

memest_code memi_source_attach(const memest_trainer_run *run, const memest_result *r, char **json,
                               char **text, memest_error *err) {
  strbuf a, b;
  char *j, *t;
  memi_sb_init(&a);
  memi_sb_init(&b);
  source_json(&a, run, r);
  source_text(&b, run, r);
  j = memi_sb_finish(&a);
  t = memi_sb_finish(&b);
  if (j == NULL || t == NULL) {
    free(j);
    free(t);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory describing the run's source");
  }
  free(*json);
  free(*text);
  *json = j;
  *text = t;
  return MEMEST_OK;
}

memest_code memest_result_set_source(memest_result *r, const memest_trainer_run *run,
                                     memest_error *err) {
  memi_err_clear(err);
  if (r == NULL || run == NULL)
    return memi_err_set(err, MEMEST_E_VALUE, "", "memest_result_set_source needs a result and a run");
  return memi_source_attach(run, r, &r->source_json, &r->source_text, err);
}

/* }====================================================================== */
