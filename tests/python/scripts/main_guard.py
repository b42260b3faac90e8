"""Fields set, and launch() called, only when run as the main program."""
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    cfg.distributed.pipeline_parallel_size = sum([2, 2])
    cfg.training.micro_batch_size = 2 if __name__ == "__main__" else 1
    launch(cfg)
