/*
** bounds.h — every limit the simulator relies on, named in one place.
**
** Each is checked at the entry points (params.c, config.c, estimate.c, and
** planner.c for the plan limits) with an error that names the limit;
** docs/limits.md gives the reason for each. The plan's list sizes,
** MEMEST_PLAN_VALUES and MEMEST_PLAN_TEXT, size the public request and so
** live in include/memest.h.
** Any may be overridden at build time (-DMEMEST_MAX_LAYERS=...).
*/
#ifndef MEMEST_BOUNDS_H
#define MEMEST_BOUNDS_H

#ifndef MEMEST_MAX_CONFIG_BYTES
#define MEMEST_MAX_CONFIG_BYTES (1024 * 1024)   /* a config.json is a few KB */
#endif
#ifndef MEMEST_MAX_JSON_DEPTH
#define MEMEST_MAX_JSON_DEPTH 64
#endif
/* Measured runs (pickle.c, snapshot.c, runlog.c; docs/measured-runs.md). */
#ifndef MEMEST_MAX_PICKLE_BYTES
#define MEMEST_MAX_PICKLE_BYTES (1LL << 30)       /* 1 GiB snapshot file */
#endif
#ifndef MEMEST_MAX_PICKLE_VALUES
#define MEMEST_MAX_PICKLE_VALUES (1LL << 27)      /* 8 bytes each: 1 GiB */
#endif
#ifndef MEMEST_MAX_PICKLE_DEPTH
#define MEMEST_MAX_PICKLE_DEPTH 32                /* a snapshot nests 6 deep */
#endif
#ifndef MEMEST_MAX_SNAPSHOT_EVENTS
#define MEMEST_MAX_SNAPSHOT_EVENTS (1LL << 22)    /* trace entries read */
#endif
#ifndef MEMEST_MAX_SNAPSHOT_BLOCKS
#define MEMEST_MAX_SNAPSHOT_BLOCKS (1LL << 22)    /* segment blocks read */
#endif
#ifndef MEMEST_MAX_RUNLOG_BYTES
#define MEMEST_MAX_RUNLOG_BYTES (256LL << 20)     /* a training log */
#endif
#ifndef MEMEST_MAX_RUNLOG_STEPS
#define MEMEST_MAX_RUNLOG_STEPS (1LL << 20)
#endif
/* The trainer's own files (pylex.c, pyscript.c, launchline.c, wandb.c;
** docs/trainer-files.md). */
#ifndef MEMEST_MAX_SCRIPT_BYTES
#define MEMEST_MAX_SCRIPT_BYTES (1024 * 1024)   /* a launch script is a few KB */
#endif
#ifndef MEMEST_MAX_SCRIPT_TOKENS
#define MEMEST_MAX_SCRIPT_TOKENS (1 << 18)      /* tokens of one file */
#endif
#ifndef MEMEST_MAX_PY_NESTING
#define MEMEST_MAX_PY_NESTING 200               /* Python's own limit on nested brackets */
#endif
#ifndef MEMEST_MAX_PY_INDENT
#define MEMEST_MAX_PY_INDENT 100                /* Python's own limit on indentation levels */
#endif
#ifndef MEMEST_MAX_SCRIPT_MODULES
#define MEMEST_MAX_SCRIPT_MODULES 16            /* files one script reaches through imports */
#endif
#ifndef MEMEST_MAX_SCRIPT_NAMES
#define MEMEST_MAX_SCRIPT_NAMES 512             /* module-level names of one file */
#endif
#ifndef MEMEST_MAX_WANDB_CONFIG_BYTES
#define MEMEST_MAX_WANDB_CONFIG_BYTES (16LL << 20) /* config.yaml: a few KB of cfg, W&B's telemetry */
#endif
#ifndef MEMEST_MAX_WANDB_JSON_BYTES
#define MEMEST_MAX_WANDB_JSON_BYTES (64LL << 20)   /* wandb-summary.json may hold histograms */
#endif
#ifndef MEMEST_MAX_YAML_DEPTH
#define MEMEST_MAX_YAML_DEPTH 64                /* config.yaml nests 4 deep */
#endif
#ifndef MEMEST_MAX_LAYERS
#define MEMEST_MAX_LAYERS 1024
#endif
#ifndef MEMEST_MAX_EXPERTS
#define MEMEST_MAX_EXPERTS 16384
#endif
#ifndef MEMEST_MAX_TOP_K
#define MEMEST_MAX_TOP_K 256
#endif
#ifndef MEMEST_MAX_HEADS
#define MEMEST_MAX_HEADS 4096
#endif
#ifndef MEMEST_MAX_HEAD_DIM
#define MEMEST_MAX_HEAD_DIM 4096
#endif
#ifndef MEMEST_MAX_HIDDEN
#define MEMEST_MAX_HIDDEN 262144
#endif
#ifndef MEMEST_MAX_INTERMEDIATE
#define MEMEST_MAX_INTERMEDIATE 1048576
#endif
#ifndef MEMEST_MAX_SHARED_EXPERTS
#define MEMEST_MAX_SHARED_EXPERTS 4096     /* DeepSeek n_shared_experts */
#endif
#ifndef MEMEST_MAX_CONV_KERNEL
#define MEMEST_MAX_CONV_KERNEL 1024        /* Qwen3.5 linear_conv_kernel_dim */
#endif
#ifndef MEMEST_MAX_VOCAB
#define MEMEST_MAX_VOCAB 16777216
#endif
#ifndef MEMEST_MAX_SEQUENCE
#define MEMEST_MAX_SEQUENCE 16777216       /* 16 Mi tokens */
#endif
#ifndef MEMEST_MAX_GPUS
#define MEMEST_MAX_GPUS 1048576
#endif
#ifndef MEMEST_MAX_PP
#define MEMEST_MAX_PP 512
#endif
#ifndef MEMEST_MAX_MODULES
#define MEMEST_MAX_MODULES 4               /* model chunks one pipeline rank holds (DualPipeV: 2; interleaved 1F1B: --virtual-stages) */
#endif
#ifndef MEMEST_MAX_EP
#define MEMEST_MAX_EP 32                   /* the trainer's dispatch asserts ep <= 32 */
#endif
#ifndef MEMEST_MAX_CP
#define MEMEST_MAX_CP 1024
#endif
#ifndef MEMEST_MAX_MICRO_BATCH
#define MEMEST_MAX_MICRO_BATCH 65536
#endif
#ifndef MEMEST_MAX_GLOBAL_BATCH
#define MEMEST_MAX_GLOBAL_BATCH (1LL << 40)
#endif
#ifndef MEMEST_MAX_DP
#define MEMEST_MAX_DP MEMEST_MAX_GPUS      /* dp = total_gpus / (pp*ep*cp) */
#endif
#ifndef MEMEST_MAX_CHUNKS
#define MEMEST_MAX_CHUNKS (1LL << 20)      /* micro-batches per step */
#endif
#ifndef MEMEST_MAX_REPLAY_CHUNKS
#define MEMEST_MAX_REPLAY_CHUNKS (1LL << 21) /* chunks x ranks, if no step settles */
#endif
#ifndef MEMEST_MAX_TIMELINE_EVENTS
#define MEMEST_MAX_TIMELINE_EVENTS (1LL << 15) /* kept over all ranks */
#endif
#ifndef MEMEST_MIN_GPU_GIB
#define MEMEST_MIN_GPU_GIB (1.0 / 1024.0)  /* 1 MiB: a capacity of 0 bytes is no GPU */
#endif
#ifndef MEMEST_MAX_GPU_GIB
#define MEMEST_MAX_GPU_GIB 1048576.0       /* 1 PiB per device */
#endif
#ifndef MEMEST_MAX_EP_IMBALANCE
#define MEMEST_MAX_EP_IMBALANCE 16.0       /* the busiest rank gets 16x its share */
#endif
#ifndef MEMEST_MAX_ROUTING_FACTOR
#define MEMEST_MAX_ROUTING_FACTOR 32.0     /* min(ep, E/k) <= ep <= MEMEST_MAX_EP */
#endif
#ifndef MEMEST_MAX_LINK_GB_PER_S
#define MEMEST_MAX_LINK_GB_PER_S 100000.0  /* NVLink per GPU, one direction: 100 TB/s */
#endif
#ifndef MEMEST_MAX_NETWORK_GBIT_PER_S
#define MEMEST_MAX_NETWORK_GBIT_PER_S 100000.0  /* network per GPU: 100 Tb/s */
#endif
#ifndef MEMEST_MAX_FRAGMENTATION
#define MEMEST_MAX_FRAGMENTATION 1.0       /* allocator overhead: at most 100% */
#endif

/* Plans (planner.c; docs/planner.md "Limits and speed"). */
#ifndef MEMEST_MAX_PLAN_ROWS
#define MEMEST_MAX_PLAN_ROWS 16384         /* combinations one plan may try */
#endif
#ifndef MEMEST_MAX_PLAN_WORK
#define MEMEST_MAX_PLAN_WORK (1LL << 19)   /* the estimates' time, in units of about
                                           ** 4 us (planner.c row_work): about 2 s */
#endif

#endif /* MEMEST_BOUNDS_H */
