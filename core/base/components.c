/*
** components.c — the memory components by name: the key each has in the
** JSON (and on the page), the title the text report gives it and its
** group (static or dynamic), one row per component of the comp enum
** (internal.h), in its order.
*/
#include "base/internal.h"

static const char *const comp_keys[C_COUNT] = {
  "master_params", "optimizer_states", "unsharded_params", "edge_params",
  "grad_accumulators", "bf16_grads", "sharded_grads", "rotary_tables",
  "data_batch", "fp8_weight_cache", "activations", "logits", "p2p_buffers",
  "wgrad_queue", "layer_transients", "fsdp_transients", "optimizer_transients",
};

static const char *const comp_titles[C_COUNT] = {
  "fp32 master weights (sharded)", "optimizer states", "bf16 unsharded layer parameters",
  "bf16 embed / lm_head (resident)", "fp32 gradient accumulators",
  "bf16 grads (unfolded .grad)", "fp32 sharded grads", "rotary tables", "data batch",
  "FP8 weight caches", "saved activations", "logits", "P2P buffers",
  "deferred wgrad captures", "in-layer temporaries", "FSDP temporaries",
  "optimizer temporaries",
};

const char *memi_comp_key(comp c) { return comp_keys[c]; }
const char *memi_comp_title(comp c) { return comp_titles[c]; }

int memest_component_count(void) { return C_COUNT; }
const char *memest_component_key(int i) { return i >= 0 && i < C_COUNT ? comp_keys[i] : NULL; }
const char *memest_component_title(int i) {
  return i >= 0 && i < C_COUNT ? comp_titles[i] : NULL;
}
const char *memest_component_group(int i) {
  if (i < 0 || i >= C_COUNT) return NULL;
  return i < C_FIRST_DYNAMIC ? "static" : "dynamic";
}
