"""The model named by its hub id, the optimizer by the older schema's
string, the sharding and context parallelism left at their defaults."""
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = "Qwen/Qwen3-30B-A3B"
cfg.training.optimizer = "Adam"
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 4
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    launch(cfg)
