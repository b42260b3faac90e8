/*
** input_files.c — the one table of the files memest reads: for each kind,
** the noun its messages use, the most bytes its reader takes and that
** limit's name in bounds.h (docs/limits.md), and what such a file usually
** weighs. Every reader's own size check and every front end's opener (the
** CLI's cli_read_file, the page's drop zones) take the limit from here.
*/
#include <stddef.h>

#include "base/bounds.h"
#include "memest.h"

static const memest_input_file_info input_files[MEMEST_INPUT_COUNT] = {
    {"config file", (size_t)MEMEST_MAX_CONFIG_BYTES, "MEMEST_MAX_CONFIG_BYTES",
     "a model config.json is a few kilobytes",
     "give a config.json path, a preset (memest --list-models) or a hub id org/name"},
    {"snapshot", (size_t)MEMEST_MAX_PICKLE_BYTES, "MEMEST_MAX_PICKLE_BYTES",
     "a snapshot of one recorded step is tens of megabytes; record fewer steps",
     "give a snapshot-rankNNNNN.pickle the trainer wrote"},
    {"log", (size_t)MEMEST_MAX_RUNLOG_BYTES, "MEMEST_MAX_RUNLOG_BYTES",
     "give only the part of the log that covers the run",
     "give the file the trainer's output was saved to"},
    {"launch script", (size_t)MEMEST_MAX_SCRIPT_BYTES, "MEMEST_MAX_SCRIPT_BYTES",
     "a launch script or its setup.py is a few kilobytes",
     "give the .py file torchrun runs (examples/pretrain_lm/<model>/script.py, or a "
     "benchmark's <name>.py beside its setup.py)"},
    {"W&B config", (size_t)MEMEST_MAX_WANDB_CONFIG_BYTES, "MEMEST_MAX_WANDB_CONFIG_BYTES",
     "a W&B run's config.yaml is a few kilobytes",
     "give the run's folder, wandb/run-<date>-<id> (its files/config.yaml)"},
    {"W&B file", (size_t)MEMEST_MAX_WANDB_JSON_BYTES, "MEMEST_MAX_WANDB_JSON_BYTES",
     "a W&B run's wandb-metadata.json and wandb-summary.json are a few kilobytes",
     "give the run's folder, wandb/run-<date>-<id>"},
};

const memest_input_file_info *memest_input_file_describe(memest_input_file kind) {
  if ((int)kind < 0 || kind >= MEMEST_INPUT_COUNT) return NULL;
  return &input_files[kind];
}
