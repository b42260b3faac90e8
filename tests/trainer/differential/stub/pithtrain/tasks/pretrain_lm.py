"""The pretraining task: its config, and a launch() that writes what the
run would use of it (each memory input, with its Python type where that
is not the one the trainer expects) as a JSON line to the file named by
MEMEST_DIFF_CAPTURE. Anything the trainer could not start from (a field
never set, a model file that is not there) raises, as the trainer would."""
import functools
import json
import os
import pathlib
import re
from dataclasses import dataclass, field

from pithtrain.config import Defaulted
from pithtrain.modules.distributed import DistributedCfg
from pithtrain.modules.logging import LoggingCfg
from pithtrain.modules import training as _training
from pithtrain.modules.training import TrainingCfg

_open, _getcwd, _environ = open, os.getcwd, os.environ
_HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(init=False, slots=True)
class PretrainLMCfg(Defaulted):
    distributed: DistributedCfg = field(default_factory=DistributedCfg)
    training: TrainingCfg = field(default_factory=TrainingCfg)
    logging: LoggingCfg = field(default_factory=LoggingCfg)


def _raw(v):
    """A value memest never writes: its type and repr."""
    return "%s:%r" % (type(v).__name__, v)


def _typed(v, names=None):
    """A value as memest writes it when it has the type the trainer
    expects (int, or bool for the named ones); else _raw."""
    if names is not None and type(v) is bool:
        return names[v]
    if names is None and type(v) is int:
        return str(v)
    return _raw(v)


def _optimizer(v):
    # The strings of the trainer's schema before cae7fb3, which memest reads too.
    if type(v) is str and v in ("Muon", "Adam"):
        return {"Muon": "muon", "Adam": "adamw"}[v]
    func = v.func if isinstance(v, functools.partial) else v
    if isinstance(func, staticmethod):   # callable since Python 3.10: the trainer runs it
        func = func.__func__
    if func is _training.make_muon_optimizer:
        return "muon"
    if func is _training.make_adamw_optimizer:
        return "adamw"
    return _raw(v)


def _model(v):
    """The file the run loads (its real path), or the hub id it asks for."""
    if not isinstance(v, (str, pathlib.PurePath)):
        raise TypeError("training.model is a %s" % type(v).__name__)
    s = str(v)
    if "\0" in s:
        raise ValueError("training.model holds a NUL")
    full = os.path.join(_getcwd(), s)
    if os.path.isdir(full):
        full = os.path.join(full, "config.json")
    if os.path.isfile(full):
        return "file:" + os.path.realpath(full)
    if _HUB_ID.fullmatch(s):
        return "hub:" + s
    raise FileNotFoundError("training.model %r is neither a file nor a hub id" % s)


def launch(cfg):
    d, t = cfg.distributed, cfg.training
    sharding = d.sharding_strategy
    rec = {
        "pp_size": _typed(d.pipeline_parallel_size), "ep_size": _typed(d.expert_parallel_size),
        "cp_size": _typed(d.context_parallel_size),
        "sharding": sharding if type(sharding) is str and sharding in ("fsdp", "hsdp") else _raw(sharding),
        "micro_batch_size": _typed(t.micro_batch_size), "global_batch_size": _typed(t.global_batch_size),
        "sequence_length": _typed(t.sequence_length), "model": _model(t.model),
        "optimizer": _optimizer(t.optimizer),
        "fp8_training": _typed(t.fp8, {True: "deep-gemm", False: "disabled"}),
        "routing": _typed(t.benchmark, {True: "balanced", False: "measured"}),
    }
    with _open(_environ["MEMEST_DIFF_CAPTURE"], "a", encoding="utf-8") as f:
        f.write(json.dumps(rec, sort_keys=True) + "\n")
