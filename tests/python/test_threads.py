"""Estimates run from 8 threads at once give the answers of the same
estimates run one at a time (no state shared between calls), hub downloads
into one empty cache included."""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

import support
import test_cfg

memest = None


def setUpModule():
    global memest
    memest = support.load()


BASE = dict(cp_size=1, total_gpus=32, micro_batch_size=1, global_batch_size=1024, sequence_length=4096,
            gpu="h100")
CASES = [
    dict(BASE, model="qwen3-30b-a3b", pp_size=4, ep_size=8),
    dict(BASE, model="qwen3-30b-a3b", pp_size=2, ep_size=8, total_gpus=16, micro_batch_size=2, optimizer="muon"),
    dict(BASE, model="mixtral-8x7b", pp_size=4, ep_size=8, sharding="hsdp", total_gpus=64),
    dict(BASE, model="deepseek-v2-lite", pp_size=2, ep_size=4, gpu="h200", routing="balanced", detail=True),
    dict(BASE, model="gpt-oss-20b", pp_size=2, ep_size=4, total_gpus=8, timeline=True, timeline_limit=30),
    dict(BASE, model="qwen3.5-35b-a3b", pp_size=4, ep_size=8, gpu=None, gpu_memory_gb=64, routing="factor",
         routing_factor=1.4),
]
BAD = dict(BASE, model="qwen3-30b-a3b", pp_size=3, ep_size=8)   # 32 GPUs not a multiple of 24
ROUNDS = 12


def outcome(inputs):
    """An estimate's answer as canonical JSON, or its error's fields."""
    try:
        return json.dumps(memest.estimate(**inputs), sort_keys=True)
    except memest.InputError as e:
        return "error: " + json.dumps(support.error_fields(e), sort_keys=True)


