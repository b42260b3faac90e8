#!/usr/bin/env python3
"""Writes the trainer-run fixtures of tests/trainer/ with Python itself.

The trainer (mlc-ai/pith-train) logs its whole config at launch as
"launch(cfg=%s)" % cfg, Python's dataclass repr, and uploads the
distributed and training sections to W&B as to_json_dict() gives them.
This generator defines look-alike dataclasses with the trainer's field
names, order, types and defaults (its schema at 889a408, and at d2fffcc for
an older run), builds configs, and lets Python print them: the repr, the
logging prefix, PosixPath, functools.partial, datetime.timedelta and
function reprs are Python's own. It then writes the W&B files in both
forms config.yaml takes (wandb-core's sorted `value:` form and the older
SDK's `wandb_version: 1` form with desc/value, through PyYAML).

    python3 tests/trainer/gen_trainer_files.py OUT_DIR

CTest runs it into a scratch folder and compares with the committed files
(function addresses, which change on every run, read as 0x0).
"""
import dataclasses
import datetime
import functools
import json
import logging
import os
import pathlib
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional

import yaml

ROOT = pathlib.PosixPath("/srv/pith-train")   # the working folder of the runs


# {== look-alike configs: field names, order and defaults as the trainer's ==
def make_muon_optimizer(cfg, *, weight_decay=0.1):
    raise NotImplementedError


def make_adamw_optimizer(cfg, *, weight_decay=0.1):
    raise NotImplementedError


def make_wsd_scheduler(cfg, *, start_lr=0.0, warmup_ratio=0.0, final_lr=0.0, decay_ratio=0.1):
    raise NotImplementedError


def make_constant_scheduler(cfg):
    raise NotImplementedError


@dataclass(slots=True)
class DistributedCfg:
    pipeline_parallel_size: int = 1
    context_parallel_size: int = 1
    expert_parallel_size: int = 1
    timeout: datetime.timedelta = datetime.timedelta(minutes=15)
    sharding_strategy: str = "fsdp"


@dataclass(slots=True)
class TrainingCfg:
    dataset: pathlib.Path = None
    sequence_length: int = None
    seed: int = 1234
    lr: float = None
    max_steps: int = None
    micro_batch_size: int = None
    global_batch_size: int = None
    optimizer: Callable = None
    scheduler: Callable = None
    model: object = None
    save_interval: Optional[int] = None
    save_location: Optional[pathlib.Path] = None
    moe_load_balance_coef: float = 0.0
    moe_load_balance_type: str = "micro-batch"
    benchmark: bool = False
    fp8: bool = False
    init_std: float = 0.02
    nsys_start: Optional[int] = None
    nsys_stop: Optional[int] = None
    memory_profile_start: Optional[int] = None
    memory_profile_stop: Optional[int] = None
    memory_profile_output: pathlib.Path = ROOT


@dataclass(slots=True)
class LoggingWandbCfg:
    entity: str = None
    project: str = None
    name: str = None
    group: Optional[str] = None


@dataclass(slots=True)
class LoggingCfg:
    wandb: Optional[LoggingWandbCfg] = None


@dataclass(slots=True)
class PretrainLMCfg:
    distributed: DistributedCfg = field(default_factory=DistributedCfg)
    training: TrainingCfg = field(default_factory=TrainingCfg)
    logging: LoggingCfg = field(default_factory=LoggingCfg)


# The schema of d2fffcc (2026-06-19): string optimizer and scheduler,
# min/max learning rates, WSD decay fields, fp8_training.
@dataclass(slots=True)
class OldTrainingCfg:
    dataset: pathlib.Path = None
    sequence_length: int = None
    seed: int = 1234
    min_lr: float = None
    max_lr: float = None
    warmup_steps: int = 0
    wsd_decay_type: str = "cosine"
    wsd_decay_steps: int = 0
    max_steps: int = None
    micro_batch_size: int = None
    global_batch_size: int = None
    optimizer: str = "Adam"
    scheduler: str = "Constant"
    model: object = None
    save_interval: Optional[int] = None
    save_location: Optional[pathlib.Path] = None
    moe_load_balance_coef: float = 0.0
    moe_load_balance_type: str = "micro-batch"
    fp8_training: str = "disabled"
    init_std: float = 0.02
    memory_profile_start: Optional[int] = None
    memory_profile_stop: Optional[int] = None
    memory_profile_output: pathlib.Path = ROOT


