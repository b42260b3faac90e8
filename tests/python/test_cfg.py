"""memest.from_cfg over the config objects launch scripts build equals
`memest --script` where the C reader reads the script: the same inputs,
values and trainer fields, peak and verdict (the source kind is "cfg"
against "script", and the places differ: the launch() call against each
field's line). memest.require gates a config by its verdict; and
trainer_fields is the core's table.

The configs are built here, in this process: each script runs as torchrun
runs it (as __main__ from its working folder, its own folder first on
sys.path) with the stand-in trainer, whose launch() is replaced by one that
keeps the config and stops the script."""
import contextlib
import importlib
import io
import json
import os
import runpy
import shutil
import sys
import tempfile
import types
import unittest

import support

memest = None
CHECKOUT = os.path.join(support.ROOT, "tests", "trainer", "checkout")
BENCH = os.path.join(CHECKOUT, "benchmarks", "pretraining", "tiny")

# (working folder, script from there, PYTHONPATH entries besides the trainer, GPUs)
SCRIPTS = [
    (CHECKOUT, "examples/pretrain_lm/tiny/script.py", [], 8),
    (support.SCRIPTS, "readable_hsdp_fp8.py", [], 32),
    (support.SCRIPTS, "readable_hub.py", [], 32),
    (support.SCRIPTS, "launch_other.py", [], 32),
] + [(CHECKOUT, os.path.relpath(os.path.join(BENCH, "h100-2n8g", name), CHECKOUT), [BENCH], 16)
     for name in sorted(os.listdir(os.path.join(BENCH, "h100-2n8g"))) if name.endswith(".py")]


def setUpModule():
    global memest
    memest = support.load()
    sys.path.append(support.STUB)   # the stand-in trainer, after the standard library as when installed


def tearDownModule():
    if support.STUB in sys.path:
        sys.path.remove(support.STUB)


class _Launched(BaseException):
    pass


@contextlib.contextmanager
def working_folder(cwd):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(old)


def launched_cfg(cwd, script, pythonpath=(), args=()):
    """The config object the script hands to launch(), from a run in cwd.
    The modules the script imports are forgotten afterwards, so each run
    builds its own config (the benchmarks share a setup module)."""
    task = importlib.import_module("pithtrain.tasks.pretrain_lm")
    real, got = task.launch, []

    def launch(cfg):
        got.append(cfg)
        raise _Launched()

    saved_argv, saved_path, saved_modules = sys.argv[:], sys.path[:], set(sys.modules)
    task.launch = launch
    try:
        with working_folder(cwd):
            sys.argv = [script] + list(args)
            sys.path[:0] = [os.path.dirname(os.path.abspath(script))] + list(pythonpath)
            try:
                with contextlib.redirect_stdout(io.StringIO()):   # the scripts' prints
                    runpy.run_path(script, run_name="__main__")
            except _Launched:
                pass
    finally:
        task.launch = real
        sys.argv, sys.path[:] = saved_argv, saved_path
        for name in set(sys.modules) - saved_modules:
            if not name.startswith("pithtrain"):
                del sys.modules[name]
    assert len(got) == 1, "%s called launch() %d times" % (script, len(got))
    return got[0]


def c_reading(cwd, script, pythonpath, gpus, *more):
    env = support.clean_env(PYTHONPATH=os.pathsep.join(list(pythonpath) + [support.STUB]))
    return support.cli_json(["--script", script, "--total-gpus", str(gpus), "--gpu", "h100"] + list(more),
                            cwd=cwd, env=env)


def values_and_fields(result):
    """Each input read from a trainer field: (value, field, overridden).
    (A benchmark folder's name, h100-2n8g, gives inputs too, in the C
    reader's answer only: a config object has no folder.)"""
    return {k: (v["value"], v["field"], v["overridden"]) for k, v in result["source"]["values"].items()
            if v["field"]}


