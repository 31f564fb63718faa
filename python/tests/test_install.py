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
            venv = os.path.join(d, "venv")
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


if __name__ == "__main__":
    unittest.main()
