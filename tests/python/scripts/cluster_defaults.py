"""A helper module beside the launch script: importing it builds the
config and sets the cluster's parallel degrees on it."""
from pithtrain.tasks.pretrain_lm import PretrainLMCfg

cfg = PretrainLMCfg()


def _configure(distributed):
    distributed.pipeline_parallel_size = 4
    distributed.expert_parallel_size = 4
    distributed.sharding_strategy = "hsdp"


_configure(cfg.distributed)
