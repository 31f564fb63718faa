"""`pip install ./python` works offline (no index, pip's isolated build) into a virtual env that
sees Debian's numpy, and the installed package finds its scenarios."""

import os
import subprocess
import sys
import tempfile
import unittest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


class OfflineInstall(unittest.TestCase):
    def test_pip_install_offline(self):
        with tempfile.TemporaryDirectory() as d:
            # The venv sits in a checkout (a stand-in: a folder with go.mod and bin/simgui), as
            # TRAINING.md makes it.
            checkout = os.path.join(d, "checkout")
            venv = os.path.join(checkout, ".venv")
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
            py = os.path.join(venv, "bin", "python")
            env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS="", PIP_DISABLE_PIP_VERSION_CHECK="1")
            r = subprocess.run([py, "-m", "pip", "install", "--no-index", PYTHON_DIR], env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            r = subprocess.run([py, "-c", "import simgui, sys; t = simgui.TASKS['simgui/KS0223Corridor-v0'];"
                                "print(simgui.__file__); print(len(t.scenario_text())); print(sorted(simgui.registry()))"],
                               cwd=d, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            path, size, ids = r.stdout.splitlines()
            self.assertTrue(path.startswith(venv), f"imported from {path}, not the venv")
            self.assertGreater(int(size), 100)
            self.assertIn("simgui/ABCorridor-v0", ids)
            # Installed, it finds the bin/simgui of the checkout it is run in, from a subfolder
            # too, and of the checkout its venv is in from anywhere.
            os.makedirs(os.path.join(checkout, "bin"))
            os.makedirs(os.path.join(checkout, "examples"))
            open(os.path.join(checkout, "go.mod"), "w").close()
            fake = os.path.join(checkout, "bin", "simgui")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(fake, 0o755)
            env = {k: v for k, v in os.environ.items() if k != "SIMGUI_BIN"}
            env["PATH"] = "/usr/bin:/bin"
            for cwd in (checkout, os.path.join(checkout, "examples"), d):
                r = subprocess.run([py, "-c", "import simgui.process as p; print(p.find_binary())"],
                                   cwd=cwd, env=env, capture_output=True, text=True)
                self.assertEqual((r.returncode, r.stdout.strip()), (0, fake), f"from {cwd}: {r.stderr}")
            os.chmod(fake, 0o644)  # no binary in the checkout: a clear error
            r = subprocess.run([py, "-c", "import simgui.process as p; p.find_binary()"], cwd=d, env=env,
                               capture_output=True, text=True)
            self.assertIn("run `make build` in the checkout or set SIMGUI_BIN", r.stderr)


class DocsLeaveNothingTracked(unittest.TestCase):
    def test_files_the_training_docs_write_are_ignored(self):
        # docs/TRAINING.md's commands, run in the checkout as written, write these; git must
        # not offer them for a commit (car.pt, from `car_policy.py export ... car.pt`, was not
        # ignored).
        root = os.path.join(PYTHON_DIR, "..")
        try:
            inside = subprocess.run(["git", "-C", root, "rev-parse", "--is-inside-work-tree"],
                                    capture_output=True, text=True).stdout.strip()
        except OSError:
            inside = ""
        if inside != "true":
            self.skipTest("not a git checkout")
        for path in ("car.pt", "eval.gif", ".venv/bin/python", "out/train-demo/policy.pt"):
            r = subprocess.run(["git", "-C", root, "check-ignore", "-q", "--no-index", path])
            self.assertEqual(r.returncode, 0, f"{path} is not ignored")


if __name__ == "__main__":
    unittest.main()