@dataclass(slots=True)
class OldPretrainLMCfg:
    distributed: DistributedCfg = field(default_factory=DistributedCfg)
    training: OldTrainingCfg = field(default_factory=OldTrainingCfg)
    logging: LoggingCfg = field(default_factory=LoggingCfg)


def to_json_dict(section):
    """A section as the trainer uploads it: paths as str, timedelta as
    seconds, a partial as its call form, a function as its name."""
    out = {}
    for f in dataclasses.fields(section):
        v = getattr(section, f.name)
        if isinstance(v, pathlib.PurePath):
            v = str(v)
        elif isinstance(v, datetime.timedelta):
            v = v.total_seconds()
        elif isinstance(v, functools.partial):
            kw = ", ".join("%s=%r" % kv for kv in v.keywords.items())
            v = "%s(%s)" % (v.func.__name__, kw) if kw else v.func.__name__
        elif callable(v):
            v = v.__name__
        out[f.name] = v
    return out
# }==


def qwen3_benchmark(pp, gbs, seq):
    """A benchmark run: force-balanced routing, bare builders, from scratch."""
    cfg = PretrainLMCfg()
    cfg.distributed.pipeline_parallel_size = pp
    cfg.distributed.expert_parallel_size = 8
    t = cfg.training
    t.model = pathlib.PosixPath("benchmarks/pretraining/qwen3-30b-a3b/model.json")
    t.optimizer = make_muon_optimizer
    t.scheduler = make_constant_scheduler
    t.lr = 1.0e-6
    t.max_steps = 25
    t.dataset = pathlib.PosixPath("workspace/datasets/dclm-baseline/toktxt/qwen3")
    t.moe_load_balance_type = "global-batch"
    t.moe_load_balance_coef = 1e-3
    t.benchmark = True
    t.micro_batch_size = 1
    t.global_batch_size = gbs
    t.sequence_length = seq
    return cfg


def dsv2_example():
    """The FP8 example's form: partial scheduler, wandb, hsdp, a checkpoint folder."""
    cfg = PretrainLMCfg()
    cfg.distributed.pipeline_parallel_size = 2
    cfg.distributed.expert_parallel_size = 2
    cfg.distributed.sharding_strategy = "hsdp"
    cfg.distributed.timeout = datetime.timedelta(hours=1)
    t = cfg.training
    t.model = pathlib.PosixPath("examples/pretrain_lm/deepseek-v2-lite/config.json")
    t.optimizer = functools.partial(make_adamw_optimizer, weight_decay=0.05)
    t.scheduler = functools.partial(make_wsd_scheduler, start_lr=1.0e-4, warmup_ratio=0.0, final_lr=1.0e-4)
    t.lr = 1.0e-4
    t.max_steps = 256
    t.micro_batch_size = 1
    t.global_batch_size = 1024
    t.sequence_length = 2048
    t.dataset = pathlib.PosixPath("workspace/datasets/dclm-baseline/toktxt/deepseek-v2")
    t.moe_load_balance_type = "sequence"
    t.moe_load_balance_coef = 3e-3
    t.save_interval = 256
    t.save_location = pathlib.PosixPath("workspace/checkpoints/deepseek-v2-lite")
    t.fp8 = True
    cfg.logging.wandb = LoggingWandbCfg(entity="pithtrain", project="hopper-deepgemm", name="dsv2 'fp8'\n")
    return cfg


