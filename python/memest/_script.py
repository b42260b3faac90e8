"""A launch script run as torchrun runs it, with the trainer's launch()
replaced: the script runs as __main__ with its folder first on sys.path and
its own arguments in sys.argv, every import and statement as Python runs
them, until it calls launch(cfg); the config object it hands over is
captured there and the script stops. The trainer's other tasks (tokenize
a corpus, convert a checkpoint) are not run: the script stops at their
launch() and is refused there. Its prints go to stderr, so that stdout
holds memest's report alone."""
import contextlib
import importlib.abc
import os
import runpy
import sys
import sysconfig
import traceback

TRAINER_TASK = "pithtrain.tasks.pretrain_lm"
TASKS = "pithtrain.tasks."   # the trainer's tasks: pithtrain.tasks.NAME, each with its launch()


class ScriptError(Exception):
    """The script did not hand a config to launch(); the message says why,
    code is the command's error code for it ("io", "unsupported", "value")."""

    def __init__(self, message, code="value"):
        super().__init__(message)
        self.code = code


class _Launched(BaseException):
    """Raised by the stand-in launch() to stop the script there (a
    BaseException, so that the script's own `except Exception` passes it)."""


class _OtherTask(BaseException):
    """Raised in place of another task's launch()."""


def _other_task(script, stop):
    """The refusal of a script that called another task's launch() at stop
    (task, file, line), whatever the script did after it."""
    task, file, line = stop
    return ScriptError(
        "%s calls %s.launch at %s:%d, a task of the trainer other than pretraining: python -m "
        "memest stops the script there rather than run it. Run that step first (python runs it) "
        "so that the script skips it, or give memest a script that only launches pretraining "
        "(%s.launch(cfg))" % (script, task, file, line, TRAINER_TASK), "unsupported")


_HERE = os.path.dirname(os.path.abspath(__file__))


def _ours(filename):
    """Whether a frame is memest's or runpy's, not the script's."""
    return (os.path.abspath(filename).startswith(_HERE + os.sep) or filename == "<frozen runpy>"
            or os.path.basename(filename) == "runpy.py")


