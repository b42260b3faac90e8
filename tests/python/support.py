"""What the tests of the memest Python package share: where the build is,
the package imported from it, the CLI run as a process, keyword inputs
written as the CLI's flags, and the stand-in trainer run as torchrun runs a
launch script (the oracle of what a script launches).

The build is MEMEST_BUILD (a folder, relative to the repository root unless
absolute; default build). A test module calls load() in setUpModule: it
skips the module, saying why, only when the package is not built there.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True   # nothing written beside the fixtures

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, os.environ.get("MEMEST_BUILD") or "build")
PACKAGE_PARENT = os.path.join(BUILD, "python")
PACKAGE = os.path.join(PACKAGE_PARENT, "memest")
CLI = os.path.join(BUILD, "memest")
STUB = os.path.join(ROOT, "tests", "trainer", "differential", "stub")
SCRIPTS = os.path.join(HERE, "scripts")
PYTHON = sys.executable
TIMEOUT = 120


def not_built():
    """Why the package cannot be tested from BUILD, or None."""
    if not os.path.isfile(os.path.join(PACKAGE, "__init__.py")):
        return ("the memest Python package is not built: no %s/__init__.py "
                "(build it with cmake --build %s, or set MEMEST_BUILD)" % (PACKAGE, BUILD))
    if not os.access(CLI, os.X_OK):
        return "the memest CLI is not built: no %s (set MEMEST_BUILD)" % CLI
    return None


def load():
    """The memest package of BUILD, imported; SkipTest when it is not built."""
    why = not_built()
    if why:
        raise unittest.SkipTest(why)
    if PACKAGE_PARENT not in sys.path:
        sys.path.insert(0, PACKAGE_PARENT)
    import memest
    got = os.path.realpath(memest.__file__)
    if not got.startswith(os.path.realpath(PACKAGE) + os.sep):
        raise AssertionError("imported memest from %s, not from %s" % (got, PACKAGE))
    return memest


def clean_env(**extra):
    """The environment of a child process: no Python or memest settings of
    the caller's, the hub offline, no bytecode written; extra added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MEMEST_", "HF_"))}
    env.update(HF_HUB_OFFLINE="1", HF_ENDPOINT="http://127.0.0.1:9", PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


def flags(inputs):
    """Keyword inputs as the CLI's flags: name_x=v is --name-x=v, True is
    the flag alone, a list or tuple a comma list, None left out."""
    out = []
    for name, v in inputs.items():
        if v is None:
            continue
        flag = "--" + name.replace("_", "-")
        if v is True:
            out.append(flag)
            continue
        if isinstance(v, (list, tuple)):
            v = ",".join(str(x) for x in v)
        elif isinstance(v, os.PathLike):
            v = os.fspath(v)
        out.append("%s=%s" % (flag, v))
    return out


def cli(args, cwd=ROOT, env=None):
    """The CLI run with args: the finished process (text)."""
    return subprocess.run([CLI] + list(args), cwd=cwd, env=env or clean_env(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=TIMEOUT)


def cli_json(args, cwd=ROOT, env=None):
    """The CLI's exit status and its --json output, parsed."""
    r = cli(list(args) + ["--json"], cwd=cwd, env=env)
    try:
        return r.returncode, json.loads(r.stdout)
    except ValueError:
        raise AssertionError("memest %s: exit %d, not JSON: %r %r" % (" ".join(args), r.returncode,
                                                                      r.stdout[:300], r.stderr[:300]))


def error_fields(err, want=None):
    """An InputError's fields, as the CLI's {"error": {...}} names them:
    code, message, field, fix, reason, and any other key want has (a
    config's line and column), None where the error lacks it."""
    keys = ["code", "message", "field", "fix", "reason"]
    keys += [k for k in (want or {}) if k not in keys]
    return {k: getattr(err, k, None) for k in keys}


def run_module(args, cwd=ROOT, trainer=True, pythonpath=(), **extra_env):
    """python -m memest ARGS with the package of BUILD, the pythonpath
    folders and (with trainer) the stand-in pithtrain importable: the
    finished process (text)."""
    path = [PACKAGE_PARENT] + list(pythonpath) + ([STUB] if trainer else [])
    env = clean_env(PYTHONPATH=os.pathsep.join(path), **extra_env)
    return subprocess.run([PYTHON, "-m", "memest"] + list(args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=TIMEOUT)


def run_plain(script, args=(), cwd=None, **extra_env):
    """The oracle: `python3 SCRIPT ARGS` from cwd (default: the script's
    folder) with the stand-in trainer importable, as torchrun runs it. The
    memory inputs its launch() was given (one dict per call), the process."""
    cwd = cwd or os.path.dirname(os.path.abspath(script))
    with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
        cap = os.path.join(tmp, "capture.jsonl")
        env = clean_env(PYTHONPATH=STUB, MEMEST_DIFF_CAPTURE=cap, **extra_env)
        r = subprocess.run([PYTHON, script] + list(args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=TIMEOUT)
        calls = []
        if os.path.exists(cap):
            with open(cap, encoding="utf-8") as f:
                calls = [json.loads(line) for line in f if line.strip()]
    return calls, r


# The memory inputs the stand-in trainer's launch() writes, each as a string.
LAUNCH_KEYS = ("pp_size", "ep_size", "cp_size", "sharding", "micro_batch_size", "global_batch_size",
               "sequence_length", "optimizer", "fp8_training", "routing")


def launched_inputs(result, cwd):
    """An estimate's inputs in the stand-in trainer's form: each launch
    input as a string, the model as file:REALPATH (from cwd) or hub:ID
    (the id the config gave, where memest took a preset for it)."""
    inputs = result["inputs"]
    got = {k: str(inputs[k]) for k in LAUNCH_KEYS}
    ms = result["model_source"]
    if ms["kind"] == "file":
        full = os.path.join(cwd, ms["path"])
        if os.path.isdir(full):
            full = os.path.join(full, "config.json")
        got["model"] = "file:" + os.path.realpath(full)
    else:   # a hub id as the config names it (a preset's id is one too)
        values = (result.get("source") or {}).get("values") or {}
        named = values.get("model", {}).get("value") or inputs["model"]
        got["model"] = "hub:" + named if "/" in named else "%s:%s" % (ms["kind"], ms.get("preset") or named)
    return got
