"""Builds a config but never calls launch()."""
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    print("configured; not launching")
