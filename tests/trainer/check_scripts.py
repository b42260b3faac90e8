#!/usr/bin/env python3
"""Python's own reading of the launch-script fixtures beside memest's.

Each script under tests/trainer/checkout is run by Python, as torchrun
runs it (from the trainer's root, __name__ == "__main__", its folder and
the benchmark setup.py's on sys.path), against stand-in pithtrain modules
built from the look-alike configs of gen_trainer_files.py: launch(cfg)
captures the config. memest --script --json reads the same script; every
memory input must agree.

    python3 tests/trainer/check_scripts.py path/to/memest
"""
import contextlib
import io
import json
import os
import runpy
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "checkout")
sys.path.insert(0, HERE)
import gen_trainer_files as g  # noqa: E402

SCRIPTS = [
    ("examples/pretrain_lm/tiny/script.py", []),
    ("benchmarks/pretraining/tiny/h100-2n8g/pp2-dp2-cp1-ep4-seq2048-bf16.py", []),
]


def stub_modules(captured):
    """The trainer's package as the scripts import it."""
    def launch(cfg):
        captured.append(cfg)

    class TokenizeCorpusCfg:
        pass

    mods = {}
    for name in ["pithtrain", "pithtrain.modules", "pithtrain.modules.logging", "pithtrain.modules.training",
                 "pithtrain.tasks", "pithtrain.tasks.pretrain_lm", "pithtrain.tasks.tokenize_corpus"]:
        mods[name] = types.ModuleType(name)
    mods["pithtrain.modules.logging"].LoggingWandbCfg = g.LoggingWandbCfg
    t = mods["pithtrain.modules.training"]
    for f in (g.make_muon_optimizer, g.make_adamw_optimizer, g.make_wsd_scheduler, g.make_constant_scheduler):
        setattr(t, f.__name__, f)
    p = mods["pithtrain.tasks.pretrain_lm"]
    p.PretrainLMCfg, p.launch = g.PretrainLMCfg, launch
    mods["pithtrain.tasks.tokenize_corpus"].TokenizeCorpusCfg = TokenizeCorpusCfg
    mods["pithtrain.tasks.tokenize_corpus"].launch = launch
    mods["pithtrain.tasks"].pretrain_lm = p
    mods["pithtrain.tasks"].tokenize_corpus = mods["pithtrain.tasks.tokenize_corpus"]
    return mods


def python_inputs(script):
    captured = []
    saved_modules, saved_path, saved_cwd = dict(sys.modules), list(sys.path), os.getcwd()
    sys.modules.update(stub_modules(captured))
    sys.modules.pop("setup", None)
    folder = os.path.dirname(os.path.join(ROOT, script))
    sys.path[:0] = [folder, os.path.dirname(folder)]
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(os.path.join(ROOT, script), run_name="__main__")
    finally:
        os.chdir(saved_cwd)
        sys.path[:] = saved_path
        sys.modules.clear()
        sys.modules.update(saved_modules)
    cfg = captured[-1]
    d, t = cfg.distributed, cfg.training
    opt = t.optimizer.func if hasattr(t.optimizer, "func") else t.optimizer
    return {
        "pp_size": str(d.pipeline_parallel_size), "ep_size": str(d.expert_parallel_size),
        "cp_size": str(d.context_parallel_size), "sharding": d.sharding_strategy,
        "micro_batch_size": str(t.micro_batch_size), "global_batch_size": str(t.global_batch_size),
        "sequence_length": str(t.sequence_length), "model": str(t.model),
        "optimizer": {"make_muon_optimizer": "muon", "make_adamw_optimizer": "adamw"}[opt.__name__],
        "fp8_training": "deep-gemm" if t.fp8 else "disabled",
        "routing": "balanced" if t.benchmark else "measured",
    }


def memest_inputs(memest, script, extra):
    r = subprocess.run([memest, "--script", script, "--json", "--total-gpus", "16", "--gpu", "h100"] + extra,
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("memest --script %s failed (%d): %s" % (script, r.returncode, r.stderr or r.stdout))
    values = json.loads(r.stdout)["source"]["values"]
    return {k: v["value"] for k, v in values.items()}


def main():
    memest = os.path.abspath(sys.argv[1])
    bad = 0
    for script, extra in SCRIPTS:
        want, got = python_inputs(script), memest_inputs(memest, script, extra)
        for key, value in want.items():
            if got.get(key) != value:
                print("%s: %s is %r in memest, %r in Python" % (script, key, got.get(key), value))
                bad += 1
        print("%s: %d inputs as Python reads them" % (script, len(want)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
