"""Fields set by setattr over dicts of names and values."""
from pathlib import Path

from pithtrain.modules.training import make_adamw_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
DISTRIBUTED = {
    "pipeline_parallel_size": 2,
    "expert_parallel_size": 8,
    "context_parallel_size": 2,
    "sharding_strategy": "hsdp",
}
TRAINING = {
    "model": Path("models/qwen3-30b-a3b.json"),
    "optimizer": make_adamw_optimizer,
    "micro_batch_size": 1,
    "global_batch_size": 256,
    "sequence_length": 8192,
    "fp8": True,
}
for section, fields in (("distributed", DISTRIBUTED), ("training", TRAINING)):
    for name, value in fields.items():
        setattr(getattr(cfg, section), name, value)

if __name__ == "__main__":
    launch(cfg)
