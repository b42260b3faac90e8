/*
** choices.h — the modelling choices the trainer's source leaves open.
**
** Each is a decision the memory model had to make where the source does not
** fix a number (a compiler's saved set, a routing distribution, a library's
** workspace). They live here, and only here, so that one measurement can
** settle each by changing one line. docs/model.md explains every one.
*/
#ifndef MEMEST_CHOICES_H
#define MEMEST_CHOICES_H

/* Saved set of the torch.compile'd stage-1 regions (memory-model.md §4.5): 0 = the
** "default" set (cheap pointwise ops recomputed), 1 = the "upper" set. */
#define CHOICE_COMPILED_SAVED_UPPER 0

/* Worst-layer routing factor for EP > 1: rows received by a rank's experts
** in the busiest layer over the uniform expectation m*k. Measured 1.18 for
** Qwen3-30B-A3B (38,801 vs 32,768). Multiplied by --ep-imbalance. */
#define CHOICE_ROUTING_FACTOR_NUM 118
#define CHOICE_ROUTING_FACTOR_DEN 100

/* Padding rows per local expert group before the 128-row round-up of the
** grouped GEMM input (about 63.5 on average, memory-model.md §4.1). */
#define CHOICE_GROUP_PAD_ROWS 64

/* The stage-1 backward transient: recomputed pre-attention tensors, bf16
** dq/dk/dv, an fp32 dq accumulator and this many m*H bf16 buffers. */
#define CHOICE_S1_BWD_HIDDEN_BUFFERS 2

/* The trailing non-overlapped layer backward of an F|B computes expert
** weight gradients immediately (1) rather than deferring them (0). */
#define CHOICE_TRAILING_LAYER_IMMEDIATE_WGRAD 1

/* The epilog's eager RMSNorm keeps an fp32 copy of its input (1) or only
** its rstd (0); depends on the torch version (memory-model.md §9 d). */
#define CHOICE_EPILOG_NORM_FP32_COPY 0

/* FP8Linears inside a compiled stage-1 region re-quantise their weight in
** the graph; AOTAutograd saves the transposed fp8 weight per chunk and
** layer (1, memory-model.md §4.8's default) or recomputes it in the backward (0). */
#define CHOICE_FP8_COMPILED_WEIGHT_SAVED 1

/* Non-PyTorch memory, from the measured decomposition (memory-model.md §7), in MiB. */
#define CHOICE_NONPT_CUDA_CONTEXT_MIB 532       /* 0.52 GiB */
#define CHOICE_NONPT_NCCL_WORLD_MIB 399         /* 0.39 GiB */
#define CHOICE_NONPT_NCCL_PER_DIM_MIB 410       /* 0.4 GiB per mesh dim > 1 */
#define CHOICE_NONPT_NCCL_PP_EXTRA_MIB 205      /* 0.2 GiB more when pp > 1 */
#define CHOICE_NONPT_FSDP_STATE_MIB 983         /* 0.96 GiB */
#define CHOICE_NONPT_FIRST_FORWARD_MIB 3041     /* 2.97 GiB */

/* Headroom below which a fitting run is reported TIGHT, in percent. */
#define CHOICE_TIGHT_PERCENT 5

#endif /* MEMEST_CHOICES_H */
