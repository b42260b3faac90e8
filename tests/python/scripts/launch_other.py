"""Two configs; launch() is given the second by keyword."""
from pathlib import Path

from pithtrain.modules.training import make_adamw_optimizer, make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 8

other = PretrainLMCfg()
other.training.model = Path("models/qwen3-30b-a3b.json")
other.training.optimizer = make_adamw_optimizer
other.training.micro_batch_size = 2
other.training.global_batch_size = 512
other.training.sequence_length = 2048
other.training.benchmark = True
other.distributed.pipeline_parallel_size = 4
other.distributed.expert_parallel_size = 4

if __name__ == "__main__":
    launch(cfg=other)
