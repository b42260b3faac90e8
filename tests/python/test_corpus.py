"""python -m memest over the launch-script corpus of the reader's
differential test (tests/trainer/differential/gen_corpus.py: the
trainer's two script forms, each mutated with constructs that change what
Python hands to launch()): since python -m memest runs the script, its
inputs must be those the stand-in trainer's launch() records on a plain
run, wherever that run launches.

Per case: a plain run that launches -> python -m memest gives the first
launch() call's inputs, or refuses a value with the command's JSON error
(exit 1 or 2); a plain run that launches nothing or fails -> python -m
memest exits non-zero, or answers with a note naming the field whose
absence failed it (one the trainer requires, never set). Never another
exit status. MEMEST_PY_CORPUS sets the corpus size (default 60, plus the
pinned cases)."""
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import support

sys.path.insert(0, os.path.join(support.ROOT, "tests", "trainer", "differential"))
import gen_corpus  # noqa: E402

COUNT = int(os.environ.get("MEMEST_PY_CORPUS") or 60)


def setUpModule():
    support.load()


def judge(corpus, hub, case):
    """(outcome, note) of one case."""
    root = os.path.join(corpus, case["root"])
    if tuple(case["min_python"]) > sys.version_info[:2]:
        return "skipped", ""
    path = [os.path.join(root, p) for p in case["pythonpath"]] + [os.path.join(root, ".site")]
    env = dict(HF_HOME=hub, HF_HUB_CACHE=hub, XDG_CACHE_HOME=hub, PYTHONHASHSEED="0")
    cap = os.path.join(root, ".capture")
    plain = subprocess.run([support.PYTHON, case["script"]], cwd=root, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=support.TIMEOUT,
                           env=support.clean_env(PYTHONPATH=os.pathsep.join(path), MEMEST_DIFF_CAPTURE=cap, **env))
    calls = []
    if os.path.exists(cap):
        with open(cap, encoding="utf-8") as f:
            calls = [json.loads(line) for line in f if line.strip()]
    r = support.run_module([case["script"], "--json", "--total-gpus", "16", "--gpu", "h100"], cwd=root,
                           trainer=False, pythonpath=path, **env)
    if r.returncode not in (0, 1, 2):
        return "failed", "python -m memest exit %d: %s" % (r.returncode, r.stderr[-400:])
    if not calls:
        if r.returncode == 0:
            why = (plain.stderr.strip().splitlines() or ["exit %d, no launch()" % plain.returncode])[-1]
            missing = re.search(r"object has no attribute '(\w+)'", why)
            notes = json.loads(r.stdout)["source"].get("notes") or []
            if missing and any(missing.group(1) in n for n in notes):
                return "noted", ""   # a field the trainer requires, never set: memest assumes and says so
            return "failed", "Python launched nothing (%s); python -m memest answered" % why[:300]
        return "refused", ""
    if r.returncode != 0:
        try:
            json.loads(r.stdout)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            return "failed", "launched, but python -m memest exit %d without an error object: %s" % (
                r.returncode, r.stderr[-400:])
        return "value refused", ""
    got = support.launched_inputs(json.loads(r.stdout), root)
    diffs = ["%s: memest %r, Python %r" % (k, got.get(k), v) for k, v in calls[0].items() if got.get(k) != v]
    return ("failed", "; ".join(diffs)) if diffs else ("agree", "")


class Corpus(unittest.TestCase):
    def test_python_m_memest_reads_what_python_launches(self):
        tmp = tempfile.mkdtemp(prefix="memest-py-corpus-")
        try:
            corpus, hub = os.path.join(tmp, "corpus"), os.path.join(tmp, "hub")
            os.makedirs(hub)
            cases = gen_corpus.generate(corpus, COUNT, 1)
            for c in cases:   # the stand-in trainer, installed: after the standard library on sys.path
                site = os.path.join(corpus, c["root"], ".site")
                os.makedirs(site)
                os.symlink(os.path.join("..", "pithtrain"), os.path.join(site, "pithtrain"))
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
                results = list(pool.map(lambda c: judge(corpus, hub, c), cases))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        counts = collections.Counter(kind for kind, _ in results)
        for case, (kind, note) in zip(cases, results):
            if kind == "failed":
                with self.subTest(case=case["root"], groups=" ".join(case["groups"])):
                    self.fail(note + "\n" + case["change"][:1500])
        self.assertGreaterEqual(counts["agree"], len(cases) // 2, dict(counts))


if __name__ == "__main__":
    unittest.main()
