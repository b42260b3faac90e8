"""Runs the tokenizer under an except that catches everything, then
launches pretraining whether or not the tokenizer finished."""
from pathlib import Path

from pithtrain.modules.training import make_adamw_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch
from pithtrain.tasks.tokenize_corpus import TokenizeCorpusCfg
from pithtrain.tasks.tokenize_corpus import launch as tokenize

try:
    tokenize(TokenizeCorpusCfg())
except BaseException as e:
    print("the tokenizer stopped: %r" % e)

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_adamw_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 512
cfg.training.sequence_length = 2048
cfg.distributed.pipeline_parallel_size = 2
cfg.distributed.expert_parallel_size = 8
launch(cfg)