class FromCfgEqualsScript(unittest.TestCase):
    def test_every_script_the_c_reader_reads(self):
        self.assertGreaterEqual(len(SCRIPTS), 5)
        for cwd, script, pythonpath, gpus in SCRIPTS:
            with self.subTest(script=script):
                rc, want = c_reading(cwd, script, pythonpath, gpus)
                self.assertEqual(rc, 0, want)
                self.assertFalse(want["source"].get("refused"), want["source"].get("refused"))
                cfg = launched_cfg(cwd, script, pythonpath)
                with working_folder(cwd):
                    got = memest.from_cfg(cfg, total_gpus=gpus, gpu="h100")
                self.assertEqual((want["source"]["kind"], got["source"]["kind"]), ("script", "cfg"))
                self.assertEqual(got["inputs"], want["inputs"])
                self.assertEqual(got["model_source"], want["model_source"])
                for key in ("status", "peak_bytes", "tensor_peak_bytes", "headroom_bytes", "worst_rank", "ranks",
                            "components_ranked", "time", "suggestions"):
                    self.assertEqual(got[key], want[key], key)
                self.assertEqual(values_and_fields(got), values_and_fields(want))
                self.assertEqual(set(got["source"]["read"]), set(want["source"]["read"]))
                self.assertEqual(got["source"]["regime"]["name"], want["source"]["regime"]["name"])

    def test_python_m_memest_reads_them_as_the_c_reader(self):
        for cwd, script, pythonpath, gpus in SCRIPTS:
            with self.subTest(script=script):
                rc, want = c_reading(cwd, script, pythonpath, gpus)
                r = support.run_module([script, "--json", "--total-gpus", str(gpus), "--gpu", "h100"], cwd=cwd,
                                       pythonpath=pythonpath)
                self.assertEqual(r.returncode, 0, r.stderr)
                got = json.loads(r.stdout)
                self.assertEqual(got["source"]["kind"], "cfg")
                self.assertEqual(values_and_fields(got), values_and_fields(want))
                self.assertEqual({k: v for k, v in got.items() if k != "source"},
                                 {k: v for k, v in want.items() if k != "source"})

    def test_from_outside_the_checkout(self):
        # the model is found under the trainer's root above the script, by both
        script = os.path.join(CHECKOUT, "examples", "pretrain_lm", "tiny", "script.py")
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            rc, want = c_reading(tmp, script, [], 8)
            self.assertEqual(rc, 0, want)
            r = support.run_module([script, "--json", "--total-gpus", "8", "--gpu", "h100"], cwd=tmp)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = json.loads(r.stdout)
        self.assertEqual(want["source"]["model"]["resolved"], os.path.join(CHECKOUT, "models", "tiny-moe.json"))
        self.assertEqual(got["source"]["model"], want["source"]["model"])
        self.assertEqual({k: v for k, v in got.items() if k != "source"},
                         {k: v for k, v in want.items() if k != "source"})

    def test_a_benchmark_folder_gives_the_gpus(self):
        cwd, script, pythonpath, gpus = SCRIPTS[-1]
        self.assertIn("h100-2n8g", script)
        rc, want = support.cli_json(["--script", script], cwd=cwd, env=support.clean_env(
            PYTHONPATH=os.pathsep.join(pythonpath + [support.STUB])))
        self.assertEqual(rc, 0, want)
        r = support.run_module([script, "--json"], cwd=cwd, pythonpath=pythonpath)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = json.loads(r.stdout)
        self.assertEqual((got["inputs"]["total_gpus"], got["inputs"]["gpu"]), (16, "h100"))
        self.assertEqual({k: v for k, v in got.items() if k != "source"},
                         {k: v for k, v in want.items() if k != "source"})

    def test_the_read_places_name_the_launch_call(self):
        cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        with working_folder(support.SCRIPTS):
            got = memest.from_cfg(cfg, total_gpus=32, gpu="h100")
        line = sys._getframe().f_lineno - 1
        self.assertEqual(got["source"]["values"]["pp_size"]["field"], "distributed.pipeline_parallel_size")
        for key, place in got["source"]["read"].items():
            self.assertTrue(place.endswith(":%d" % line), (key, place))
            self.assertIn("test_cfg.py", place)

    def test_keywords_win_over_fields(self):
        cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        with working_folder(support.SCRIPTS):
            got = memest.from_cfg(cfg, total_gpus=32, gpu="h200", micro_batch_size=2, sequence_length=2048)
            rc, want = c_reading(support.SCRIPTS, "readable_hub.py", [], 32, "--micro-batch-size", "2",
                                 "--sequence-length", "2048")
        self.assertEqual(rc, 0, want)
        self.assertEqual(want["inputs"]["gpu"], "h100")   # c_reading names the H100; the flags below differ
        rc, flat = support.cli_json(support.flags(dict(want["inputs"], gpu="h200", gpu_memory_gb=None,
                                                       routing_factor=None)))
        self.assertEqual(rc, 0, flat)
        self.assertEqual((got["inputs"]["micro_batch_size"], got["inputs"]["sequence_length"]), (2, 2048))
        self.assertTrue(got["source"]["values"]["micro_batch_size"]["overridden"])
        self.assertEqual(got["peak_bytes"], flat["peak_bytes"])
        self.assertEqual(got["gpu_capacity_bytes"], flat["gpu_capacity_bytes"])

    def test_any_object_of_its_shape(self):
        cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        plain = types.SimpleNamespace(
            distributed=types.SimpleNamespace(pipeline_parallel_size=4, expert_parallel_size=8,
                                              context_parallel_size=1, sharding_strategy="fsdp"),
            training=types.SimpleNamespace(model="Qwen/Qwen3-30B-A3B", optimizer="Adam", micro_batch_size=1,
                                           global_batch_size=1024, sequence_length=4096, fp8=False,
                                           benchmark=False),
            logging=types.SimpleNamespace(wandb=None))
        want = memest.from_cfg(cfg, total_gpus=32, gpu="h100")
        got = memest.from_cfg(plain, total_gpus=32, gpu="h100")
        self.assertEqual(got["inputs"], want["inputs"])
        self.assertEqual((got["peak_bytes"], got["status"]), (want["peak_bytes"], want["status"]))
        self.assertEqual(values_and_fields(got), values_and_fields(want))
        with self.assertRaises(TypeError):
            memest.from_cfg(5, total_gpus=32, gpu="h100")

    def test_a_field_never_set(self):
        cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        del cfg.training.micro_batch_size   # a slotted field with no default, as if never set
        with self.assertRaises(memest.InputError) as cm:
            memest.from_cfg(cfg, total_gpus=32, gpu="h100")
        e = cm.exception
        self.assertEqual((e.code, e.field, e.exit_status), ("missing", "micro_batch_size", 2))
        self.assertEqual(memest.from_cfg(cfg, total_gpus=32, gpu="h100", micro_batch_size=1)["inputs"]["micro_batch_size"], 1)

    def test_an_unset_optimizer_is_noted(self):
        # the trainer requires training.optimizer; never set, memest assumes its own
        # default and says so, for a script and for a config object alike
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            shutil.copytree(os.path.join(support.SCRIPTS, "models"), os.path.join(tmp, "models"))
            script = os.path.join(tmp, "no_optimizer.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(FORM.replace("cfg.training.optimizer = make_muon_optimizer\n", "") % "")
            rc, want = c_reading(tmp, script, [], 32)
            self.assertEqual(rc, 0, want)
            self.assertTrue(any("training.optimizer" in n for n in want["source"]["notes"]), want["source"]["notes"])
            cfg = launched_cfg(tmp, script)
            with working_folder(tmp):
                got = memest.from_cfg(cfg, total_gpus=32, gpu="h100")
        self.assertEqual(outcome(got), outcome(want))
        self.assertTrue(any("training.optimizer" in n for n in got["source"]["notes"]), got["source"]["notes"])

    def test_a_config_missing_an_input(self):
        cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        with working_folder(support.SCRIPTS):
            with self.assertRaises(memest.InputError) as cm:
                memest.from_cfg(cfg, gpu="h100")
        self.assertEqual((cm.exception.code, cm.exception.field), ("missing", "total_gpus"))
        cfg.distributed.pipeline_parallel_size = 3   # 32 GPUs are not a multiple of 24
        with working_folder(support.SCRIPTS):
            with self.assertRaises(memest.InputError) as cm:
                memest.from_cfg(cfg, total_gpus=32, gpu="h100")
        self.assertEqual((cm.exception.code, cm.exception.field, cm.exception.fix),
                         ("layout", "total_gpus", "total_gpus=24"))


# A script whose one line differs: each a value of a field the C reader reads
# as a literal. from_cfg takes the value Python built; both readers must give
# the same answer or refuse the same field.
FORM = """from functools import partial
from pathlib import Path

from pithtrain.modules.training import make_adamw_optimizer, make_muon_optimizer
from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch

cfg = PretrainLMCfg()
cfg.training.model = Path("models/qwen3-30b-a3b.json")
cfg.training.optimizer = make_muon_optimizer
cfg.training.micro_batch_size = 1
cfg.training.global_batch_size = 1024
cfg.training.sequence_length = 4096
cfg.distributed.pipeline_parallel_size = 4
cfg.distributed.expert_parallel_size = 8
%s

if __name__ == "__main__":
    launch(cfg)
"""
FORMS = [
    'cfg.distributed.pipeline_parallel_size = "4"',
    "cfg.distributed.pipeline_parallel_size = 4.0",
    "cfg.distributed.pipeline_parallel_size = True",
    "cfg.distributed.pipeline_parallel_size = None",
    "cfg.training.global_batch_size = 1024.0",
    "cfg.training.micro_batch_size = 1.5",
    "cfg.training.micro_batch_size = 0",
    "cfg.training.sequence_length = -1",
    "cfg.training.global_batch_size = 1000000000000000000000000000000",
    'cfg.training.fp8 = "yes"',
    "cfg.training.fp8 = 1",
    "cfg.training.fp8 = True",
    "cfg.training.benchmark = 1",
    "cfg.training.benchmark = True",
    "cfg.training.optimizer = partial(make_adamw_optimizer, weight_decay=0.0)",
    'cfg.training.optimizer = "Muon"',
    'cfg.training.optimizer = "muon"',
    'cfg.training.optimizer = "make_adamw_optimizer"',
    "cfg.training.optimizer = None",
    'cfg.training.model = "models/qwen3-30b-a3b.json"',
    'cfg.training.model = "Qwen/Qwen3-30B-A3B"',
    'cfg.training.model = "qwen3-30b-a3b"',
    "cfg.training.model = None",
    'cfg.training.model = "Qwen/Qwen3-30B-A3B\\x00junk"',
    'cfg.distributed.sharding_strategy = "HSDP"',
    'cfg.distributed.sharding_strategy = "hsdp\\x00x"',
    'cfg.training.optimizer = "Muon\\x00"',
    "cfg.distributed.context_parallel_size = 2",
    "cfg.distributed.timeout = 5",
    'cfg.training.seed = "x"',
    "cfg.logging.wandb = None",
]


def outcome(result):
    """What must agree: an error's code and field, else the inputs, peak and verdict."""
    if "error" in result:
        return ("refused", result["error"]["code"], result["error"]["field"])
    return ("answered", result["inputs"], result["peak_bytes"], result["status"])


class ValueForms(unittest.TestCase):
    def test_value_forms(self):
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            shutil.copytree(os.path.join(support.SCRIPTS, "models"), os.path.join(tmp, "models"))
            answered = 0
            for i, line in enumerate(FORMS):
                script = os.path.join(tmp, "form%02d.py" % i)
                with open(script, "w", encoding="utf-8") as f:
                    f.write(FORM % line)
                with self.subTest(line=line):
                    rc, want = c_reading(tmp, script, [], 32)
                    cfg = launched_cfg(tmp, script)
                    with working_folder(tmp):
                        try:
                            got = memest.from_cfg(cfg, total_gpus=32, gpu="h100")
                        except memest.InputError as e:
                            got = {"error": support.error_fields(e)}
                    self.assertEqual(outcome(got), outcome(want))
                    if "error" not in want:
                        answered += 1
                        calls, plain = support.run_plain(script, cwd=tmp)
                        self.assertEqual(support.launched_inputs(got, tmp), calls[0])
            self.assertGreaterEqual(answered, 8)


class Require(unittest.TestCase):
    def cfg(self):
        return launched_cfg(support.SCRIPTS, "readable_hub.py")

    def estimate(self, **gpu):
        with working_folder(support.SCRIPTS):
            return memest.from_cfg(self.cfg(), total_gpus=32, **gpu)

    def test_ok_passes_both(self):
        want = self.estimate(gpu="h100")
        self.assertEqual(want["status"], "OK")
        with working_folder(support.SCRIPTS):
            for verdict in ("fits", "ok"):
                got = memest.require(self.cfg(), verdict, total_gpus=32, gpu="h100")
                line = sys._getframe().f_lineno - 1
                self.assertEqual(got["peak_bytes"], want["peak_bytes"])
                self.assertEqual(got["status"], "OK")
                self.assertEqual(set(got["source"]["read"].values()), {"%s:%d" % (__file__, line)})

    def test_tight_fits_but_is_not_ok(self):
        want = self.estimate(gpu_memory_gb=64)
        self.assertEqual(want["status"], "TIGHT")
        with working_folder(support.SCRIPTS):
            self.assertEqual(memest.require(self.cfg(), "fits", total_gpus=32, gpu_memory_gb=64)["status"], "TIGHT")
            with self.assertRaises(memest.DoesNotFit) as cm:
                memest.require(self.cfg(), "ok", total_gpus=32, gpu_memory_gb=64)
        e = cm.exception
        self.assertEqual(e.verdict, "TIGHT")
        self.assertEqual(e.result["peak_bytes"], want["peak_bytes"])
        self.assertIn("TIGHT", str(e))

    def test_oom_is_refused_with_its_deficit(self):
        want = self.estimate(gpu="a100-40")
        self.assertEqual(want["status"], "OOM")
        deficit = (want["peak_bytes"] - want["gpu_capacity_bytes"]) / 2 ** 30
        self.assertGreater(deficit, 1)
        for verdict in ("fits", "ok"):
            with working_folder(support.SCRIPTS):
                with self.assertRaises(memest.DoesNotFit) as cm:
                    memest.require(self.cfg(), verdict, total_gpus=32, gpu="a100-40")
            e = cm.exception
            self.assertEqual(e.verdict, "OOM")
            self.assertIsInstance(e.result, dict)
            self.assertEqual(e.result["peak_bytes"], want["peak_bytes"])
            self.assertIn("%.2f GiB" % deficit, str(e))
            self.assertIn("OOM", str(e))

    def test_bad_input_is_an_input_error_not_a_verdict(self):
        with working_folder(support.SCRIPTS):
            with self.assertRaises(memest.InputError):
                memest.require(self.cfg(), "fits", total_gpus=32, gpu="h300")


class FakeTorch(types.ModuleType):
    """A torch module as far as from_cfg asks it: CUDA devices by index."""

    def __init__(self, devices, available=True):
        super().__init__("torch")
        self.asked = []

        def props(i):
            self.asked.append(i)
            name, total = devices[i]
            return types.SimpleNamespace(name=name, total_memory=total)
        self.cuda = types.SimpleNamespace(is_available=lambda: available, get_device_properties=props,
                                          current_device=lambda: 0, device_count=lambda: len(devices))


class InsideTorchrun(unittest.TestCase):
    """Inside torchrun: the GPU count is WORLD_SIZE and the GPU this rank's
    (LOCAL_RANK's device, asked of torch), unless given."""
    GIB = 1 << 30

    def setUp(self):
        self.cfg = launched_cfg(support.SCRIPTS, "readable_hub.py")
        self.saved_env = {k: os.environ.get(k) for k in ("WORLD_SIZE", "LOCAL_RANK")}
        self.saved_torch = sys.modules.get("torch")

    def tearDown(self):
        for k, v in self.saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if self.saved_torch is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = self.saved_torch

    def rank(self, devices, local_rank=3, available=True):
        os.environ.update(WORLD_SIZE="32", LOCAL_RANK=str(local_rank))
        torch = FakeTorch(devices, available)
        sys.modules["torch"] = torch
        return torch

    def test_world_size(self):
        os.environ["WORLD_SIZE"] = "32"
        self.assertEqual(memest.from_cfg(self.cfg, gpu="h100")["inputs"]["total_gpus"], 32)
        self.assertEqual(memest.from_cfg(self.cfg, gpu="h100", total_gpus=64)["inputs"]["total_gpus"], 64)

    @staticmethod
    def capacity(gpu):
        return memest.estimate(model="qwen3-30b-a3b", pp_size=4, ep_size=8, cp_size=1, total_gpus=32,
                               micro_batch_size=1, global_batch_size=1024, sequence_length=4096,
                               gpu=gpu)["gpu_capacity_bytes"]

    def test_the_local_ranks_gpu(self):
        h100 = self.capacity("h100")
        others = ("NVIDIA A100-SXM4-40GB", self.capacity("a100-40"))
        torch = self.rank([others] * 3 + [("NVIDIA H100 80GB HBM3", h100 + (1 << 20))] + [others] * 4)
        got = memest.from_cfg(self.cfg)
        self.assertEqual(torch.asked, [3])
        self.assertEqual((got["inputs"]["gpu"], got["inputs"]["total_gpus"]), ("h100", 32))
        self.assertEqual(got["gpu_capacity_bytes"], h100)
        self.assertEqual(memest.from_cfg(self.cfg, gpu="b200")["inputs"]["gpu"], "b200")   # given wins

    def test_a_preset_by_name_and_capacity(self):
        # what the driver reports differs a little from the preset's figure
        for name, gpu in (("NVIDIA A100-SXM4-80GB", "a100-80"), ("NVIDIA A100-SXM4-40GB", "a100-40"),
                          ("NVIDIA H200", "h200"), ("NVIDIA B200", "b200")):
            with self.subTest(name):
                self.rank([(name, self.capacity(gpu) * 1001 // 1000)], local_rank=0)
                self.assertEqual(memest.from_cfg(self.cfg)["inputs"]["gpu"], gpu)

    def test_another_gpu_by_its_capacity(self):
        self.rank([("NVIDIA L40S", 48 * self.GIB)], local_rank=0)
        got = memest.from_cfg(self.cfg)
        self.assertEqual(got["inputs"]["gpu_memory_gb"], 48)
        self.assertEqual(got["gpu_capacity_bytes"], 48 * self.GIB)

    def test_no_gpu_to_ask(self):
        self.rank([], local_rank=0, available=False)
        with self.assertRaises(memest.InputError) as cm:
            memest.from_cfg(self.cfg)
        self.assertEqual(cm.exception.code, "missing")


class TrainerFields(unittest.TestCase):
    def test_the_core_table(self):
        rows = memest.trainer_fields()
        self.assertIsInstance(rows, list)
        keys = {"section", "name", "input", "conversion", "default", "note", "since", "until"}
        for row in rows:
            self.assertEqual(set(row), keys, row)
        by_field = {(r["section"], r["name"]): r for r in rows}
        self.assertEqual(len(by_field), len(rows))
        # every field the C reader names for an input is in the table, with that input
        rc, want = c_reading(support.SCRIPTS, "readable_hsdp_fp8.py", [], 32)
        self.assertEqual(rc, 0, want)
        for name, v in want["source"]["values"].items():
            section, field = v["field"].split(".")
            self.assertIn((section, field), by_field)
            self.assertEqual(by_field[(section, field)]["input"], name)


if __name__ == "__main__":
    unittest.main()
