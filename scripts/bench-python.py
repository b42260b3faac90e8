"""The Python package's figures, side by side with the command's: the
wheel's size, the import's wall time (a fresh interpreter importing memest
against one importing nothing, in alternating rounds), and the default
estimate's wall time in the process (memest.estimate, median of many) beside
the CLI's whole process (build/memest --json, median). Prints figures; gates
nothing.
    python3 scripts/bench-python.py [--build build] [--rounds 40]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

DEFAULT = dict(model="qwen3-30b-a3b", pp_size=4, ep_size=8, cp_size=1, total_gpus=32,
               micro_batch_size=1, global_batch_size=1024, sequence_length=4096, gpu="h100")


def wall(argv, env):
    t = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=40)
    a = ap.parse_args()
    stage = os.path.abspath(os.path.join(a.build, "python"))
    env = dict(os.environ, PYTHONPATH=stage)
    wheels = glob.glob(os.path.join(stage, "memest-*.whl"))
    lib = os.path.join(stage, "memest", "libmemest.so")
    for w in wheels:
        print("wheel %s: %d bytes" % (os.path.basename(w), os.path.getsize(w)))
    print("libmemest.so: %d bytes" % os.path.getsize(lib))

    bare, imported = [], []
    for _ in range(a.rounds):
        bare.append(wall([sys.executable, "-c", "pass"], env))
        imported.append(wall([sys.executable, "-c", "import memest"], env))
    b, m = statistics.median(bare), statistics.median(imported)
    print("python -c pass: %.1f ms; python -c 'import memest': %.1f ms; the import: %.1f ms "
          "(medians of %d)" % (b * 1e3, m * 1e3, (m - b) * 1e3, a.rounds))

    sys.path.insert(0, stage)
    import memest
    flags = ["--%s=%s" % (k.replace("_", "-"), v) for k, v in DEFAULT.items()]
    cli = [os.path.join(a.build, "memest"), "--json"] + flags
    got = memest.estimate(**DEFAULT)
    want = json.loads(subprocess.run(cli, capture_output=True, check=True).stdout)
    assert got == want, "memest.estimate differs from the CLI's --json"
    inproc = []
    for _ in range(a.rounds * 5):
        t = time.perf_counter()
        memest.estimate(**DEFAULT)
        inproc.append(time.perf_counter() - t)
    process = [wall(cli, env) for _ in range(a.rounds)]
    print("default estimate: memest.estimate %.2f ms in the process (median of %d); "
          "build/memest --json %.2f ms as a whole process (median of %d)"
          % (statistics.median(inproc) * 1e3, len(inproc), statistics.median(process) * 1e3,
             len(process)))


if __name__ == "__main__":
    main()
