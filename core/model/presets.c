/*
** presets.c — lookups over the shipped presets: model configs (embedded
** from the JSON files in presets/, each named by its file name or by its
** hub id) and GPU capacities. The capacities are what
** torch.cuda.get_device_properties() reports (total_memory, in MiB), not
** the marketing size; docs/gpus.md cites each.
*/
#include <string.h>

#include "model/presets.h"

static const preset_gpu gpu_table[] = {
  {"h100", "H100 SXM 80 GB", 81089LL * MIB_BYTES},
  {"h200", "H200 SXM 141 GB", 143156LL * MIB_BYTES},
  {"b200", "B200 192 GB", 182631LL * MIB_BYTES},
  {"a100-80", "A100 SXM 80 GB", 81050LL * MIB_BYTES},
  {"a100-40", "A100 SXM 40 GB", 40536LL * MIB_BYTES},
};

#define GPU_COUNT ((int)(sizeof gpu_table / sizeof gpu_table[0]))

const preset_gpu *memi_preset_gpu_find(const char *name) {
  int i;
  for (i = 0; i < GPU_COUNT; i++) {
    if (strcmp(gpu_table[i].name, name) == 0) return &gpu_table[i];
  }
  return NULL;
}

int memest_gpu_preset_count(void) { return GPU_COUNT; }

const char *memest_gpu_preset_name(int i) {
  return i >= 0 && i < GPU_COUNT ? gpu_table[i].name : NULL;
}

const char *memest_gpu_preset_title(int i) {
  return i >= 0 && i < GPU_COUNT ? gpu_table[i].title : NULL;
}

uint64_t memest_gpu_preset_bytes(int i) {
  return i >= 0 && i < GPU_COUNT ? (uint64_t)gpu_table[i].bytes : 0;
}

int memest_model_preset_count(void) { return memi_preset_model_count; }

const char *memest_model_preset_name(int i) {
  return i >= 0 && i < memi_preset_model_count ? memi_preset_models[i].name : NULL;
}

const char *memest_model_preset_title(int i) {
  return i >= 0 && i < memi_preset_model_count ? memi_preset_models[i].title : NULL;
}

const char *memest_model_preset_id(int i) {
  return i >= 0 && i < memi_preset_model_count ? memi_preset_models[i].id : NULL;
}

const preset_model *memi_preset_model_find(const char *name) {
  int i;
  if (name == NULL) return NULL;
  for (i = 0; i < memi_preset_model_count; i++) {
    const preset_model *m = &memi_preset_models[i];
    if (strcmp(m->name, name) == 0 || strcmp(m->id, name) == 0) return m;
  }
  return NULL;
}

const char *memest_model_preset_config(const char *name) {
  const preset_model *m = memi_preset_model_find(name);
  return m != NULL ? m->text : NULL;
}