def _script_tb(tb):
    """The traceback from the script's first frame on."""
    while tb is not None and _ours(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"])


def _library(filename):
    """Whether a frame is Python's own (the standard library, a frozen module)."""
    return filename.startswith("<frozen") or os.path.realpath(filename).startswith(_STDLIB + os.sep)


def _where(tb, script):
    """The innermost frame of a traceback in the script's own files (else in
    any file not memest's): "file:line"."""
    frames = [f for f in traceback.extract_tb(tb) if not _ours(f.filename)]
    own = [f for f in frames if not _library(f.filename)]
    frames = own or frames
    if not frames:
        return script
    return "%s:%d" % (frames[-1].filename, frames[-1].lineno)


def _trainer_missing(e, script):
    """The refusal of a script whose import of the trainer failed."""
    if e.name and (e.name == "pithtrain" or e.name.startswith("pithtrain.")):
        return ScriptError(
            "the trainer is not installed in this Python (%s): no module %s (at %s). python -m "
            "memest runs %s with the trainer's launch() replaced, so the trainer and its "
            "dependencies must import here (pip install -e TRAINER_CHECKOUT in the trainer's "
            "environment); to read the script without running it, use memest --script %s"
            % (sys.executable, e.name, _where(e.__traceback__, script), script, script),
            "unsupported")
    if any("pithtrain" in f.filename for f in traceback.extract_tb(e.__traceback__)):
        return ScriptError(
            "importing the trainer failed: %s: %s (at %s); python -m memest needs the trainer's "
            "own dependencies; memest --script %s reads the script without them"
            % (type(e).__name__, e, _where(e.__traceback__, script), script), "unsupported")
    return None


def _is_task(name):
    """Whether a module name is one of the trainer's tasks (pithtrain.tasks.NAME)."""
    return name.startswith(TASKS) and "." not in name[len(TASKS):]


class _TaskLoader(importlib.abc.Loader):
    """The loader that would have loaded a task module, which then patches
    it; anything else asked of it (resources, source) is the inner one's."""

    def __init__(self, inner, hook):
        self.inner = inner
        self.hook = hook

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        self.hook.patch(module)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class _LaunchPatch(importlib.abc.MetaPathFinder):
    """Puts stand-ins for launch() into the trainer's task modules when the
    script imports them, wherever the script finds the trainer (an installed
    package, or a checkout it puts on sys.path itself): each module runs as
    it would, then its launch is replaced before `from ... import launch`
    takes it. Pretraining's captures its config; any other task's stops
    the script before the task runs, and the stop is kept even if the
    script catches it."""

    def __init__(self, launch):
        self.launch = launch
        self.patched = []    # (module, its own launch)
        self.stopped = []    # (task, file, line) of each other task's launch() called

    def find_spec(self, name, path=None, target=None):
        if not _is_task(name):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _TaskLoader(spec.loader, self)
                return spec
        return None

    def patch(self, module):
        if not callable(getattr(module, "launch", None)):
            return
        self.patched.append((module, module.launch))
        if module.__name__ == TRAINER_TASK:
            module.launch = self.launch
            return
        task = module.__name__

        def other(*args, **kwargs):
            frame = sys._getframe(1)
            self.stopped.append((task, frame.f_code.co_filename, frame.f_lineno))
            raise _OtherTask()
        module.launch = other

    def restore(self):
        for module, real in self.patched:
            module.launch = real


def _torchrun_env(total_gpus):
    """What torchrun sets for its first process that is not set already:
    rank 0 of WORLD_SIZE = total_gpus (only when the GPU count is given)."""
    env = {"RANK": "0", "LOCAL_RANK": "0", "GROUP_RANK": "0", "ROLE_RANK": "0"}
    if total_gpus is not None:
        env["WORLD_SIZE"] = str(total_gpus)
        env["LOCAL_WORLD_SIZE"] = str(min(total_gpus, 8))
    return {k: v for k, v in env.items() if k not in os.environ}


def run(script, args=(), total_gpus=None):
    """Runs the script; returns (cfg, file, line, workdir): the object launch()
    got, where launch() was called, and the working folder then (the
    script may have moved: the trainer reads relative paths from there).
    The script sees torchrun's variables for rank 0 where they are not set
    (RANK, LOCAL_RANK; WORLD_SIZE when total_gpus is given). This process's
    working folder, environment, sys.argv and sys.path are restored.
    Raises ScriptError when the trainer is not importable, or the script
    fails, exits or ends before launch()."""
    if not os.path.isfile(script):
        raise ScriptError("%s is not a file; give the launch script's path" % script, "io")
    folder = os.path.dirname(os.path.realpath(script))
    saved_argv, saved_path, saved_cwd = sys.argv[:], sys.path[:], os.getcwd()
    added = _torchrun_env(total_gpus)
    os.environ.update(added)
    sys.argv = [script] + list(args)
    if sys.path and sys.path[0] in ("", os.getcwd()):
        sys.path[0] = folder     # what `python SCRIPT.py` puts first, in place of -m's folder
    else:
        sys.path.insert(0, folder)
    captured = []

    def launch(cfg):
        frame = sys._getframe(1)
        captured.append((cfg, frame.f_code.co_filename, frame.f_lineno, os.getcwd()))
        raise _Launched()

    hook = _LaunchPatch(launch)
    for name in [n for n in sys.modules if _is_task(n)]:   # imported before the script runs
        hook.patch(sys.modules[name])
    sys.meta_path.insert(0, hook)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            runpy.run_path(script, run_name="__main__")
    except _Launched:
        pass
    except SystemExit as e:
        if hook.stopped:
            raise _other_task(script, hook.stopped[0]) from None
        if not captured:
            raise ScriptError("%s exited (SystemExit: %r) at %s before it called launch(cfg)"
                              % (script, e.code, _where(e.__traceback__, script))) from None
    except BaseException as e:   # the script's own error, as Python would show it
        if hook.stopped:
            raise _other_task(script, hook.stopped[0]) from None
        if not captured:
            missing = _trainer_missing(e, script) if isinstance(e, ModuleNotFoundError) else None
            if missing is not None:
                raise missing from None
            traceback.print_exception(type(e), e, _script_tb(e.__traceback__), file=sys.stderr)
            hint = ""
            if isinstance(e, KeyError) and e.args and e.args[0] in ("WORLD_SIZE", "LOCAL_WORLD_SIZE"):
                hint = "; give --total-gpus N, which python -m memest hands the script as " \
                       "WORLD_SIZE, as torchrun does"
            raise ScriptError("%s raised %s: %s at %s before it called launch(cfg)%s"
                              % (script, type(e).__name__, e, _where(e.__traceback__, script),
                                 hint)) from None
    finally:
        sys.meta_path.remove(hook)
        hook.restore()
        sys.argv, sys.path[:] = saved_argv, saved_path
        os.chdir(saved_cwd)
        for k in added:
            os.environ.pop(k, None)
    if hook.stopped:   # the script caught the stop and went on
        raise _other_task(script, hook.stopped[0])
    if not captured:
        raise ScriptError("%s ran to its end without calling launch(cfg) (%s.launch), so it "
                          "launches no run; memest estimates the config a script launches"
                          % (script, TRAINER_TASK))
    return captured[0]