def old_schema():
    cfg = OldPretrainLMCfg()
    cfg.distributed.pipeline_parallel_size = 1
    cfg.distributed.expert_parallel_size = 8
    t = cfg.training
    t.model = pathlib.PosixPath("examples/pretrain_lm/deepseek-v2-lite/config.json")
    t.optimizer = "Muon"
    t.scheduler = "Constant"
    t.min_lr = t.max_lr = 3.0e-4
    t.max_steps = 100
    t.micro_batch_size = 1
    t.global_batch_size = 256
    t.sequence_length = 2048
    t.dataset = pathlib.PosixPath("workspace/datasets/dclm")
    t.fp8_training = "disabled"
    return cfg


FORMATTER = logging.Formatter("%(asctime)s | %(levelname)s | %(message)s", "%Y-%m-%d %H:%M:%S")
CLOCK = [1784800800.0]   # 2026-07-23, a fixed clock so the files do not change


def line(message):
    record = logging.LogRecord("pithtrain", logging.INFO, __file__, 0, message, None, None)
    record.created = CLOCK[0]
    record.msecs = 0
    CLOCK[0] += 7
    # The timestamp in UTC, whatever the host's zone.
    FORMATTER.converter = lambda t: __import__("time").gmtime(t)
    return FORMATTER.format(record) + "\n"


def steps(first, last, max_steps, peaks):
    out = []
    for s in range(first, last + 1):
        gib = peaks[(s - first) % len(peaks)]
        parts = ["step %08d/%08d" % (s, max_steps), "step-time %.3f sec" % 1.234,
                 "cross-entropy-loss %.4f" % 7.8901, "load-balance-loss %.6f" % 1.012345,
                 "learning-rate %.6e" % 1e-6, "gradient-norm %.4f" % 0.9876,
                 "tokens-per-second %s" % format(1234567, ",.0f"), "peak-gpu-memory %.2f GB" % gib]
        out.append(line(" | ".join(parts)))
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(text)


def go_yaml(sections):
    """config.yaml as wandb-core writes it (Go's yaml.v3): each top key's
    value under `value:`, keys sorted, four-space indents."""
    def scalar(v):
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
            return "%d" % v
        if isinstance(v, (int, float)):
            return repr(v)
        s = str(v)
        plain = s and all(c.isalnum() or c in "-_./" for c in s) and not s[0].isdigit() and s not in ("true", "false", "null")
        return s if plain else json.dumps(s)
    out = []
    for key in sorted(sections):
        out.append("%s:\n    value:\n" % key)
        for name in sorted(sections[key]):
            out.append("        %s: %s\n" % (name, scalar(sections[key][name])))
    return "".join(out)


