"""Moves to its own folder first, and finds the model and a helper module
from __file__, so it runs from any working folder."""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
os.chdir(HERE)
sys.path.append(str(HERE / "shared"))

from layouts import EXPERT, PIPELINE  # noqa: E402
from pithtrain.modules.training import make_muon_optimizer  # noqa: E402
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch  # noqa: E402

cfg = PretrainLMCfg()
cfg.training.model = Path("models") / "qwen3-30b-a3b.json"
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = PIPELINE
cfg.distributed.expert_parallel_size = EXPERT
cfg.distributed.sharding_strategy = "hsdp" if sys.argv[0].endswith(".py") else "fsdp"

if __name__ == "__main__":
    launch(cfg)
