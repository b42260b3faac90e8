import sys
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
training = cfg.training
training.model = Path("examples/pretrain_lm/qwen3-30b-a3b/config.json")
training.optimizer = make_muon_optimizer
training.micro_batch_size = 1
training.global_batch_size = 1024
training.sequence_length = 2048
if len(sys.argv) > 1:
    training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    launch(cfg)
