"""python -m memest runs a launch script as torchrun does, up to launch(),
and estimates the config launch() is given: for scripts the C reader
refuses (values Python computes), the inputs equal those the stand-in
trainer's launch() records on a plain run of the same script.

The fixtures are in scripts/, in the trainer's form; they run from that
folder, whose models/ holds their model config."""
import json
import os
import unittest

import support

GPUS = ["--total-gpus", "32", "--gpu", "h100"]
S = support.SCRIPTS

# (script, its own arguments, environment, how the C reader takes it, the
# working folder it runs from)
CASES = [
    ("walrus.py", [], {}, "refuses", S),
    ("setattr_loop.py", [], {}, "refuses", S),
    ("imported_side_effects.py", [], {}, "refuses", S),
    ("syspath_sibling.py", [], {}, "refuses", S),
    ("computed.py", [], {}, "refuses", S),
    ("computed.py", [], {"MEMEST_TEST_EP": "4"}, "refuses", S),
    ("argparse_args.py", ["--pp", "4"], {}, "refuses", S),
    ("argparse_args.py", ["--mbs", "2", "--ep", "4"], {}, "refuses", S),
    ("module_alias.py", [], {}, "refuses", S),
    ("main_guard.py", [], {}, "refuses", S),
    ("main_function.py", ["--seq", "2048"], {}, "refuses", S),
    ("file_after_chdir.py", [], {}, "refuses", S),
    # run from the repository's root: it moves to its own folder before it launches
    (os.path.relpath(os.path.join(S, "chdir_file_relative.py"), support.ROOT), [], {}, "refuses", support.ROOT),
    # launch(cfg=other): the C reader follows the keyword to the second config too.
    ("launch_other.py", [], {}, "agrees", S),
]


def setUpModule():
    support.load()


def oracle(script, args=(), cwd=S, **env):
    """What a plain run of the script (its path as given, from cwd)
    launches (one launch() call)."""
    calls, r = support.run_plain(script, args, cwd=cwd, **env)
    assert r.returncode == 0, "%s: python exit %d: %s" % (script, r.returncode, r.stderr[-500:])
    assert len(calls) == 1, "%s: %d launch() calls" % (script, len(calls))
    return calls[0]


def c_reader(script, sub=(), more=(), cwd=S, **env):
    """memest [plan] --script SCRIPT --json: (exit status, answer)."""
    return support.cli_json(list(sub) + ["--script", script] + GPUS + list(more), cwd=cwd,
                            env=support.clean_env(PYTHONPATH=support.STUB, **env))


