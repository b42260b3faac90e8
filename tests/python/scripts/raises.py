"""Raises before it reaches launch()."""
from pathlib import Path

from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 2
raise RuntimeError("the cluster file is missing")

if __name__ == "__main__":
    launch(cfg)
