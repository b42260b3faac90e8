"""A value bound inside an assignment expression and used again."""
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = (m := 2)
cfg.training.global_batch_size = 512 * m
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 4
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    launch(cfg)
