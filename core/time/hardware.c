/*
** hardware.c — the GPU table of the time model: one row per --gpu preset
** with its dense BF16 and FP8 peaks, HBM bandwidth, NVLink per GPU in one
** direction, the network per GPU and GPUs per node, each from the
** datasheets named in the row (docs/time-model.md, "Hardware").
*/
#include <string.h>

#include "time/time.h"

static const gpu_hw gpu_table[] = {
  {"h100", "H100 SXM 80 GB", 989.4, 1978.9, 3350.0, 450.0, 400.0, 8,
   "NVIDIA H100 datasheet (SXM, dense: 1,979 BF16 and 3,958 FP8 are with sparsity); NVLink 4 "
   "900 GB/s both directions; HGX reference architecture 2-8-9-400 (400 Gb/s a GPU)"},
  {"h200", "H200 SXM 141 GB", 989.4, 1978.9, 4800.0, 450.0, 400.0, 8,
   "NVIDIA H200 datasheet (SXM; the GH100 core of H100); 4.8 TB/s HBM3e; NVLink 4 900 GB/s "
   "both directions; HGX reference architecture 2-8-9-400"},
  {"b200", "B200 192 GB", 2250.0, 4500.0, 8000.0, 900.0, 400.0, 8,
   "NVIDIA HGX B200 (1,000 W; dense: 4,500 BF16 and 9,000 FP8 are with sparsity); 8 TB/s "
   "HBM3e; NVLink 5 1.8 TB/s both directions; HGX reference architecture 2-8-9-400"},
  {"a100-80", "A100 SXM 80 GB", 312.0, 0.0, 2039.0, 300.0, 200.0, 8,
   "NVIDIA A100 datasheet (SXM 80 GB; 624 BF16 is with sparsity; no FP8); 2,039 GB/s HBM2e; "
   "NVLink 3 600 GB/s both directions; DGX A100: one 200 Gb/s HDR NIC a GPU"},
  {"a100-40", "A100 SXM 40 GB", 312.0, 0.0, 1555.0, 300.0, 200.0, 8,
   "NVIDIA A100 datasheet (SXM 40 GB); 1,555 GB/s HBM2; NVLink 3 600 GB/s both directions; "
   "DGX A100: one 200 Gb/s HDR NIC a GPU"},
};

#define GPU_ROWS ((int)(sizeof gpu_table / sizeof gpu_table[0]))

const gpu_hw *memi_gpu_hw(const char *name) {
  int i;
  for (i = 0; i < GPU_ROWS; i++) {
    if (strcmp(gpu_table[i].name, name) == 0) return &gpu_table[i];
  }
  return NULL;
}

int memi_gpu_hw_count(void) { return GPU_ROWS; }

const gpu_hw *memi_gpu_hw_at(int i) { return i >= 0 && i < GPU_ROWS ? &gpu_table[i] : NULL; }