class Threads(unittest.TestCase):
    def test_eight_threads_agree_with_one(self):
        cases = CASES + [BAD]
        alone = [outcome(c) for c in cases]
        self.assertEqual(len(set(alone)), len(cases))   # every case answers differently
        self.assertTrue(alone[-1].startswith("error: "))
        self.assertFalse(any(a.startswith("error: ") for a in alone[:-1]))
        jobs = [i for _ in range(ROUNDS) for i in range(len(cases))]
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(lambda i: (i, outcome(cases[i])), jobs))
        self.assertEqual(len(got), ROUNDS * len(cases))
        for i, answer in got:
            self.assertEqual(answer, alone[i], "case %d differs when run beside others" % i)

    def test_mixed_calls_from_threads(self):
        # every entry point at once: sweeps, a check, the command's text and
        # its errors, a live config, each against its answer run alone
        log = os.path.join(support.ROOT, "tests", "trainer", "logs", "benchmark.log")
        sys.path.append(support.STUB)
        try:
            cfg = test_cfg.launched_cfg(support.SCRIPTS, "readable_hub.py")
        finally:
            sys.path.remove(support.STUB)
        model = os.path.join(support.SCRIPTS, "models", "qwen3-30b-a3b.json")
        cfg.training.model = model   # a path read the same from any working folder
        calls = [
            lambda: memest.plan(model="qwen3-30b-a3b", gpu="h100", global_batch_size=1024, sequence_length=4096,
                                total_gpus=32, micro_batch_size=[1, 2], ep_size=8),
            lambda: memest.compare(**dict(CASES[0], sequence_length=[2048, 4096])),
            lambda: memest.check(log=log, total_gpus=32, gpu="h100"),
            lambda: memest.command(*support.flags(CASES[1])),
            lambda: memest.command(*support.flags(dict(CASES[0], sequence_length=None))),
            lambda: memest.from_cfg(cfg, total_gpus=32, gpu="h100"),
            lambda: outcome(BAD),
            lambda: outcome(CASES[4]),
        ]

        def run(i):
            return i, json.dumps(calls[i](), sort_keys=True)
        alone = [run(i)[1] for i in range(len(calls))]
        self.assertEqual(len(set(alone)), len(calls))
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            for i, answer in pool.map(run, [i for _ in range(8) for i in range(len(calls))]):
                self.assertEqual(answer, alone[i], "call %d differs when run beside others" % i)

    def test_threads_over_plan_and_estimate(self):
        plan = dict(model="qwen3-30b-a3b", gpu="h100", global_batch_size=1024, sequence_length=4096,
                    total_gpus=32, micro_batch_size=1, ep_size=8)
        want_plan = json.dumps(memest.plan(**plan), sort_keys=True)
        want_est = outcome(CASES[0])

        def job(k):
            if k % 2:
                return "plan", json.dumps(memest.plan(**plan), sort_keys=True)
            return "estimate", outcome(CASES[0])
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            for kind, answer in pool.map(job, range(32)):
                self.assertEqual(answer, want_plan if kind == "plan" else want_est, kind)

    def test_hub_downloads_from_threads(self):
        # Eight threads ask for hub ids that no cache holds, from the
        # stand-in hub of tests/cli/hub.sh: each gets the served config's
        # answer (or the hub's refusal), and the kept file is the served one.
        served = os.path.join(support.ROOT, "presets", "qwen3-30b-a3b.json")
        hub_py = os.path.join(support.ROOT, "tests", "cli", "lib", "fake_hub.py")
        inputs = dict(CASES[0])
        want = memest.estimate(**dict(inputs, model=served))["peak_bytes"]
        names = ("HF_ENDPOINT", "HF_HUB_CACHE", "XDG_CACHE_HOME", "HF_HUB_OFFLINE", "HF_TOKEN", "HF_HOME",
                 "NO_PROXY", "no_proxy", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY")
        saved = {k: os.environ.get(k) for k in names}
        with tempfile.TemporaryDirectory() as tmp:
            port_file = os.path.join(tmp, "port")
            server = subprocess.Popen([sys.executable, hub_py, served, os.path.join(tmp, "hub.log"), port_file])
            try:
                for _ in range(100):
                    if os.path.exists(port_file):
                        break
                    time.sleep(0.1)
                with open(port_file) as f:
                    port = f.read().strip()
                for k in names:
                    os.environ.pop(k, None)
                os.environ.update(HF_ENDPOINT="http://127.0.0.1:%s" % port, HF_HUB_CACHE=os.path.join(tmp, "hub"),
                                  XDG_CACHE_HOME=os.path.join(tmp, "xdg"), NO_PROXY="*", no_proxy="*")

                def job(k):
                    model = "test-org/Missing" if k % 4 == 3 else "test-org/Found-MoE"
                    try:
                        got = memest.estimate(**dict(inputs, model=model))
                        return model, got["peak_bytes"], got["model_source"]["kind"]
                    except memest.InputError as e:
                        return model, None, e.message
                with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
                    got = list(pool.map(job, range(32)))
            finally:
                server.kill()
                server.wait()
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            for model, peak, said in got:
                if model == "test-org/Missing":
                    self.assertIsNone(peak)
                    self.assertIn("test-org/Missing", said)
                else:
                    self.assertEqual(peak, want, said)
                    self.assertIn(said, ("download", "memest-cache"))
            kinds = [said if peak else "refused" for _, peak, said in got]
            print("hub ids from 8 threads:", ", ".join("%s %d" % (k, kinds.count(k)) for k in sorted(set(kinds))),
                  file=sys.stderr)
            self.assertIn("download", kinds)
            kept = os.path.join(tmp, "xdg", "memest", "hub", "models--test-org--Found-MoE", "snapshots",
                                "0123456789abcdef0123456789abcdef01234567", "config.json")
            with open(kept, "rb") as a, open(served, "rb") as b:
                self.assertEqual(a.read(), b.read())
            left = [n for _, _, n in os.walk(tmp) for n in n if n.startswith(".")]
            self.assertEqual(left, [], "no half-written file left in the caches")


if __name__ == "__main__":
    unittest.main()