def without_inputs_block(text):
    """A text report less its block of where each input came from (the
    lines name the script's lines or the launch() call)."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Inputs from "))
    end = next(i for i, l in enumerate(lines) if l.startswith("Regime: "))
    return lines[:start] + lines[end + 1:]


def line_of(script, text):
    with open(os.path.join(S, script), encoding="utf-8") as f:
        return next(n for n, l in enumerate(f, 1) if text in l)


class RunsWhatPythonRuns(unittest.TestCase):
    def run_json(self, script, args=(), flags=GPUS, env=None, sub=(), cwd=S):
        r = support.run_module(list(sub) + [script, "--json"] + list(flags) + (["--"] + list(args) if args else []),
                               cwd=cwd, **(env or {}))
        self.assertEqual(r.returncode, 0, r.stderr[-800:] + r.stdout[-800:])
        return json.loads(r.stdout)

    def test_a_trainer_the_script_puts_on_its_path(self):
        # No trainer importable before the script runs: the script's own
        # sys.path edit finds it, and its launch is the one replaced.
        r = support.run_module(["trainer_on_path.py", "--json"] + GPUS, cwd=S, trainer=False)
        self.assertEqual(r.returncode, 0, r.stderr[-800:])
        got = json.loads(r.stdout)["inputs"]
        want = oracle("trainer_on_path.py")
        for key in ("pp_size", "ep_size", "micro_batch_size", "global_batch_size", "sequence_length"):
            self.assertEqual(str(got[key]), want[key], key)
        self.assertEqual(got["optimizer"], want["optimizer"])

    def test_each_script_as_python_launches_it(self):
        for script, args, env, c_way, cwd in CASES:
            with self.subTest(script=script, args=args, env=env):
                want = oracle(script, args, cwd, **env)
                rc, cj = c_reader(script, cwd=cwd, **env)
                if c_way == "refuses":
                    refused = "error" in cj or cj["source"].get("refused")
                    self.assertTrue(refused, "the C reader read %s: %s" % (script, cj.get("source")))
                else:
                    self.assertEqual(rc, 0, cj)
                    self.assertEqual(support.launched_inputs(cj, cwd), want)
                got = self.run_json(script, args, env=env, cwd=cwd)
                self.assertEqual(got["source"]["kind"], "cfg")
                # the report's model path names the file from where python -m memest ran
                self.assertEqual(support.launched_inputs(got, cwd), want)
                self.assertEqual({k: v["value"] for k, v in got["source"]["values"].items() if k != "model"},
                                 {k: want[k] for k in got["source"]["values"] if k != "model"})
                # the same figures as the CLI given those inputs as flags
                inputs = {k: got["inputs"][k] for k in support.LAUNCH_KEYS + ("model", "total_gpus", "gpu")}
                rc, flat = support.cli_json(support.flags(inputs), cwd=cwd)
                self.assertEqual(rc, 0, flat)
                for key in ("status", "peak_bytes", "tensor_peak_bytes", "worst_rank", "ranks", "time"):
                    self.assertEqual(got[key], flat[key], key)

    def test_env_and_arguments_reach_the_script(self):
        # the cases above differ where the script reads its environment and arguments
        self.assertEqual(self.run_json("computed.py")["inputs"]["ep_size"], 8)
        self.assertEqual(self.run_json("computed.py", env={"MEMEST_TEST_EP": "4"})["inputs"]["ep_size"], 4)
        self.assertEqual(self.run_json("argparse_args.py")["inputs"]["pp_size"], 2)
        self.assertEqual(self.run_json("argparse_args.py", ["--pp", "4"])["inputs"]["pp_size"], 4)

    def test_flags_win_over_the_config(self):
        got = self.run_json("walrus.py", flags=GPUS + ["--micro-batch-size", "1"])
        self.assertEqual(got["inputs"]["micro_batch_size"], 1)
        self.assertTrue(got["source"]["values"]["micro_batch_size"]["overridden"])

    def test_text_report_is_the_cli_report(self):
        r = support.run_module(["launch_other.py"] + GPUS, cwd=S)
        self.assertEqual(r.returncode, 0, r.stderr)
        c = support.cli(["--script", "launch_other.py"] + GPUS, cwd=S, env=support.clean_env(PYTHONPATH=support.STUB))
        self.assertEqual(c.returncode, 0, c.stderr)
        self.assertIn("Inputs from the config object handed over at launch_other.py:%d"
                      % line_of("launch_other.py", "launch(cfg=other)"), r.stdout)
        self.assertEqual(without_inputs_block(r.stdout), without_inputs_block(c.stdout))

    def test_plan_and_compare_of_a_script(self):
        for sub, more in (("plan", []), ("compare", ["--sequence-length", "2048,4096"])):
            with self.subTest(sub):
                got = self.run_json("launch_other.py", sub=[sub], flags=GPUS + more)
                rc, want = c_reader("launch_other.py", sub=[sub], more=more)
                self.assertEqual(rc, 0, want)
                self.assertEqual(got, want)
        got = self.run_json("walrus.py", sub=["plan"], flags=GPUS + ["--vary", "mbs"])
        self.assertEqual(got["mode"], "vary")
        self.assertEqual(got["inputs"]["optimizer"], "muon")

    def test_exit_status_missing_and_required(self):
        r = support.run_module(["launch_other.py", "--json", "--gpu", "h100"], cwd=S)
        self.assertEqual(r.returncode, 2, r.stderr)
        err = json.loads(r.stdout)["error"]
        self.assertEqual((err["code"], err["field"]), ("missing", "total_gpus"))
        rc, cerr = support.cli_json(["--script", "launch_other.py", "--gpu", "h100"], cwd=S,
                                    env=support.clean_env(PYTHONPATH=support.STUB))
        self.assertEqual((rc, cerr), (2, json.loads(r.stdout)))
        # walrus.py launches micro-batch 2, OOM on an H100
        r = support.run_module(["walrus.py", "--require", "fits"] + GPUS, cwd=S)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("OOM", r.stdout)
        r = support.run_module(["walrus.py", "--require", "fits", "--micro-batch-size", "1"] + GPUS, cwd=S)
        self.assertEqual(r.returncode, 0, r.stderr)

    def refusal(self, script, args=(), script_args=(), **kw):
        """python -m memest SCRIPT's refusal, as text and as --json: the
        message (the same in both) and the text run's stderr. Either way
        exit 1 and no report."""
        tail = ["--"] + list(script_args) if script_args else []
        text = support.run_module([script] + GPUS + list(args) + tail, cwd=S, **kw)
        self.assertEqual((text.returncode, text.stdout), (1, ""), text.stderr)
        js = support.run_module([script, "--json"] + GPUS + list(args) + tail, cwd=S, **kw)
        self.assertEqual(js.returncode, 1, js.stderr)
        err = json.loads(js.stdout)["error"]
        self.assertTrue(set(err) >= {"code", "message", "field", "fix", "reason"}, err)
        self.assertIn(err["message"], text.stderr)
        return err["message"], text.stderr

    def test_a_script_that_raises(self):
        calls, plain = support.run_plain(os.path.join(S, "raises.py"), cwd=S)
        self.assertEqual((plain.returncode, calls), (1, []))
        message, stderr = self.refusal("raises.py")
        where = "raises.py:%d" % line_of("raises.py", "raise RuntimeError")
        self.assertIn(where, message)
        self.assertIn("RuntimeError", message)
        self.assertIn("the cluster file is missing", message)
        # the script's own traceback first, starting at the script
        self.assertIn('File "raises.py", line %s' % where.split(":")[1], stderr)
        self.assertIn("RuntimeError: the cluster file is missing", stderr)
        self.assertNotIn("runpy", stderr)
        self.assertNotIn("_script.py", stderr)

    def test_a_script_that_exits_before_launch(self):
        calls, plain = support.run_plain(os.path.join(S, "exits_early.py"), cwd=S)
        self.assertEqual((plain.returncode, calls), (0, []))
        message, _ = self.refusal("exits_early.py")
        self.assertIn("exits_early.py:%d" % line_of("exits_early.py", "sys.exit(0)"), message)
        self.assertIn("before it called launch(cfg)", message)
        # an argparse refusal of the script's own arguments is an exit too
        message, stderr = self.refusal("argparse_args.py", script_args=["--pp", "four"])
        self.assertIn("invalid int value: 'four'", stderr)
        self.assertIn("argparse_args.py", message)

    def test_a_script_that_never_launches(self):
        calls, plain = support.run_plain(os.path.join(S, "no_launch.py"), cwd=S)
        self.assertEqual((plain.returncode, calls), (0, []))
        message, stderr = self.refusal("no_launch.py")
        self.assertIn("no_launch.py", message)
        self.assertIn("without calling launch(cfg)", message)
        self.assertNotIn("Traceback", stderr)

    def test_another_task_of_the_trainer_is_not_run(self):
        # Python runs the tokenizer, then pretraining; python -m memest stops
        # at the tokenizer's launch() and names its line, running neither.
        calls, plain = support.run_plain(os.path.join(S, "setup_task.py"), cwd=S)
        self.assertEqual((plain.returncode, len(calls)), (0, 1), plain.stderr)
        self.assertIn("tokenize_corpus.launch ran", plain.stderr)
        message, stderr = self.refusal("setup_task.py")
        where = "setup_task.py:%d" % line_of("setup_task.py", "tokenize_corpus.launch(prep)")
        self.assertIn("calls pithtrain.tasks.tokenize_corpus.launch at %s" % where, message)
        self.assertIn("Run that step first", message)
        self.assertIn("pithtrain.tasks.pretrain_lm.launch(cfg)", message)
        self.assertNotIn("tokenize_corpus.launch ran", stderr)
        # A script that catches the stop and goes on to launch is refused all the same.
        calls, plain = support.run_plain(os.path.join(S, "setup_task_caught.py"), cwd=S)
        self.assertEqual((plain.returncode, len(calls)), (0, 1), plain.stderr)
        self.assertIn("tokenize_corpus.launch ran", plain.stderr)
        message, stderr = self.refusal("setup_task_caught.py")
        where = "setup_task_caught.py:%d" % line_of("setup_task_caught.py", "tokenize(TokenizeCorpusCfg())")
        self.assertIn("calls pithtrain.tasks.tokenize_corpus.launch at %s" % where, message)
        self.assertIn("the tokenizer stopped", stderr)
        self.assertNotIn("tokenize_corpus.launch ran", stderr)

    def test_without_the_trainer(self):
        message, _ = self.refusal("walrus.py", trainer=False)
        self.assertIn("the trainer is not installed", message)
        self.assertIn("memest --script walrus.py", message)


class IsTheCli(unittest.TestCase):
    def test_without_a_script(self):
        inputs = ["--model", "qwen3-30b-a3b", "--pp-size", "4", "--ep-size", "8", "--cp-size", "1",
                  "--micro-batch-size", "1", "--global-batch-size", "1024", "--sequence-length", "4096"] + GPUS
        for args in (inputs + ["--json"], inputs, ["--version"], ["plan", "--help"], inputs[2:] + ["--json"],
                     ["--bogus"]):
            with self.subTest(args=args):
                r = support.run_module(args)
                c = support.cli(args)
                self.assertEqual((r.returncode, r.stdout, r.stderr), (c.returncode, c.stdout, c.stderr))
        self.assertEqual(support.run_module(inputs[2:] + ["--json"]).returncode, 2)
        self.assertRegex(support.run_module(["--version"]).stdout, r"^memest \d+\.\d+\.\d+\n$")


if __name__ == "__main__":
    unittest.main()
