"""Parallel degrees from the command line (argparse over sys.argv)."""
import argparse
from pathlib import Path

from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

parser = argparse.ArgumentParser()
parser.add_argument("--pp", type=int, default=2)
parser.add_argument("--ep", type=int, default=8)
parser.add_argument("--mbs", type=int, default=1)
args = parser.parse_args()

cfg = PretrainLMCfg()
cfg.distributed.pipeline_parallel_size = args.pp
cfg.distributed.expert_parallel_size = args.ep
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = args.mbs
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096

if __name__ == "__main__":
    launch(cfg)
