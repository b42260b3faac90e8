from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
distributed = cfg.distributed
for pp in (2, 4):
    distributed.pipeline_parallel_size = pp
distributed.expert_parallel_size = 8
training = cfg.training
training.model = Path("examples/pretrain_lm/qwen3-30b-a3b/config.json")
training.optimizer = make_muon_optimizer
training.micro_batch_size = 1
training.global_batch_size = 1024
training.sequence_length = 4096

if __name__ == "__main__":
    launch(cfg)
