"""The parallel degrees come from importing a helper module beside the
script, whose import sets them on the config it builds."""
from pathlib import Path

from cluster_defaults import cfg
from pithtrain.modules.training import make_muon_optimizer
from pithtrain.tasks.pretrain_lm import launch

training = cfg.training
training.model = Path("models/qwen3-30b-a3b.json")
training.optimizer = make_muon_optimizer
training.micro_batch_size = 1
training.global_batch_size = 1024
training.sequence_length = 4096

if __name__ == "__main__":
    launch(cfg)
