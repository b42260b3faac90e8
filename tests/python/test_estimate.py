"""memest.estimate, plan, compare and check give the CLI's --json answer for
the same inputs, parsed (dict equality); bad inputs raise InputError with
the fields of the CLI's --json error object."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest
import warnings

import support

memest = None
_cwd = None


def setUpModule():
    global memest, _cwd
    memest = support.load()
    _cwd = os.getcwd()
    os.chdir(support.ROOT)   # relative paths read as the CLI, run from the root, reads them


def tearDownModule():
    if _cwd:
        os.chdir(_cwd)


# Layouts every preset is estimated in: pp, ep, cp, the micro-batch, the GPU
# (by name and by capacity), the optimizer, the sharding, FP8, the routing
# forms, the time model's inputs and one pipeline rank. The cp=2 one is
# refused for the families without context parallelism (an error, compared
# as one).
LAYOUTS = [
    dict(pp_size=2, ep_size=8, cp_size=1, total_gpus=32, micro_batch_size=1, global_batch_size=512,
         sequence_length=4096, gpu="h100"),
    dict(pp_size=4, ep_size=4, cp_size=2, total_gpus=32, micro_batch_size=1, global_batch_size=256,
         sequence_length=8192, gpu="h200", optimizer="muon", sharding="hsdp"),
    dict(pp_size=2, ep_size=2, cp_size=1, total_gpus=16, micro_batch_size=2, global_batch_size=1024,
         sequence_length=2048, gpu="b200", routing="balanced", fp8_training="deep-gemm"),
    dict(pp_size=1, ep_size=8, cp_size=1, total_gpus=64, micro_batch_size=1, global_batch_size=512,
         sequence_length=4096, gpu_memory_gb=80, routing="factor", routing_factor=1.5, fragmentation=0.15,
         pp_rank=0),
    dict(pp_size=3, ep_size=4, cp_size=1, total_gpus=24, micro_batch_size=1, global_batch_size=96,
         sequence_length=4096, gpu="a100-80", ep_imbalance=1.1, optimizer="muon", nvlink_gb_per_s=300,
         network_gbit_per_s=200, efficiency="layer_us=40"),
]

QWEN = dict(model="qwen3-30b-a3b", pp_size=4, ep_size=8, cp_size=1, total_gpus=32, micro_batch_size=1,
            global_batch_size=1024, sequence_length=4096, gpu="h100")


def presets():
    rc, j = support.cli_json(["--list-models"])
    assert rc == 0, j
    return [m["name"] for m in j["models"]]


class EstimateEqualsCli(unittest.TestCase):
    def same(self, **inputs):
        """estimate(**inputs) against memest --json with the same inputs;
        the CLI's answer (or None for an error, compared as InputError)."""
        rc, want = support.cli_json(support.flags(inputs))
        if "error" in want:
            with self.assertRaises(memest.InputError) as cm:
                memest.estimate(**inputs)
            self.assertEqual(support.error_fields(cm.exception, want["error"]), want["error"])
            return None
        self.assertEqual(rc, 0)
        got = memest.estimate(**inputs)
        self.assertIsInstance(got, dict)
        self.assertEqual(got, want)
        return want

    def test_every_preset_in_every_layout(self):
        names = presets()
        self.assertGreaterEqual(len(names), 8)
        statuses = set()
        for name in names:
            answered = 0
            for i, layout in enumerate(LAYOUTS):
                with self.subTest(model=name, layout=i):
                    want = self.same(model=name, **layout)
                    if want is not None:
                        answered += 1
                        statuses.add(want["status"])
            self.assertGreaterEqual(answered, 4, name)   # only the cp=2 layout may be refused
        self.assertEqual(statuses, {"OK", "TIGHT", "OOM"})

    def test_verdicts(self):
        for gb, status in ((None, "OK"), (64, "TIGHT"), (40, "OOM")):
            inputs = dict(QWEN)
            if gb is not None:
                del inputs["gpu"]
                inputs["gpu_memory_gb"] = gb
            with self.subTest(status=status):
                self.assertEqual(self.same(**inputs)["status"], status)

    def test_detail_and_timeline(self):
        want = self.same(**QWEN, detail=True, timeline=True, timeline_limit=40)
        plain = memest.estimate(**QWEN)
        self.assertNotEqual(want, plain)   # the flags reached the core
        self.assertEqual(want["peak_bytes"], plain["peak_bytes"])

    def test_model_as_a_path(self):
        path = pathlib.Path(support.ROOT, "presets", "mixtral-8x7b.json")
        inputs = dict(QWEN, model=path, ep_size=8)
        want = self.same(**inputs)
        self.assertEqual(want["model_source"]["kind"], "file")
        self.assertEqual(memest.estimate(**dict(inputs, model=str(path))), want)

    def test_none_leaves_an_input_out(self):
        self.assertEqual(memest.estimate(**QWEN, optimizer=None, routing_factor=None), memest.estimate(**QWEN))

    def test_value_forms(self):
        # False leaves a switch off, floats and ints as Python writes them, a path with
        # the characters a flag's syntax uses (',', '=', ' ', a leading '-') or non-ASCII
        self.assertEqual(memest.estimate(**QWEN, detail=False, timeline=False), memest.estimate(**QWEN))
        self.same(**dict(QWEN, fragmentation=1e-05, routing="factor", routing_factor=2))
        self.same(**dict(QWEN, gpu=None, gpu_memory_gb=80.0))
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            for name in ("a,b", "x=y", "sp ace", "-dash", "\u00e9"):
                folder = os.path.join(tmp, name)
                os.mkdir(folder)
                shutil.copy(os.path.join(support.ROOT, "presets", "mixtral-8x7b.json"),
                            os.path.join(folder, "config.json"))
                for model in (pathlib.Path(folder, "config.json"), pathlib.Path(folder)):
                    with self.subTest(model=model):
                        rc, want = support.cli_json(support.flags(dict(QWEN, model=None)) + ["--model", str(model)])
                        self.assertEqual(rc, 0, want)
                        self.assertEqual(want["model_source"]["kind"], "file")
                        self.assertEqual(memest.estimate(**dict(QWEN, model=model)), want)

    def test_nul_in_a_value_is_refused(self):
        # no command line can hold a NUL: the text after it must not be dropped silently
        for change in (dict(model="qwen3-30b-a3b\x00junk"), dict(gpu="h100\x00zz"), dict(optimizer="muon\x00x")):
            with self.subTest(change=change):
                with self.assertRaises(ValueError):
                    memest.estimate(**dict(QWEN, **change))

    def test_require_keyword(self):
        oom = dict(QWEN, gpu="a100-40", require="fits")
        rc, want = support.cli_json(support.flags(oom))
        self.assertEqual((rc, want["status"]), (3, "OOM"))
        with self.assertRaises(memest.DoesNotFit) as cm:
            memest.estimate(**oom)
        self.assertEqual(cm.exception.result, want)
        self.assertEqual(cm.exception.verdict, "OOM")
        self.assertEqual(memest.estimate(**dict(QWEN, require="ok")), support.cli_json(support.flags(QWEN))[1])

    def test_command(self):
        for args in (["--list-models"], ["--version"], support.flags(QWEN), ["plan", "--help"], ["--bogus"],
                     support.flags(dict(QWEN, pp_size=None)), support.flags(QWEN) + ["--json", "--detail"]):
            with self.subTest(args=args[:3]):
                r = support.cli(args)
                self.assertEqual(memest.command(*args), (r.returncode, r.stdout, r.stderr))

    def test_stderr_lines_are_warnings(self):
        # a preset name that is also a folder here: the command warns on stderr
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            os.mkdir(os.path.join(tmp, QWEN["model"]))
            r = support.cli(support.flags(QWEN) + ["--json"], cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("warning", r.stderr)
            os.chdir(tmp)
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    got = memest.estimate(**QWEN)
            finally:
                os.chdir(support.ROOT)
        self.assertEqual(got, json.loads(r.stdout))
        self.assertEqual([(w.category, str(w.message)) for w in caught],
                         [(memest.MemestWarning, line) for line in r.stderr.splitlines()])
        self.assertTrue(issubclass(memest.MemestWarning, UserWarning))

    def test_memory_is_given_back(self):
        # each call frees what the core allocated: 3,000 calls (answers and errors)
        # leave the process's resident memory within 2 MiB of where it was
        def rss_kib():
            with open("/proc/self/status") as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

        def calls(n):
            for _ in range(n):
                memest.estimate(**QWEN)
                memest.estimate(**QWEN, detail=True)
                with self.assertRaises(memest.InputError):
                    memest.estimate(**dict(QWEN, pp_size=3))
        calls(100)
        before = rss_kib()
        calls(1000)
        self.assertLess(rss_kib() - before, 2048)

    def test_version(self):
        r = support.cli(["--version"])
        self.assertEqual(r.stdout.split(), ["memest", memest.__version__])
        self.assertRegex(memest.__version__, r"^\d+\.\d+\.\d+$")


class SweepsAndChecksEqualCli(unittest.TestCase):
    def same(self, func, command, **inputs):
        rc, want = support.cli_json([command] + support.flags(inputs))
        self.assertEqual(rc, 0, want)
        self.assertNotIn("error", want)
        got = func(**inputs)
        self.assertEqual(got, want)
        return want

    def test_plan_layouts(self):
        want = self.same(memest.plan, "plan", model="qwen3-30b-a3b", gpu="h100", global_batch_size=1024,
                         sequence_length=4096, total_gpus=32, micro_batch_size=[1, 2], ep_size=(4, 8))
        self.assertGreater(len(want["rows"]), 1)

    def test_plan_vary(self):
        want = self.same(memest.plan, "plan", model="qwen3-30b-a3b", gpu="h100", global_batch_size=1024,
                         sequence_length=4096, nodes=4, gpus_per_node=8, vary="pp", ep_size=8, cp_size=1,
                         micro_batch_size=1, min_routing_margin=1.3, objective="headroom", top=5)
        self.assertEqual(want["mode"], "vary")

    def test_compare(self):
        want = self.same(memest.compare, "compare", model="qwen3-30b-a3b", gpu="h100", pp_size=4, ep_size=8,
                         cp_size=1, total_gpus=32, micro_batch_size=1, global_batch_size=1024,
                         sequence_length=[4096, 8192], optimizer=["adamw", "muon"])
        self.assertEqual(len(want["rows"]), 2)

    def test_require_on_sweeps(self):
        # no layout fits (plan) or one configuration is OOM (compare): the
        # command exits 3 with its answer and one line on stderr
        for func, command, inputs in (
                (memest.plan, "plan", dict(model="qwen3-235b-a22b", gpu="a100-40", global_batch_size=1024,
                                           sequence_length=4096, total_gpus=8, micro_batch_size=1)),
                (memest.compare, "compare", dict(QWEN, micro_batch_size=[1, 4]))):
            with self.subTest(command):
                r = support.cli([command, "--json", "--require", "fits"] + support.flags(inputs))
                self.assertEqual(r.returncode, 3, r.stderr)
                with self.assertRaises(memest.DoesNotFit) as cm:
                    func(**inputs, require="fits")
                self.assertEqual(cm.exception.result, json.loads(r.stdout))
                self.assertEqual(str(cm.exception), r.stderr.strip())
                self.assertEqual(func(**dict(inputs, require=None)), json.loads(r.stdout))

    def check_same(self, snapshots=(), log=None, wandb=None, **inputs):
        args = ["check"]
        if snapshots:
            args += ["--snapshot"] + [os.fspath(s) for s in snapshots]
        if log:
            args += ["--log", os.fspath(log)]
        if wandb:
            args += ["--wandb", os.fspath(wandb)]
        rc, want = support.cli_json(args + support.flags(inputs))
        self.assertEqual(rc, 0, want)
        got = memest.check(snapshots=snapshots, log=log, wandb=wandb, **inputs)
        self.assertEqual(got, want)
        return want

    def test_check_snapshots_and_log(self):
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            subprocess.run([support.PYTHON, os.path.join(support.ROOT, "tests", "measured", "gen_snapshot.py"), tmp,
                            "--rank-list", "0,9", "--events", "200", "--seed", "3"], check=True,
                           capture_output=True, env=support.clean_env())
            snaps = [os.path.join(tmp, "snapshot-rank00000.pickle"), pathlib.Path(tmp, "snapshot-rank00009.pickle")]
            log = os.path.join(support.ROOT, "tests", "trainer", "logs", "benchmark.log")
            want = self.check_same(snapshots=snaps, log=log, **QWEN)
            self.assertEqual([r["global_rank"] for r in want["ranks"]], [0, 9])
            one = self.check_same(snapshots=[snaps[0]], **QWEN)
            self.assertEqual(memest.check(snapshots=snaps[0], **QWEN), one)   # one path alone

    def test_check_log(self):
        want = self.check_same(log="tests/trainer/logs/benchmark.log", total_gpus=32, gpu="h100",
                               fragmentation=0.2)
        self.assertEqual(want["inputs"]["fragmentation"], 0.2)

    def test_check_wandb(self):
        want = self.check_same(wandb=os.path.join(support.ROOT, "tests", "trainer", "wandb",
                                                  "run-20260723_100000-core"))
        self.assertEqual(want["source"]["kind"], "wandb")


# Bad inputs: each is QWEN changed (a key set to None is left out).
BAD = {
    "unknown flag": dict(bogus=1),
    "pp does not divide the GPUs": dict(pp_size=3),
    "ep does not divide the experts": dict(ep_size=5),
    "missing pp": dict(pp_size=None),
    "missing GPU": dict(gpu=None),
    "bad optimizer": dict(optimizer="sgd"),
    "bad sharding": dict(sharding="zero3"),
    "bad GPU name": dict(gpu="h300"),
    "not a number": dict(pp_size="four"),
    "out of range": dict(fragmentation=-1),
    "model not found": dict(model="no-such-model-here"),
    "factor with imbalance": dict(routing="factor", routing_factor=1.5, ep_imbalance=1.1),
}


class ErrorsEqualCli(unittest.TestCase):
    def same_error(self, func, command, inputs):
        rc, want = support.cli_json(command + support.flags(inputs))
        self.assertIn("error", want, "the CLI accepted %r" % inputs)
        self.assertIn(rc, (1, 2))
        with self.assertRaises(memest.InputError) as cm:
            func(**inputs)
        err = cm.exception
        self.assertEqual(support.error_fields(err, want["error"]), want["error"])
        self.assertEqual(err.exit_status, rc)
        self.assertEqual(rc == 2, err.code == "missing")
        return err

    def test_estimate_errors(self):
        codes = set()
        for what, change in BAD.items():
            inputs = {k: v for k, v in dict(QWEN, **change).items() if v is not None}
            with self.subTest(what):
                codes.add(self.same_error(memest.estimate, [], inputs).code)
        self.assertTrue({"missing", "layout", "unknown", "value"} <= codes, codes)

    def test_missing_is_exit_2(self):
        inputs = dict(QWEN)
        del inputs["sequence_length"]
        err = self.same_error(memest.estimate, [], inputs)
        self.assertEqual(err.code, "missing")
        self.assertEqual(err.field, "sequence_length")
        self.assertEqual(support.cli(support.flags(inputs)).returncode, 2)

    def test_config_not_json(self):
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            path = pathlib.Path(tmp, "config.json")
            path.write_text("not json {\n")
            err = self.same_error(memest.estimate, [], dict(QWEN, model=path))
            self.assertEqual(err.field, "config")

    def test_plan_compare_check_errors(self):
        self.same_error(memest.plan, ["plan"], dict(model="qwen3-30b-a3b", gpu="h100", global_batch_size=1024,
                                                    sequence_length=4096, total_gpus=32, objective="fastest"))
        self.same_error(memest.compare, ["compare"], dict(QWEN, sequence_length=[4096, 8192],
                                                          optimizer=["adamw", "muon", "adamw"]))
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            missing = os.path.join(tmp, "snapshot-rank00000.pickle")
            rc, want = support.cli_json(["check", "--snapshot", missing] + support.flags(QWEN))
            self.assertIn("error", want)
            with self.assertRaises(memest.InputError) as cm:
                memest.check(snapshots=[missing], **QWEN)
            self.assertEqual(support.error_fields(cm.exception, want["error"]), want["error"])

    def test_input_error_is_an_exception_with_its_message(self):
        with self.assertRaises(memest.InputError) as cm:
            memest.estimate(**dict(QWEN, optimizer="sgd"))
        self.assertIsInstance(cm.exception, Exception)
        self.assertIn("sgd", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
