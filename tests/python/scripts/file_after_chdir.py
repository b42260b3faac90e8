"""Moves up a folder, then finds its model from __file__ (absolute in the
script Python runs, since Python 3.9); sys.argv[0] is the path as given."""
import os
import sys
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

os.chdir("..")
cfg = PretrainLMCfg()
cfg.training.model = Path(__file__).parent / "models" / "qwen3-30b-a3b.json"
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 4
cfg.distributed.expert_parallel_size = 8
cfg.distributed.sharding_strategy = "hsdp" if sys.argv[0] == "file_after_chdir.py" else "fsdp"

if __name__ == "__main__":
    launch(cfg)
