"""An owned simgui's temporary folder: removed by close(), and swept by the next process when
the Python process that made it was killed without a chance to clean up.

Run with Debian's python3 from the checkout (make test-python does):
    SIMGUI_BIN=bin/simgui /usr/bin/python3 -m unittest discover -s python/tests
"""

import os
import signal
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simgui  # noqa: E402
from simgui import process  # noqa: E402

PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..")


def folder_with_owner(tmp, name, pid, ns=None):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    if pid is not None:
        with open(os.path.join(d, process._OWNER_FILE), "w") as f:
            f.write(f"{pid} {ns or process._pid_namespace()}\n")
    with open(os.path.join(d, "simgui.log"), "w") as f:
        f.write("log\n")
    return d


class Sweep(unittest.TestCase):
    def test_only_folders_of_dead_owners_go(self):
        with tempfile.TemporaryDirectory() as tmp:
            gone = subprocess.Popen(["true"])
            gone.wait()
            live = subprocess.Popen(["sleep", "60"])
            try:
                dead = folder_with_owner(tmp, "simgui-dead", gone.pid)
                alive = folder_with_owner(tmp, "simgui-alive", live.pid)
                mine = folder_with_owner(tmp, "simgui-mine", os.getpid())
                no_owner = folder_with_owner(tmp, "simgui-noowner", None)
                other = folder_with_owner(tmp, "other-dead", gone.pid)
                elsewhere = folder_with_owner(tmp, "simgui-container", gone.pid, ns="pid:[1]")
                garbled = folder_with_owner(tmp, "simgui-garbled", None)
                with open(os.path.join(garbled, process._OWNER_FILE), "w") as f:
                    f.write("not a pid")
                removed = process.sweep_stale_folders(tmp)
                self.assertEqual(removed, [dead])
                self.assertFalse(os.path.exists(dead))
                for kept in (alive, mine, no_owner, other, garbled, elsewhere):
                    self.assertTrue(os.path.isdir(kept), kept)
            finally:
                live.kill()
                live.wait()


class KilledOwner(unittest.TestCase):
    def test_next_process_sweeps_a_killed_ones_folder(self):
        # A Python process makes an owned simgui, says where its folder is, and is killed with
        # SIGKILL: its folder stays, its simgui dies with it, and the next one sweeps the folder.
        code = ("import sys, simgui; p = simgui.SimguiProcess(); "
                "print(p._dir, flush=True); sys.stdin.read()")
        with subprocess.Popen([sys.executable, "-c", code], cwd=PYTHON_DIR, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) as child:
            try:
                folder = child.stdout.readline().strip()
                self.assertTrue(os.path.isfile(os.path.join(folder, process._OWNER_FILE)), folder)
            finally:
                child.send_signal(signal.SIGKILL)
        self.assertTrue(os.path.isdir(folder), "SIGKILL leaves the folder behind")
        p = simgui.SimguiProcess()
        try:
            self.assertFalse(os.path.exists(folder), f"{folder} was not swept")
            self.assertTrue(os.path.isdir(p._dir))
        finally:
            p.close()
        self.assertFalse(os.path.exists(p._dir), "close() removes the folder")


class DeadSimgui(unittest.TestCase):
    def test_a_step_after_simgui_died_says_so(self):
        # simgui killed under a running env: the next step says it exited and shows the end
        # of its log, not a bare BrokenPipeError.
        env = simgui.make("simgui/KS0223Corridor-v0")
        try:
            env.reset(seed=1)
            owned = env.unwrapped._s.proc
            owned.proc.kill()
            owned.proc.wait()
            with self.assertRaises(simgui.fastpath.FastPathError) as cm:
                for _ in range(3):
                    env.step(env.action_space.sample())
            self.assertIn("simgui was killed by SIGKILL (signal 9)", str(cm.exception))
            self.assertIn("the end of its log", str(cm.exception))
        finally:
            env.close()

    def test_exit_text_names_the_signal(self):
        # A returncode of -9 read as "exited with status -9", an exit status no program has.
        from simgui.process import exit_text

        self.assertEqual(exit_text(1), "exited with status 1")
        self.assertEqual(exit_text(-15), "was killed by SIGTERM (signal 15)")
        self.assertEqual(exit_text(-9), "was killed by SIGKILL (signal 9)")


class DeepTempFolder(unittest.TestCase):
    def test_a_socket_path_too_long_names_tmpdir(self):
        # simgui takes fast path socket paths of up to 104 bytes: under a deep TMPDIR the
        # owned process's socket is longer, and the error says what to change.
        with tempfile.TemporaryDirectory() as tmp:
            deep = os.path.join(tmp, "d" * 100)
            os.mkdir(deep)
            saved = tempfile.tempdir
            tempfile.tempdir = deep
            try:
                with self.assertRaises(RuntimeError) as cm:
                    process.SimguiProcess()
            finally:
                tempfile.tempdir = saved
            self.assertIn("TMPDIR", str(cm.exception))
            self.assertEqual(os.listdir(deep), [])  # its folder is gone


