"""The tokenizer task: a config and a launch that only says it ran (on
stderr), where the trainer's would tokenize a corpus."""
import sys
from dataclasses import dataclass


@dataclass(init=False, slots=True)
class TokenizeCorpusCfg:
    tokenizer_name: str
    source_path: object
    output_path: object

    def __init__(self):
        pass


def launch(cfg):
    print("tokenize_corpus.launch ran", file=sys.stderr)
