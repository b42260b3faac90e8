"""Tokenizes its corpus when no tokens are there yet, then launches
pretraining: a set-up step of the trainer's own in the launch script."""
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks import pretrain_lm, tokenize_corpus

data = Path("workspace/tokens-that-are-not-there")
if not any(data.glob("*.bin")):
    prep = tokenize_corpus.TokenizeCorpusCfg()
    prep.output_path = data
    tokenize_corpus.launch(prep)

cfg = pretrain_lm.PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.training.dataset = data
cfg.distributed.pipeline_parallel_size = 4
cfg.distributed.expert_parallel_size = 8

if __name__ == "__main__":
    pretrain_lm.launch(cfg)
