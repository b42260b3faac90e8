"""Estimates run from 8 threads at once give the answers of the same
estimates run one at a time (no state shared between calls)."""
import concurrent.futures
import json
import os
import sys
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


if __name__ == "__main__":
    unittest.main()
