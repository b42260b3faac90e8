#!/usr/bin/env python3
"""The differential test of memest's launch-script reader: for each script
of gen_corpus.py's corpus, Python's reading beside memest's.

Python's reading: the script run as torchrun runs it, `python3 SCRIPT`
from its checkout's root (so __name__ is "__main__" and the script's
folder is first on sys.path), with the case's PYTHONPATH (a benchmark's
model folder, as the trainer's launch.sh sets it) and the stand-in
pithtrain package of stub/ (the checkout's own copy, found after the
standard library as an installed package is), whose launch() writes the
memory inputs it is given. A script that raises, never calls launch(), or
calls it with configs that differ, is refused by Python.

memest's reading: `memest --script SCRIPT --json --total-gpus 16 --gpu
h100` from the same folder with the same PYTHONPATH, the hub offline.

Each case is one of: agree; memest refused (fine, whatever Python did);
Python refused but memest read the script (a failure); disagree (a
failure: the fields that differ are printed); and for the trainer's own
forms, unmutated, a refusal is a failure too. A case needing a newer
Python's grammar than the interpreter's is skipped.

    python3 run_diff.py --memest build/memest [--count N] [--seed S]
                        [--python PYTHON] [--jobs J] [--keep DIR]

Exit 0 when nothing failed; the last line is "N passed, N failed".
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # nothing written into the source tree
import gen_corpus  # noqa: E402

KEYS = ["model", "pp_size", "ep_size", "cp_size", "micro_batch_size", "global_batch_size", "sequence_length",
        "optimizer", "sharding", "fp8_training", "routing"]


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


def python_reading(py, root, case, env):
    """The inputs launch() got, or (None, why)."""
    cap = os.path.join(root, ".capture")
    try:
        os.unlink(cap)
    except FileNotFoundError:
        pass
    e = dict(env, MEMEST_DIFF_CAPTURE=cap)
    e["PYTHONPATH"] = os.pathsep.join([os.path.join(root, p) for p in case["pythonpath"]] + [os.path.join(root, ".site")])
    try:
        r = subprocess.run([py, case["script"]], cwd=root, env=e, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=30)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if r.returncode != 0:
        return None, last_line(r.stderr.decode("utf-8", "replace")) or "exit %d" % r.returncode
    try:
        with open(cap, encoding="utf-8") as f:
            recs = [json.loads(l) for l in f if l.strip()]
    except FileNotFoundError:
        return None, "launch() never called"
    if any(rec != recs[0] for rec in recs):
        return None, "launch() called with %d different configs" % len(recs)
    return recs[0], ""


def memest_canonical_model(root, j):
    """The config memest estimated: a file by its real path, a hub id as
    the script wrote it; a preset chosen for a path that is not there by
    its name (Python has no such reading)."""
    ms = j.get("model_source") or {}
    value = ((j["source"].get("values") or {}).get("model") or {}).get("value")
    if ms.get("kind") == "file":
        full = os.path.join(root, ms.get("path") or "")
        if os.path.isdir(full):
            full = os.path.join(full, "config.json")
        return "file:" + os.path.realpath(full)
    if value and "/" in value and not (j["source"].get("model") or {}).get("is_path"):
        return "hub:" + value
    return "%s:%s" % (ms.get("kind"), ms.get("preset") or value)


def memest_reading(memest, root, case, env):
    """The inputs memest read, or (None, why); crashes are raised."""
    e = dict(env)
    e["PYTHONPATH"] = os.pathsep.join([os.path.join(root, p) for p in case["pythonpath"]] + [os.path.join(root, ".site")])
    try:
        r = subprocess.run([memest, "--script", case["script"], "--json", "--total-gpus", "16", "--gpu", "h100"],
                           cwd=root, env=e, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "TIMEOUT"
    if r.returncode < 0 or r.returncode > 3:
        return None, "CRASH (status %d): %s" % (r.returncode, last_line(r.stderr.decode("utf-8", "replace")))
    if r.returncode != 0:
        try:
            msg = json.loads(r.stdout)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            msg = last_line((r.stderr or r.stdout).decode("utf-8", "replace"))
        return None, msg[:300]
    j = json.loads(r.stdout)
    got = {k: v["value"] for k, v in j["source"]["values"].items()}
    got["model"] = memest_canonical_model(root, j)
    return got, ""


def check(args, corpus, case, env):
    root = os.path.join(corpus, case["root"])
    if tuple(case["min_python"]) > args.py_version:
        return "skipped", [], ""
    want, py_why = python_reading(args.python, root, case, env)
    got, me_why = memest_reading(args.memest, root, case, env)
    if me_why in ("TIMEOUT",) or me_why.startswith("CRASH"):
        return "failed", ["memest: %s" % me_why], py_why
    if got is None:
        if case["must_read"]:
            return "failed", ["memest refused the trainer's own form: %s" % me_why], py_why
        return "refused", [me_why], py_why
    if want is None:
        return "python-refused", ["Python refused (%s); memest read %s" % (py_why, ", ".join(
            "%s=%s" % (k, got.get(k)) for k in KEYS))], py_why
    diffs = ["%s: memest %r, Python %r" % (k, got.get(k), want.get(k)) for k in KEYS if got.get(k) != want.get(k)]
    return ("disagree" if diffs else "agree"), diffs, py_why


def write_findings(path, failed, cases, results, counts):
    """Each construct's failures, with the smallest change that shows it."""
    by_group = {}
    for case, kind, notes in failed:
        g = case["groups"][-1] if case["groups"][0] == "pinned" else case["groups"][0]
        by_group.setdefault(g, []).append((case, kind, notes))
    py_why = {c["root"]: r[2] for c, r in zip(cases, results)}
    out = ["# Differential findings", "",
           "%d scripts: %s." % (len(cases), ", ".join("%s %d" % kv for kv in sorted(counts.items()))), ""]
    for g in sorted(by_group, key=lambda g: (g == "combination", g)):
        items = sorted(by_group[g], key=lambda x: len(x[0]["change"]))
        kinds = {}
        for _, k, _ in items:
            kinds[k] = kinds.get(k, 0) + 1
        out += ["## %s: %d failed (%s)" % (g, len(items), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))), ""]
        seen = set()
        for case, kind, notes in items:
            if kind in seen:
                continue
            seen.add(kind)
            out += ["%s, %s (%s):" % (case["root"], kind, case["script"]), "", "```diff", case["change"], "```", ""]
            out += ["- " + n for n in notes] + ["- Python: %s" % (py_why[case["root"]] or "launched")] + [""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--memest", required=True)
    ap.add_argument("--count", type=int, default=720, help="cases in the corpus (the CI's is the default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs the scripts")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="write the corpus here and keep it")
    ap.add_argument("--json", help="write every case's outcome here")
    ap.add_argument("--findings", help="write the failures here, grouped by construct, in Markdown")
    args = ap.parse_args()
    args.memest = os.path.abspath(args.memest)
    out = subprocess.run([args.python, "-c", "import sys; print(sys.executable); print('%d %d' % sys.version_info[:2])"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    args.python = out[0]
    args.py_version = tuple(int(x) for x in out[1].split())
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="memest-diff-")
    corpus = os.path.abspath(args.keep) if args.keep else os.path.join(tmp, "corpus")
    try:
        os.makedirs(corpus, exist_ok=True)
        cases = gen_corpus.generate(corpus, args.count, args.seed)
        for c in cases:   # the stand-in package, installed: after the standard library on sys.path
            site = os.path.join(corpus, c["root"], ".site")
            os.makedirs(site)
            os.symlink(os.path.join("..", "pithtrain"), os.path.join(site, "pithtrain"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HF_", "MEMEST_"))}
        hub = os.path.join(tmp, "hub")
        os.makedirs(hub)
        env.update(HF_HUB_OFFLINE="1", HF_HOME=hub, HF_HUB_CACHE=hub, XDG_CACHE_HOME=hub,
                   HF_ENDPOINT="http://127.0.0.1:9", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
        t_gen = time.time() - t0
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda c: check(args, corpus, c, env), cases))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    counts = {}
    failed = []
    for case, (kind, notes, py_why) in zip(cases, results):
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("failed", "python-refused", "disagree"):
            failed.append((case, kind, notes))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([dict(c, outcome=k, notes=n, python=p) for c, (k, n, p) in zip(cases, results)], f, indent=1)
    if args.findings:
        write_findings(args.findings, failed, cases, results, counts)
    for case, kind, notes in failed:
        print("FAIL %s [%s] %s/%s" % (kind, " ".join(case["groups"]), case["root"], case["script"]))
        for n in notes:
            print("    " + n)
    n_pass = counts.get("agree", 0) + counts.get("refused", 0)
    print("differential: %d scripts under Python %d.%d in %.0f s (corpus %.1f s): %d agree, %d memest refused, "
          "%d Python refused but memest read, %d disagree, %d memest failed, %d skipped (need a newer Python)" % (
              len(cases), args.py_version[0], args.py_version[1], time.time() - t0, t_gen, counts.get("agree", 0),
              counts.get("refused", 0), counts.get("python-refused", 0), counts.get("disagree", 0),
              counts.get("failed", 0), counts.get("skipped", 0)))
    print("%d passed, %d failed" % (n_pass, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
