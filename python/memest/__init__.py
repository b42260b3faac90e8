"""memest from Python: the peak GPU memory and the step time of a DualPipeV
Mixture-of-Experts training run, from the same C core as the `memest`
command, in this process (ctypes over libmemest.so; docs/python.md).

    import memest
    r = memest.estimate(model="qwen3-30b-a3b", pp_size=4, ep_size=8, cp_size=1,
                        total_gpus=32, micro_batch_size=1, global_batch_size=1024,
                        sequence_length=4096, gpu="h100")
    r["status"], r["peak_bytes"]          # what `memest --json` prints

    memest.require(cfg, "fits")            # before launch(cfg): raises DoesNotFit on OOM

Every call returns what the command prints with --json for the same inputs:
the inputs are its flags in snake_case (pp_size=4 is --pp-size 4; True and
False for --detail and --timeline; a list is a comma list). Bad input raises
InputError with the command's code, message, field and fix."""
import json
import os
import sys
import warnings

from . import _native

__all__ = ["estimate", "plan", "compare", "check", "from_cfg", "require", "trainer_fields",
           "command", "InputError", "DoesNotFit", "MemestError", "MemestWarning", "__version__"]

__version__ = _native.version()


class MemestError(Exception):
    """What memest could not do (the base of its other errors)."""


class InputError(MemestError, ValueError):
    """Input memest refuses, as the command's --json error object says it:
    code ("missing", "value", "layout", ...), message (the problem and the
    fix), field (the input), fix (a nearer valid input, "name=value"), reason
    (for layout and range problems), line and column (a config's JSON), and
    the exit status the command would have given (2 for missing inputs, else 1)."""

    def __init__(self, error, exit_status=1):
        self.code = error.get("code", "")
        self.message = error.get("message", "")
        self.field = error.get("field", "")
        self.fix = error.get("fix", "")
        self.reason = error.get("reason", "none")
        self.line = error.get("line", 0)
        self.column = error.get("column", 0)
        self.exit_status = exit_status
        self.error = error
        text = self.message + (" (a valid choice: %s)" % self.fix if self.fix else "")
        super().__init__(text)


class DoesNotFit(MemestError):
    """The verdict is worse than required: result is the estimate (a dict,
    as from estimate()), verdict its status ("OOM" or "TIGHT"), and the
    message says by how much and what would fit."""

    def __init__(self, result, required, summary):
        self.result = result
        self.required = required
        self.verdict = result.get("status") if isinstance(result, dict) else None
        super().__init__(summary)


class MemestWarning(UserWarning):
    """A warning the command writes on stderr beside its answer."""


def _text(name, value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value) if isinstance(os.fspath(value), str) else os.fsdecode(value)
    raise TypeError("memest: %s=%r: give a str, int, float, bool or path" % (name, value))


def _flags(inputs):
    """The command's flags for keyword inputs: name=value as --name-with-dashes=value."""
    args = []
    for name, value in inputs.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            text = ",".join(_text(name, v) for v in value)
        else:
            text = _text(name, value)
        if "\0" in text or "\0" in name:
            raise InputError({"code": "value", "field": name, "fix": "", "reason": "none",
                              "message": "%s=%r holds a NUL character, which no input memest "
                                         "reads can hold; remove it" % (name, value)})
        args.append("--%s=%s" % (name.replace("_", "-"), text))
    return args


def _warn(err_text, skip=()):
    for line in err_text.splitlines():
        if line.strip() and not any(line.startswith(s) for s in skip):
            warnings.warn(line, MemestWarning, stacklevel=4)


def _answer(rc, out, err):
    """The command's JSON answer, or its refusal raised."""
    if rc == 0:
        _warn(err)
        return json.loads(out)
    try:
        answer = json.loads(out)
    except ValueError:
        raise MemestError(err.strip() or "memest exited with status %d" % rc) from None
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        raise InputError(answer["error"], rc)
    if rc == 3:
        return answer   # the --require gate: the caller raises DoesNotFit
    raise MemestError(err.strip() or "memest exited with status %d" % rc)


def _call(sub, inputs, run=None):
    argv = ["memest"] + ([sub] if sub else []) + ["--json"] + _flags(inputs)
    return _native.command(argv, run)


def command(*args, run=None, script=None):
    """Runs the memest command with these arguments in this process, as the
    program would: (exit status, stdout text, stderr text)."""
    return _native.command(["memest"] + [os.fspath(a) for a in args], run, script)


def estimate(**inputs):
    """The estimate of one run: the dict `memest --json` prints."""
    return _gate(*_call(None, inputs), inputs.get("require"))


def plan(**inputs):
    """A sweep of layouts (or vary=INPUT: its values): `memest plan --json`."""
    return _gate(*_call("plan", inputs), inputs.get("require"))


def compare(**inputs):
    """Configurations side by side (comma lists): `memest compare --json`."""
    return _gate(*_call("compare", inputs), inputs.get("require"))


def check(snapshots=(), log=None, wandb=None, **inputs):
    """The trainer's measured memory and step time beside the estimate:
    `memest check --json --snapshot ... --log LOG --wandb DIR`."""
    argv = ["memest", "check", "--json"]
    if isinstance(snapshots, (str, os.PathLike)):
        snapshots = [snapshots]
    snapshots = [os.fspath(s) for s in snapshots]
    if snapshots:
        argv += ["--snapshot"] + snapshots
    inputs = dict(inputs, log=log, wandb=wandb)
    return _gate(*_native.command(argv + _flags(inputs)), inputs.get("require"))


