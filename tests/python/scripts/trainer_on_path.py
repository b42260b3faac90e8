"""The trainer is no installed package here: the script puts its checkout
(the stand-in) on sys.path itself, then imports launch from it."""
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "trainer",
                                "differential", "stub"))

from pithtrain.modules.training import make_adamw_optimizer  # noqa: E402
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch  # noqa: E402

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_adamw_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 256
cfg.training.sequence_length = 2048
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 16

if __name__ == "__main__":
    launch(cfg)
