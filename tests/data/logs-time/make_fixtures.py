"""Writes this folder's logs in the trainer's line format (a launch line,
then one line per step), with step times chosen by hand:

  slow-first.log  9 steps: a slow first step (95.412 s), a checkpoint save at
                  step 6 (58.930 s), seven steady steps whose median is 14.251 s
  no-time.log     7 steps without step-time or tokens-per-second
  malformed.log   6 steps; line 7's step-time is "14,305"

tokens-per-second is global batch x sequence / step-time with thousands
separated by commas, as the trainer prints it. Run: python3 make_fixtures.py
"""
GBS, SEQ = 1024, 4096
LAUNCH = (
    "2026-03-27 19:10:02 | INFO | launch(cfg=PretrainLMCfg(distributed=DistributedCfg("
    "pipeline_parallel_size=4, context_parallel_size=1, expert_parallel_size=8, "
    "timeout=datetime.timedelta(seconds=1800), sharding_strategy='fsdp'), training=TrainingCfg("
    "dataset=PosixPath('workspace/datasets/fineweb-edu/toktxt/qwen3'), sequence_length=%d, seed=7, "
    "lr=0.0003, max_steps=9, micro_batch_size=1, global_batch_size=%d, "
    "optimizer=<function make_adamw_optimizer at 0x7f3a11c2d1c0>, "
    "scheduler=<function make_constant_scheduler at 0x7f3a11c2d300>, "
    "model=PosixPath('benchmarks/pretraining/qwen3-30b-a3b/model.json'), save_interval=5, "
    "save_location=None, moe_load_balance_coef=0.001, moe_load_balance_type='global-batch', "
    "benchmark=True, fp8=False, init_std=0.02, nsys_start=None, nsys_stop=None, "
    "memory_profile_start=None, memory_profile_stop=None, memory_profile_output=None), "
    "logging=LoggingCfg(wandb=None)))" % (SEQ, GBS))
HEAD = ["2026-03-27 19:10:00 | INFO | Pretraining qwen3-30b-a3b", LAUNCH,
        "2026-03-27 19:10:09 | INFO | No save_location set; training from scratch."]
TIMES = [95.412, 14.262, 14.118, 14.305, 14.251, 58.930, 14.197, 14.280, 14.233]
PEAKS = [49.04, 47.52, 47.57, 47.57, 47.61, 47.61, 47.55, 47.60, 47.58]


def step_line(i, seconds, peak, timed=True, seconds_text=None):
    parts = ["2026-03-27 19:%02d:%02d | INFO | step %08d/%08d"
             % (11 + i, (7 * i) % 60, i + 1, len(TIMES))]
    if timed:
        parts.append("step-time %s sec" % (seconds_text or "%.3f" % seconds))
    parts.append("cross-entropy-loss %.4f" % (11.9 - 0.31 * i))
    parts.append("load-balance-loss %.6f" % (1.0 + 0.0041 * i))
    parts.append("learning-rate %.6e" % 3e-4)
    parts.append("gradient-norm %.4f" % (3.2 - 0.2 * i))
    if timed:
        parts.append("tokens-per-second %s" % format(GBS * SEQ / seconds, ",.0f"))
    parts.append("peak-gpu-memory %.2f GB" % peak)
    return " | ".join(parts)


def write(name, lines):
    with open(name, "w") as f:
        f.write("\n".join(HEAD + lines) + "\n")


steps = list(zip(TIMES, PEAKS))
write("slow-first.log", [step_line(i, t, p) for i, (t, p) in enumerate(steps)])
write("no-time.log", [step_line(i, t, p, timed=False) for i, (t, p) in enumerate(steps[:7])])
write("malformed.log", [step_line(i, t, p, seconds_text="14,305" if i == 3 else None)
                        for i, (t, p) in enumerate(steps[:6])])