def _summary(result, required):
    gib = 1 << 30
    inputs = result.get("inputs", {})
    layout = "pp %s x ep %s x cp %s on %s GPUs, micro-batch %s, global batch %s, sequence %s" % (
        inputs.get("pp_size"), inputs.get("ep_size"), inputs.get("cp_size"),
        inputs.get("total_gpus"), inputs.get("micro_batch_size"),
        inputs.get("global_batch_size"), inputs.get("sequence_length"))
    peak, cap = result.get("peak_bytes", 0), result.get("gpu_capacity_bytes", 0)
    head = result.get("headroom_bytes", 0)
    text = "memest: the estimate is %s, and require %r accepts %s: %s needs %.2f GiB on " \
           "pipeline rank %s of a %.2f GiB GPU" % (
               result.get("status"), required, "OK only" if required == "ok" else "OK or TIGHT",
               inputs.get("model"), peak / gib, result.get("worst_rank"), cap / gib)
    if head < 0:
        text += ", %.2f GiB short" % (-head / gib)
    else:
        text += ", %.2f GiB (%.1f%%) of headroom, under the %d%% that OK needs" % (
            head / gib, 100 * head / cap if cap else 0, _native.TIGHT_PERCENT)
    text += " (%s)" % layout
    nearest = result.get("nearest_layout") or {}
    passing = ("OK",) if required == "ok" else ("OK", "TIGHT")
    fits = [s for s in result.get("suggestions", []) if s.get("status") in passing]
    if fits:
        text += "; %s from %s to %s gives %.2f GiB (%s)" % (
            fits[0]["knob"], fits[0]["from"], fits[0]["to"], fits[0]["peak_bytes"] / gib,
            fits[0]["status"])
    elif nearest.get("found"):
        text += "; the nearest layout that is OK: %s (%.2f GiB)" % (
            nearest.get("fix"), nearest.get("peak_bytes", 0) / gib)
    return text


def _gate(rc, out, err, required):
    if rc == 3 and required is not None:
        answer = _answer(rc, out, "")
        _warn(err, skip=("memest",))
        summary = _summary(answer, required) if "peak_bytes" in answer else err.strip()
        raise DoesNotFit(answer, required, summary)
    return _answer(rc, out, err)


def _caller(depth):
    frame = sys._getframe(depth + 1)
    return frame.f_code.co_filename, frame.f_lineno


def _process_defaults(inputs):
    """Inside the trainer's processes: the GPU count torchrun gives
    (WORLD_SIZE) and, when torch is imported, this rank's GPU (LOCAL_RANK, the
    device the trainer takes): its preset when one has its name and capacity,
    else its capacity."""
    inputs = dict(inputs)
    given = lambda *names: any(inputs.get(n) is not None for n in names)
    if not given("total_gpus", "nodes", "dp") and os.environ.get("WORLD_SIZE", "").isdigit():
        inputs["total_gpus"] = int(os.environ["WORLD_SIZE"])
    torch = sys.modules.get("torch")
    local = os.environ.get("LOCAL_RANK", "")
    if not given("gpu", "gpu_memory_gb") and torch is not None and local.isdigit():
        try:
            if torch.cuda.is_available():
                # The device the trainer sets for this rank (LOCAL_RANK), so that
                # no other device gets a context from this process.
                props = torch.cuda.get_device_properties(int(local))
                name, total = props.name.upper(), int(props.total_memory)
                for preset, size in _native.gpu_presets():
                    if preset.split("-")[0].upper() in name and abs(size - total) <= size // 50:
                        inputs["gpu"] = preset
                        break
                else:
                    inputs["gpu_memory_gb"] = total / (1 << 30)
        except Exception:   # no GPU to ask: the inputs stay as given
            pass
    return inputs


def _estimate_cfg(cfg, inputs, where):
    from . import _cfg   # dataclasses and inspect load only when a config object is read
    with _cfg.read(cfg, where[0], where[1]) as run:
        return _call(None, inputs, run=run.ptr)


def from_cfg(cfg, *, total_gpus=None, gpu=None, **inputs):
    """The estimate of a live config object (the trainer's PretrainLMCfg):
    each field goes through the core's table of the trainer's fields, and
    result["source"] (kind "cfg") says which field gave each input. Flags
    given here win over the object's fields. Inside torchrun, total_gpus
    defaults to WORLD_SIZE and the GPU to the one torch sees."""
    inputs = _process_defaults(dict(inputs, total_gpus=total_gpus, gpu=gpu))
    return _gate(*_estimate_cfg(cfg, inputs, _caller(1)), inputs.get("require"))


def require(cfg, verdict="fits", **inputs):
    """from_cfg(cfg, **inputs), raising DoesNotFit when its verdict is OOM
    ("fits") or TIGHT or OOM ("ok"); returns the estimate otherwise. One
    line before launch(cfg) gates the launch."""
    if verdict not in ("fits", "ok"):
        raise ValueError("memest.require: verdict %r is not 'fits' or 'ok'" % (verdict,))
    inputs = _process_defaults(dict(inputs, require=verdict))
    return _gate(*_estimate_cfg(cfg, inputs, _caller(1)), verdict)


def trainer_fields():
    """The trainer's config fields memest knows, as the core's table has them:
    [{section, name, input, conversion, default, note, since, until}]."""
    return _native.trainer_fields()
