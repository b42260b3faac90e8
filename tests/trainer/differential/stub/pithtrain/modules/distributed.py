"""The distributed section: parallel degrees, sharding, timeout."""
import datetime
from dataclasses import dataclass

from pithtrain.config import Defaulted


@dataclass(init=False, slots=True)
class DistributedCfg(Defaulted):
    pipeline_parallel_size: int = 1
    context_parallel_size: int = 1
    expert_parallel_size: int = 1
    timeout: datetime.timedelta = datetime.timedelta(minutes=15)
    sharding_strategy: str = "fsdp"
