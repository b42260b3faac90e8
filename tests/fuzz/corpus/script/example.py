"""Pretrain a tiny MoE on one node.

Written in the trainer's example form, with the lexical corners Python
allows: memest must read it as Python does. (A line of "quotes" and
cfg.training.micro_batch_size = 99 here is text, not code.)
"""

from functools import partial
from pathlib import Path

from pithtrain.modules.logging import LoggingWandbCfg
from pithtrain.modules.training import make_adamw_optimizer, make_wsd_scheduler
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()

distributed = cfg.distributed
distributed.context_parallel_size = 1; distributed.pipeline_parallel_size = 2  # two on one line
distributed.expert_parallel_size = (
    4  # a value spread over lines, with a comment inside the brackets
)
distributed.sharding_strategy = r"hsdp"

training = cfg.training
training.model = Path("models") / 'tiny-moe.json'
training.optimizer = partial(make_adamw_optimizer,
                             weight_decay=0.05)
kwargs = dict(start_lr=1.0e-5, warmup_ratio=0.03, final_lr=1.0e-5)
training.scheduler = partial(make_wsd_scheduler, **kwargs)
training.lr = 1.0e-5 if True else 2e-5   # an expression on a field that changes no memory
seq = 0x800
training.sequence_length = seq
training.micro_batch_size = 1
training.global_batch_size = 1_024
training.dataset = Path(f"workspace/datasets/{'tiny'}")
training.save_location = Path("workspace/checkpoints/tiny")
training.moe_load_balance_type = \
    "global-batch"
training.fp8: bool = False
note = '''a triple-quoted string with "quotes", a # hash and
training.global_batch_size = 7 inside it'''

logging = cfg.logging
logging.wandb = LoggingWandbCfg()
logging.wandb.entity = u"pithtrain"
logging.wandb.name = "tiny\t\u00e9\N{BULLET}"

for k in ("a", "b"):   # a loop that sets no memory field
    print(k)


def describe(c):
    """A function memest does not run."""
    local = c.training
    return local


if __name__ == "__main__":
    launch(cfg)
