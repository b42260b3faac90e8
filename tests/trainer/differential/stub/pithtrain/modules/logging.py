"""The logging section: W&B's names."""
from dataclasses import dataclass
from typing import Optional

from pithtrain.config import Defaulted


@dataclass(init=False, slots=True)
class LoggingWandbCfg(Defaulted):
    entity: str
    project: str
    name: str
    group: Optional[str] = None


@dataclass(init=False, slots=True)
class LoggingCfg(Defaulted):
    wandb: Optional[LoggingWandbCfg] = None
