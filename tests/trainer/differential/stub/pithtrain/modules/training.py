"""The training section and the optimizer and scheduler builders."""
import pathlib
from dataclasses import dataclass
from typing import Callable, Optional

from pithtrain.config import Defaulted


def make_muon_optimizer(cfg, *, weight_decay=0.1):
    raise NotImplementedError


def make_adamw_optimizer(cfg, *, weight_decay=0.1):
    raise NotImplementedError


def make_wsd_scheduler(cfg, *, start_lr=0.0, warmup_ratio=0.0, final_lr=0.0, decay_ratio=0.1,
                       decay_shape="cosine"):
    raise NotImplementedError


def make_constant_scheduler(cfg):
    raise NotImplementedError


@dataclass(init=False, slots=True)
class TrainingCfg(Defaulted):
    model: object
    dataset: pathlib.Path
    sequence_length: int
    seed: int = 1234
    lr: float
    max_steps: int
    micro_batch_size: int
    global_batch_size: int
    optimizer: Callable
    scheduler: Callable
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
    memory_profile_output: pathlib.Path = pathlib.Path.cwd()
