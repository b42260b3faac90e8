#!/usr/bin/env python3
"""
Prepare the tokenizer and the dataset, as the trainer's benchmark setup.py
does in __main__ blocks that an import of this module never runs.
"""

from pathlib import Path

from pithtrain.tasks import tokenize_corpus
from pithtrain.tasks.tokenize_corpus import TokenizeCorpusCfg

if __name__ == "__main__":
    Path("workspace").resolve().mkdir(parents=True, exist_ok=True)

if __name__ == "__main__":
    kwargs = dict()
    kwargs["repo_id"] = "example/dataset"
    kwargs["allow_patterns"] = [f"shard_{i:04d}.jsonl" for i in range(8)]

if __name__ == "__main__":
    cfg = TokenizeCorpusCfg()
    cfg.output_path = Path("workspace/datasets/tiny")
    n = sum(1 for _ in cfg.output_path.rglob("*.bin"))
    if n < 8 or any(cfg.output_path.rglob("*.lock")):
        tokenize_corpus.launch(cfg)

from pithtrain.modules.training import make_constant_scheduler, make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg

cfg = PretrainLMCfg()
training = cfg.training
training.model = Path("models/tiny-moe.json")
training.optimizer = make_muon_optimizer
training.scheduler = make_constant_scheduler
training.lr = 1.0e-6
training.max_steps = 25
training.dataset = Path("workspace/datasets/tiny")
training.moe_load_balance_type = "global-batch"
training.moe_load_balance_coef = 1e-3
training.benchmark = True
