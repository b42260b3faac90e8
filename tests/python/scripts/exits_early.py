"""Exits (status 0) before it reaches launch(), as a dry-run flag would."""
import sys
from pathlib import Path

from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
if "--launch" not in sys.argv:
    sys.exit(0)

if __name__ == "__main__":
    launch(cfg)