class HttpPort(unittest.TestCase):
    def test_the_api_port_can_be_chosen(self):
        # Where only some ports may be used, the owned simgui's API port is given as
        # http_port; --api-port in extra_args made simgui listen there while the process
        # waited on another port and timed out ("simgui did not come up within 60 s").
        port = process.free_port()
        p = process.SimguiProcess(http=True, http_port=port, start_timeout=30)
        try:
            self.assertEqual(p.http_url, f"http://127.0.0.1:{port}")
        finally:
            p.close()
        for args in (["--api-port", "19999"], ["--api-port=19999"]):
            with self.subTest(args=args), self.assertRaisesRegex(ValueError, "http_port"):
                process.SimguiProcess(http=True, extra_args=args)
        for bad in (0, 70000, "8000", True):
            with self.subTest(http_port=bad), self.assertRaisesRegex(ValueError, "http_port"):
                process.SimguiProcess(http=True, http_port=bad)


class Binary(unittest.TestCase):
    def test_simgui_bin_must_be_an_executable_file(self):
        # A folder in SIMGUI_BIN (the checkout's bin, say) passed the check and failed to start
        # with "PermissionError: [Errno 13] Permission denied"; it is named as the other misses are.
        old = os.environ.get("SIMGUI_BIN")
        try:
            with tempfile.TemporaryDirectory() as d:
                for bad in (d, os.path.join(d, "missing")):
                    os.environ["SIMGUI_BIN"] = bad
                    with self.subTest(bad=bad), self.assertRaisesRegex(process.SimguiNotFound, "not an executable file"):
                        process.find_binary()
        finally:
            if old is None:
                os.environ.pop("SIMGUI_BIN", None)
            else:
                os.environ["SIMGUI_BIN"] = old


class Shared(unittest.TestCase):
    def test_a_shared_process_is_a_context_manager(self):
        # Envs are context managers and a SimguiProcess shared by them was not: `with` raised
        # AttributeError (__enter__). Leaving the block stops simgui and removes its folder.
        with simgui.SimguiProcess() as p:
            folder = os.path.dirname(p.fast_path)
            with simgui.make("simgui/KS0223Corridor-v0", simgui=p) as env:
                env.reset(seed=0)
        self.assertIsNotNone(p.proc.returncode)
        self.assertFalse(os.path.exists(folder))


class Fork(unittest.TestCase):
    def test_a_forked_child_starts_its_own_simgui(self):
        # Gymnasium's AsyncVectorEnv (fork start method) makes an env in the parent, then forks
        # workers that make theirs: the parent's process-starting thread is not in the child.
        env = simgui.make("simgui/KS0223Corridor-v0", frame_size=(32, 24))
        env.reset(seed=1)
        env.close()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(r)
            code = 1
            try:
                child = simgui.make("simgui/KS0223Corridor-v0", frame_size=(32, 24))
                obs, _ = child.reset(seed=1)
                child.close()
                os.write(w, b"ok" if obs["image"].shape == (24, 32, 3) else b"bad shape")
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        got = b""
        with os.fdopen(r, "rb") as f:
            got = f.read()  # ends when the child exits; it hung here before
        _, status = os.waitpid(pid, 0)
        self.assertEqual(got, b"ok")
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)

    def test_a_forked_child_that_ends_leaves_the_parents_env_alone(self):
        # A child forked while the parent holds an env inherits the env, its connection and
        # its SimguiProcess. When the child ends normally (sys.exit: atexit and __del__ run),
        # it closed the parent's fast path session and removed the parent's simgui folder.
        script = (
            "import os, sys, numpy as np\n"
            "import simgui\n"
            "env = simgui.make('simgui/KS0223Corridor-v0', frame_size=(32, 24))\n"
            "env.reset(seed=1)\n"
            "folder = env._s.proc._dir\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    sys.exit(0)\n"
            "os.waitpid(pid, 0)\n"
            "print('folder', os.path.isdir(folder))\n"
            "env.step(np.zeros(2, np.float32))\n"
            "print('stepped')\n"
            "env.close()\n"
            "print('closed', os.path.isdir(folder))\n"
        )
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.stdout.split("\n")[:3], ["folder True", "stepped", "closed False"], out.stderr[-2000:])


if __name__ == "__main__":
    unittest.main()


class NoDisplay(unittest.TestCase):
    def test_window_without_a_display_says_so_before_starting(self):
        # simgui refused with "run headless instead: <a simgui command line>", a line the
        # Python user never typed; the package says which argument to drop.
        from unittest import mock

        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        with mock.patch.dict(os.environ, env, clear=True):
            with self.assertRaisesRegex(ValueError, r"^window=True needs a display \(DISPLAY is not set\)"):
                simgui.make("simgui/KS0223Corridor-v0", window=True)
