/*
** components.c — the memory components by name: the key each has in the
** JSON (and on the page), the title the text report gives it and its
** group (static or dynamic), one row per component of the comp enum
** (internal.h), in its order.
*/
#include "base/internal.h"

/* One row per component: its JSON key and its text report title. */
static const struct component_row {
  const char *key, *title;
} components[C_COUNT] = {
  {"master_params", "fp32 master weights (sharded)"},
  {"optimizer_states", "optimizer states"},
  {"unsharded_params", "bf16 unsharded layer parameters"},
  {"edge_params", "bf16 embed / lm_head (resident)"},
  {"grad_accumulators", "fp32 gradient accumulators"},
  {"bf16_grads", "bf16 grads (unfolded .grad)"},
  {"sharded_grads", "fp32 sharded grads"},
  {"rotary_tables", "rotary tables"},
  {"data_batch", "data batch"},
  {"fp8_weight_cache", "FP8 weight caches"},
  {"activations", "saved activations"},
  {"logits", "logits"},
  {"p2p_buffers", "P2P buffers"},
  {"wgrad_queue", "deferred wgrad captures"},
  {"layer_transients", "in-layer temporaries"},
  {"fsdp_transients", "FSDP temporaries"},
  {"optimizer_transients", "optimizer temporaries"},
};

const char *memi_comp_key(comp c) { return components[c].key; }
const char *memi_comp_title(comp c) { return components[c].title; }

int memest_component_count(void) { return C_COUNT; }
const char *memest_component_key(int i) { return i >= 0 && i < C_COUNT ? components[i].key : NULL; }
const char *memest_component_title(int i) {
  return i >= 0 && i < C_COUNT ? components[i].title : NULL;
}
const char *memest_component_group(int i) {
  if (i < 0 || i >= C_COUNT) return NULL;
  return i < C_FIRST_DYNAMIC ? "static" : "dynamic";
}
