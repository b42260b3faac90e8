"""The wheel installs offline into a fresh virtual environment and works
there from a folder outside the repository: an estimate equal to the
CLI's, python -m memest --version, and a launch script run through it."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import support

QWEN = dict(model="qwen3-30b-a3b", pp_size=4, ep_size=8, cp_size=1, total_gpus=32, micro_batch_size=1,
            global_batch_size=1024, sequence_length=4096, gpu="h100")
venv = None
outside = None
_tmp = None


def wheel_path(version):
    return os.path.join(support.PACKAGE_PARENT, "memest-%s-py3-none-linux_x86_64.whl" % version)


def setUpModule():
    global venv, outside, _tmp
    memest = support.load()
    wheel = wheel_path(memest.__version__)
    if not os.path.isfile(wheel):
        raise AssertionError("the package is built but its wheel is not: no %s" % wheel)
    _tmp = tempfile.mkdtemp(prefix="memest-wheel-")
    venv = os.path.join(_tmp, "venv")
    outside = os.path.join(_tmp, "elsewhere")
    os.mkdir(outside)
    env = support.clean_env(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True, env=env, cwd=outside)
    r = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--no-index", "--no-deps", wheel],
                       capture_output=True, text=True, env=env, cwd=outside, timeout=support.TIMEOUT)
    if r.returncode != 0:
        raise AssertionError("pip install %s: exit %d\n%s%s" % (wheel, r.returncode, r.stdout, r.stderr))


def tearDownModule():
    if _tmp:
        shutil.rmtree(_tmp, ignore_errors=True)


def in_venv(args, **env):
    """The venv's python with args, from outside the repository."""
    return subprocess.run([os.path.join(venv, "bin", "python")] + list(args), cwd=outside,
                          env=support.clean_env(**env), capture_output=True, text=True, timeout=support.TIMEOUT)


class Wheel(unittest.TestCase):
    def test_installed_files(self):
        site = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "memest"))
        self.assertEqual(len(site), 1)
        self.assertTrue(os.path.isfile(os.path.join(site[0], "libmemest.so")))
        r = in_venv(["-c", "import memest; print(memest.__file__)"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.path.dirname(os.path.realpath(r.stdout.strip())), os.path.realpath(site[0]))

    def test_estimate_from_outside_the_repository(self):
        code = "import json, memest; r = memest.estimate(**json.loads(%r)); print(r['status']); print(json.dumps(r))"
        r = in_venv(["-c", code % json.dumps(QWEN)])
        self.assertEqual(r.returncode, 0, r.stderr)
        status, answer = r.stdout.split("\n", 1)
        rc, want = support.cli_json(support.flags(QWEN))
        self.assertEqual(status, "OK")
        self.assertEqual(json.loads(answer), want)

    def test_version(self):
        r = in_venv(["-m", "memest", "--version"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, support.cli(["--version"]).stdout)
        self.assertRegex(r.stdout, r"^memest \d+\.\d+\.\d+\n$")

    def test_errors_and_scripts(self):
        r = in_venv(["-c", "import memest\ntry:\n memest.estimate(model='qwen3-30b-a3b')\n"
                           "except memest.InputError as e:\n print(e.code, e.field)"])
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "missing pp_size"))
        script = os.path.join(support.SCRIPTS, "walrus.py")
        calls, plain = support.run_plain(script, cwd=support.SCRIPTS)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        r = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "memest", script, "--json", "--total-gpus",
                            "32", "--gpu", "h100"], cwd=support.SCRIPTS, capture_output=True, text=True,
                           env=support.clean_env(PYTHONPATH=support.STUB), timeout=support.TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(support.launched_inputs(json.loads(r.stdout), support.SCRIPTS), calls[0])


class LibraryChoice(unittest.TestCase):
    """MEMEST_LIBRARY names the libmemest.so the package loads."""

    def load_with(self, library):
        return subprocess.run([support.PYTHON, "-c", "import memest; print(memest.__version__)"], cwd=outside,
                              capture_output=True, text=True, timeout=support.TIMEOUT,
                              env=support.clean_env(PYTHONPATH=support.PACKAGE_PARENT, MEMEST_LIBRARY=library))

    def test_another_copy(self):
        with tempfile.TemporaryDirectory(prefix="memest-py-") as tmp:
            copy = os.path.join(tmp, "libmemest-copy.so")
            shutil.copy(os.path.join(support.PACKAGE, "libmemest.so"), copy)
            r = self.load_with(copy)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual("memest " + r.stdout, support.cli(["--version"]).stdout)

    def test_one_that_is_not_there(self):
        missing = os.path.join(outside, "no-such-libmemest.so")
        r = self.load_with(missing)
        self.assertEqual(r.returncode, 1)
        self.assertIn("ImportError", r.stderr)
        self.assertIn(missing, r.stderr)


if __name__ == "__main__":
    unittest.main()
