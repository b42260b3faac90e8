"""The config built and launched inside main(), with its own arguments."""
import argparse
from pathlib import Path

from pithtrain.modules.training import make_adamw_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch


def build(seq):
    cfg = PretrainLMCfg()
    cfg.training.model = Path("models/qwen3-30b-a3b.json")
    cfg.training.optimizer = make_adamw_optimizer
    cfg.training.micro_batch_size = 1
    cfg.training.global_batch_size = 1024
    cfg.training.sequence_length = seq
    cfg.distributed.pipeline_parallel_size = 4
    cfg.distributed.expert_parallel_size = 8
    return cfg


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seq", type=int, default=4096)
    cfg = build(parser.parse_args().seq)
    try:
        launch(cfg)
    except Exception as e:   # the script's own handler: logs and gives up
        print("launch failed:", e)
        raise


if __name__ == "__main__":
    main()
