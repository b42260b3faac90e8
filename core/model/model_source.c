/*
** model_source.c — where the model's config came from (a preset, a file,
** the hub's cache, a download, memest's cache), as the front end that found
** it says in memest_params.model_source: the origin names, the kind filled
** in when none was said, and how the JSON and text reports name it.
*/
#include <string.h>

#include "model/model_source.h"
#include "model/presets.h"

static const char *const origin_names[] = {
  NULL, "preset", "file", "hub-cache", "download", "memest-cache",
};

const char *memest_model_origin_name(memest_model_origin o) {
  int i = (int)o;
  return i >= 0 && i < (int)(sizeof origin_names / sizeof origin_names[0]) ? origin_names[i] : NULL;
}

void memi_model_source_settle(memest_params *p, int read_preset) {
  if (memest_model_origin_name(p->model_source.kind) == NULL) {
    p->model_source.kind = read_preset ? MEMEST_MODEL_FROM_PRESET : MEMEST_MODEL_FROM_FILE;
  }
}

/* A member that is a string, or null when empty. */
static void put_text(strbuf *sb, const char *key, const char *value) {
  memi_sb_printf(sb, ",\"%s\":", key);
  if (value != NULL && value[0]) memi_sb_json_str(sb, value);
  else memi_sb_put(sb, "null");
}

void memi_model_source_json(strbuf *sb, const memest_params *p) {
  const memest_model_source *s = &p->model_source;
  const char *kind = memest_model_origin_name(s->kind);
  const preset_model *m =
      s->kind == MEMEST_MODEL_FROM_PRESET ? memi_preset_model_find(p->model) : NULL;
  memi_sb_put(sb, ",\"model_source\":{\"kind\":");
  if (kind != NULL) memi_sb_json_str(sb, kind);
  else memi_sb_put(sb, "null");
  put_text(sb, "preset", m != NULL ? m->name : NULL);
  put_text(sb, "path", s->path);
  put_text(sb, "revision", s->revision);
  put_text(sb, "url", s->url);
  memi_sb_put(sb, "}");
}

int memi_model_source_shown(const memest_params *p) {
  const preset_model *m;
  switch (p->model_source.kind) {
    case MEMEST_MODEL_FROM_HUB_CACHE:
    case MEMEST_MODEL_FROM_DOWNLOAD:
    case MEMEST_MODEL_FROM_MEMEST_CACHE:
      return 1;
    case MEMEST_MODEL_FROM_PRESET:
      m = memi_preset_model_find(p->model);
      return m != NULL && strcmp(m->name, p->model) != 0;
    default:
      return 0;
  }
}

void memi_model_source_text(strbuf *sb, const memest_params *p) {
  const memest_model_source *s = &p->model_source;
  const char *rev = s->revision[0] ? s->revision : "not named by the server";
  const preset_model *m;
  switch (s->kind) {
    case MEMEST_MODEL_FROM_PRESET:
      m = memi_preset_model_find(p->model);
      memi_sb_printf(sb, "the shipped preset %s (%s's config)", m != NULL ? m->name : p->model,
                     m != NULL ? m->id : p->model);
      break;
    case MEMEST_MODEL_FROM_FILE:
      memi_sb_printf(sb, "the file %s", s->path[0] ? s->path : p->model);
      break;
    case MEMEST_MODEL_FROM_HUB_CACHE:
      memi_sb_printf(sb, "the hub's cache, %s (revision %s)", s->path, rev);
      break;
    case MEMEST_MODEL_FROM_DOWNLOAD:
      if (s->path[0]) {
        memi_sb_printf(sb, "downloaded from %s (revision %s), kept in %s", s->url, rev, s->path);
      } else {
        memi_sb_printf(sb, "downloaded from %s (the server named no revision, so it was not kept)",
                       s->url);
      }
      break;
    case MEMEST_MODEL_FROM_MEMEST_CACHE:
      memi_sb_printf(sb, "memest's cache, %s (revision %s, downloaded before; delete it to "
                     "download the model's config again)", s->path, rev);
      break;
    default:
      memi_sb_put(sb, "not named");
      break;
  }
}
