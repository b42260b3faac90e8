"""Values computed at run time: a function call, a comprehension and an
environment variable with a default."""
import os
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch


def batch_for(nodes, per_node=128):
    return nodes * per_node


cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = batch_for(4)
cfg.training.sequence_length = [2 ** i for i in range(14) if 2 ** i <= 4096][-1]
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = int(os.environ.get("MEMEST_TEST_EP", "8"))

if __name__ == "__main__":
    launch(cfg)
