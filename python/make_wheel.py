"""Packs the staged Python package (build/python/memest: the modules and
libmemest.so) into a wheel with Debian's python3-wheel (`python3 -m wheel
pack`), which writes the RECORD. The wheel is py3-none-<platform>: the
modules run on any Python 3.9 or later, the library on this platform only.
    python3 python/make_wheel.py --stage build/python/memest --version 0.3.0 \\
        --dest build/python --stamp build/python/wheel.stamp
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

METADATA = """\
Metadata-Version: 2.1
Name: memest
Version: {version}
Summary: Peak GPU memory and step time of DualPipeV Mixture-of-Experts training (FSDP, EP, CP), from Python
Requires-Python: >=3.9

memest's C core through ctypes: memest.estimate(), plan(), compare(), check(),
from_cfg(cfg) and require(cfg) return what the memest command prints with --json,
and `python -m memest SCRIPT.py` estimates the config a launch script launches.
The library needs cJSON and libyaml (Debian: libcjson1, libyaml-0-2).
"""

WHEEL = """\
Wheel-Version: 1.0
Generator: memest make_wheel.py
Root-Is-Purelib: false
Tag: py3-none-{platform}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stage", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--dest", required=True)
    ap.add_argument("--stamp", required=True)
    a = ap.parse_args()
    try:
        import wheel  # noqa: F401  (Debian's python3-wheel packs it)
    except ImportError:
        sys.exit("make_wheel.py: %s has no 'wheel' module; install python3-wheel "
                 "(bash scripts/setup.sh does)" % sys.executable)
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "memest-%s" % a.version)
        shutil.copytree(a.stage, os.path.join(tree, "memest"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        info = os.path.join(tree, "memest-%s.dist-info" % a.version)
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
            f.write(METADATA.format(version=a.version))
        with open(os.path.join(info, "WHEEL"), "w", encoding="utf-8") as f:
            f.write(WHEEL.format(platform=platform))
        for old in glob.glob(os.path.join(a.dest, "memest-*.whl")):
            os.remove(old)
        subprocess.run([sys.executable, "-m", "wheel", "pack", "--dest-dir", a.dest, tree],
                       check=True, stdout=subprocess.DEVNULL)
    made = glob.glob(os.path.join(a.dest, "memest-%s-py3-none-%s.whl" % (a.version, platform)))
    if len(made) != 1:
        sys.exit("make_wheel.py: wheel pack made no memest-%s-py3-none-%s.whl in %s"
                 % (a.version, platform, a.dest))
    with open(a.stamp, "w", encoding="utf-8") as f:
        f.write(made[0] + "\n")


if __name__ == "__main__":
    main()