def legacy_yaml(sections):
    """config.yaml as the older Python SDK wrote it: wandb_version: 1, then
    each key with desc and value, in insertion order (PyYAML)."""
    body = {k: {"desc": None, "value": v} for k, v in sections.items()}
    return "wandb_version: 1\n\n" + yaml.safe_dump(body, default_flow_style=False, sort_keys=False)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))

    # A benchmark run: one launch, then its steps.
    cfg = qwen3_benchmark(4, 1024, 4096)
    log = [line("Pretraining qwen3-30b-a3b"), line("launch(cfg=%s)" % cfg),
           line("No save_location set; training from scratch.")]
    log += steps(1, 6, 25, [45.91, 45.37, 45.37, 45.38])
    write(os.path.join(out, "logs/benchmark.log"), "".join(log))

    # A restarted run: the first launch at pp 2 crashed; the second, at
    # pp 4 with a smaller batch, ran on. CRLF line ends, as a log copied
    # from another system may have.
    first, second = qwen3_benchmark(2, 1024, 4096), qwen3_benchmark(4, 512, 4096)
    log = [line("launch(cfg=%s)" % first)] + steps(1, 3, 25, [61.02, 60.50])
    log += [line("Traceback: the node failed"), line("launch(cfg=%s)" % second)]
    log += [line("No save_location set; training from scratch.")] + steps(1, 4, 25, [44.80, 44.10])
    write(os.path.join(out, "logs/restarted.log"), "".join(log).replace("\n", "\r\n"))

    # The FP8 example's form, resumed from a checkpoint.
    cfg = dsv2_example()
    log = [line("launch(cfg=%s)" % cfg),
           line("Load checkpoint: workspace/checkpoints/deepseek-v2-lite/torch-dcp/step-00000128"),
           line("Load checkpoint: Elapsed min=12.3s, max=12.9s")]
    log += steps(129, 133, 256, [70.12, 70.55])
    write(os.path.join(out, "logs/checkpoint.log"), "".join(log))

    # The schema of d2fffcc.
    cfg = old_schema()
    write(os.path.join(out, "logs/old-schema.log"),
          "".join([line("launch(cfg=%s)" % cfg)] + steps(1, 3, 100, [47.90])))

    # W&B runs of the benchmark: wandb-core (0.21+), the older SDK, and a
    # crashed run that has neither config.yaml nor wandb-summary.json.
    cfg = qwen3_benchmark(4, 1024, 4096)
    sections = {"distributed": to_json_dict(cfg.distributed), "training": to_json_dict(cfg.training)}
    output = "".join(steps(2, 6, 25, [45.37, 45.38]))
    meta_core = {
        "os": "Linux-6.8", "python": "CPython 3.12.3", "program": "benchmarks/pretraining/qwen3-30b-a3b/h100-4n8g/pp4-dp1-cp1-ep8-seq4096-bf16.py",
        "git": {"remote": "https://github.com/mlc-ai/pith-train", "commit": "287070fbcf6c4d0b49be452a2ebb1c75c9f0e20f"},
        "root": str(ROOT), "host": "node-0", "gpu": "NVIDIA H100 80GB HBM3", "gpu_count": 8,
        "gpu_nvidia": [{"name": "NVIDIA H100 80GB HBM3", "memoryTotal": "85520809984", "cudaCores": 16896,
                        "architecture": "Hopper", "uuid": "GPU-%d" % i} for i in range(8)],
        "slurm": {"nnodes": "4", "job_id": "12345", "nodeid": "0"}, "cudaVersion": "12.8", "writerId": "abc",
    }
    summary = {"infra/peak-gpu-memory": 45.380859375, "train/step": 5, "_step": 5, "_runtime": 91.2}
    base = os.path.join(out, "wandb/run-20260723_100000-core/files")
    write(os.path.join(base, "config.yaml"), go_yaml(dict(sections, _wandb={"cli_version": "0.21.1"})))
    write(os.path.join(base, "wandb-metadata.json"), json.dumps(meta_core, indent=2) + "\n")
    write(os.path.join(base, "wandb-summary.json"), json.dumps(summary) + "\n")
    write(os.path.join(base, "output.log"), output)

    meta_legacy = {"program": "run.py", "gpu": "NVIDIA H100 80GB HBM3", "gpu_count": 8,
                   "gpu_devices": [{"name": "NVIDIA H100 80GB HBM3", "memory_total": 85520809984}] * 8,
                   "git": {"commit": "093a9e47a25e330ad795fe76662cc3402f34acc9"}, "root": str(ROOT)}
    base = os.path.join(out, "wandb/run-20260516_090000-legacy/files")
    write(os.path.join(base, "config.yaml"), legacy_yaml(dict(sections, _wandb={"cli_version": "0.17.0"})))
    write(os.path.join(base, "wandb-metadata.json"), json.dumps(meta_legacy, indent=4) + "\n")
    write(os.path.join(base, "wandb-summary.json"), json.dumps(summary) + "\n")
    write(os.path.join(base, "output.log"), output)

    base = os.path.join(out, "wandb/run-20260724_080000-crashed/files")
    write(os.path.join(base, "wandb-metadata.json"), json.dumps(meta_core, indent=2) + "\n")
    write(os.path.join(base, "output.log"), "".join(steps(2, 3, 25, [45.37])))


if __name__ == "__main__":
    main()
