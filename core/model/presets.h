/*
** presets.h — the model and GPU presets shipped with the library. The model
** configs are the files in the presets directory, embedded at build time into
** presets_data.c by scripts/embed-presets.cmake.
*/
#ifndef MEMEST_PRESETS_H
#define MEMEST_PRESETS_H

#include <stdint.h>

#include "base/internal.h"

typedef struct preset_model {
  const char *name;   /* file name without .json */
  const char *id;     /* the config's _name_or_path, its hub id ("Qwen/Qwen3-30B-A3B") */
  const char *title;  /* the id's name part ("Qwen3-30B-A3B") */
  const char *text;   /* the config.json text */
} preset_model;

extern MEMEST_HIDDEN const preset_model memi_preset_models[];
extern MEMEST_HIDDEN const int memi_preset_model_count;

typedef struct preset_gpu {
  const char *name;
  const char *title;
  int64_t bytes;      /* capacity the driver reports to PyTorch */
} preset_gpu;

/* The model preset called name, by its file name or its hub id; NULL if none. */
MEMEST_HIDDEN const preset_model *memi_preset_model_find(const char *name);

/* The GPU preset called name, or NULL. */
MEMEST_HIDDEN const preset_gpu *memi_preset_gpu_find(const char *name);

#endif /* MEMEST_PRESETS_H */
