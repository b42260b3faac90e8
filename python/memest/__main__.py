"""python -m memest: the memest command, and launch scripts run by Python.

    python -m memest [plan|compare] SCRIPT.py [memest flags] [-- script arguments]
    python -m memest ARGS...            the memest command itself (memest --help)

With a script, it is run as torchrun runs its first process (RANK and
LOCAL_RANK 0, WORLD_SIZE the --total-gpus given, where not set), with the
trainer's launch()
replaced by one that captures the config it is given, and that config is
estimated (flags given win over its fields). It executes the script, as
`python SCRIPT.py` would, up to its launch() call. The exit status is the
command's: 0 done, 1 bad input or a script that launches nothing, 2 missing
inputs, 3 refused by --require."""
import json
import os
import sys

from . import _cfg, _native, _script

SUBCOMMANDS = ("plan", "compare", "check")


def _script_of(args):
    """(subcommand, script, memest flags, script arguments) or None."""
    sub = args[0] if args and args[0] in SUBCOMMANDS else None
    rest = args[1:] if sub else args
    if not rest or rest[0].startswith("-") or not rest[0].endswith(".py"):
        return None
    flags, script_args = rest[1:], []
    if "--" in flags:
        k = flags.index("--")
        flags, script_args = flags[:k], flags[k + 1:]
    return sub, rest[0], flags, script_args


def _total_gpus(flags):
    """--total-gpus N among the flags, or None."""
    for i, f in enumerate(flags):
        text = f[len("--total-gpus="):] if f.startswith("--total-gpus=") else (
            flags[i + 1] if f == "--total-gpus" and i + 1 < len(flags) else None)
        if text is not None and text.isdigit() and int(text) > 0:
            return int(text)
    return None


def _emit(rc, out, err):
    sys.stdout.write(out)
    sys.stdout.flush()
    sys.stderr.write(err)
    sys.stderr.flush()
    return rc


def main(args):
    parsed = _script_of(args)
    if parsed is None:
        return _emit(*_native.command(["memest"] + args))
    sub, script, flags, script_args = parsed
    prog = "memest" + (" " + sub if sub else "")
    try:
        cfg, file, line, workdir = _script.run(script, script_args, _total_gpus(flags))
    except _script.ScriptError as e:
        if "--json" in flags:   # as the command gives an error with --json
            error = {"code": e.code, "message": str(e), "field": "script", "fix": "",
                     "reason": "none"}
            sys.stdout.write(json.dumps({"error": error}, separators=(",", ":")) + "\n")
        else:
            sys.stderr.write("%s: error: %s\n" % (prog, e))
        return 1
    label = os.path.relpath(file) if os.path.isabs(file) and not os.path.relpath(file).startswith("..") else file
    with _cfg.read(cfg, label, line) as run:
        argv = ["memest"] + ([sub] if sub else []) + flags
        moved = os.path.realpath(workdir) != os.path.realpath(os.getcwd())
        return _emit(*_native.command(argv, run.ptr, script, workdir if moved else None))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
