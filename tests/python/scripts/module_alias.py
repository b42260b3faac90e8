"""launch() called through the task module imported under another name,
with a field set from a value the trainer's package computes."""
from pathlib import Path

import pithtrain.tasks.pretrain_lm as t
from pithtrain.modules.training import make_adamw_optimizer

cfg = t.PretrainLMCfg()
cfg.training.model = Path("models") / "qwen3-30b-a3b.json"
cfg.training.optimizer = make_adamw_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 2048
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = len(t.__name__.split(".")) + 1
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    t.launch(cfg)
