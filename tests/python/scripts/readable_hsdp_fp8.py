"""Every memory field written as a literal, in the trainer's example form:
HSDP, context parallelism, FP8, a partial optimizer, benchmark routing."""
from functools import partial
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer, make_wsd_scheduler
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()

distributed = cfg.distributed
distributed.pipeline_parallel_size = 4
distributed.expert_parallel_size = 4
distributed.context_parallel_size = 2
distributed.sharding_strategy = "hsdp"

training = cfg.training
training.model = Path("models/qwen3-30b-a3b.json")
training.optimizer = partial(make_muon_optimizer, weight_decay=0.01)
training.scheduler = make_wsd_scheduler
training.micro_batch_size = 1
training.global_batch_size = 512
training.sequence_length = 8192
training.fp8 = True
training.benchmark = True

if __name__ == "__main__":
    launch(cfg)
