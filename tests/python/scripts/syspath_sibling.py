"""A module of a sibling folder, imported after a sys.path edit."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "shared"))

from layouts import EXPERT, PIPELINE, SEQUENCE  # noqa: E402
from pithtrain.modules.training import make_muon_optimizer  # noqa: E402
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch  # noqa: E402

cfg = PretrainLMCfg()
cfg.distributed.pipeline_parallel_size = PIPELINE
cfg.distributed.expert_parallel_size = EXPERT
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = SEQUENCE

if __name__ == "__main__":
    launch(cfg)
