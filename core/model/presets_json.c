/*
** presets_json.c — the shipped presets as one JSON object, for
** `memest --list-models --json`, `--list-gpus --json` and the page's
** engine.presets(): {"models": [{name, title, id}], "gpus": [{name, title,
** bytes}]} (docs/result-json.md; id: the model's hub id). GPU capacities are exact integers.
*/
#include "base/internal.h"

/* One entry's opening members: {"name": ..., "title": ... (left open). */
static void entry_open(strbuf *sb, int i, const char *name, const char *title) {
  memi_sb_put(sb, i ? ",{\"name\":" : "{\"name\":");
  memi_sb_json_str(sb, name);
  memi_sb_put(sb, ",\"title\":");
  memi_sb_json_str(sb, title);
}

static void models_json(strbuf *sb) {
  int i;
  memi_sb_put(sb, "\"models\":[");
  for (i = 0; i < memest_model_preset_count(); i++) {
    entry_open(sb, i, memest_model_preset_name(i), memest_model_preset_title(i));
    memi_sb_put(sb, ",\"id\":");
    memi_sb_json_str(sb, memest_model_preset_id(i));
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "]");
}

static void gpus_json(strbuf *sb) {
  int i;
  memi_sb_put(sb, "\"gpus\":[");
  for (i = 0; i < memest_gpu_preset_count(); i++) {
    entry_open(sb, i, memest_gpu_preset_name(i), memest_gpu_preset_title(i));
    memi_sb_put(sb, ",\"bytes\":");
    memi_sb_put_i64(sb, (int64_t)memest_gpu_preset_bytes(i));
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "]");
}

char *memest_presets_json(unsigned what) {
  strbuf sb;
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{");
  if (what & MEMEST_PRESETS_MODELS) models_json(&sb);
  if ((what & MEMEST_PRESETS_MODELS) && (what & MEMEST_PRESETS_GPUS)) memi_sb_put(&sb, ",");
  if (what & MEMEST_PRESETS_GPUS) gpus_json(&sb);
  memi_sb_put(&sb, "}");
  return memi_sb_finish(&sb);
}
