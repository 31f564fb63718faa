"""Starting and owning a headless simgui process, or finding a running one.

The binary is ``$SIMGUI_BIN``, else ``bin/simgui`` of the checkout this package sits in (or,
installed elsewhere, of the checkout its venv or the current folder is in), else ``simgui`` on ``PATH``. An owned process serves the fast path on a socket in a private
temporary folder (and the HTTP API on a free port when asked), is told to die with its parent,
and is stopped by ``close()``. The folder of a Python process that ends without cleaning up
(SIGKILL, or SIGTERM, which Python does not turn into an exit of its own) is removed by the
next owned process this user starts; simgui itself ends with the Python process either way.
"""

from __future__ import annotations

import ctypes
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path


class SimguiNotFound(FileNotFoundError):
    """No simgui binary was found."""


def find_binary() -> str:
    """The simgui binary to start: $SIMGUI_BIN, the checkout's bin/simgui, or simgui on PATH."""
    env = os.environ.get("SIMGUI_BIN")
    if env:
        # A folder passes os.access(X_OK) too, and Popen then failed with a bare PermissionError.
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise SimguiNotFound(f"SIMGUI_BIN={env!r} is not an executable file")
        return env
    # The checkout the package sits in (used from the tree), else (the package installed into a
    # venv) the one the venv or the current folder is in: a folder with go.mod and bin/simgui.
    here = Path(__file__).resolve().parents[2]
    venv = Path(sys.prefix).resolve()
    for folder in [here, *venv.parents, Path.cwd(), *Path.cwd().parents]:
        binary = folder / "bin" / "simgui"
        if (folder == here or (folder / "go.mod").is_file()) and os.access(binary, os.X_OK):
            return str(binary)
    found = shutil.which("simgui")
    if found:
        return found
    raise SimguiNotFound(f"no simgui binary: not in $SIMGUI_BIN, {here / 'bin'}, the bin folder of a checkout "
                         f"around {venv} or {Path.cwd()}, or PATH; run `make build` in the checkout or set SIMGUI_BIN")


def _die_with_parent():  # pragma: no cover - runs in the child between fork and exec
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: simgui goes when Python does
    except (OSError, AttributeError):
        pass


class _Spawner:
    """Starts processes from one thread that lives as long as Python does. PR_SET_PDEATHSIG
    fires when the *thread* that started the child ends, so an env made on a worker thread
    would lose its simgui when that thread finished."""

    def __init__(self):
        self._jobs = queue.SimpleQueue()
        threading.Thread(target=self._run, name="simgui-spawner", daemon=True).start()

    def _run(self):
        while True:
            start, out, done = self._jobs.get()
            try:
                out.append((True, start()))
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                out.append((False, e))
            done.set()

    def popen(self, *args, **kwargs) -> subprocess.Popen:
        out, done = [], threading.Event()
        self._jobs.put((lambda: subprocess.Popen(*args, **kwargs), out, done))
        if not done.wait(_SPAWN_TIMEOUT):
            raise RuntimeError(f"simgui was not started within {_SPAWN_TIMEOUT:.0f} s: the thread that starts it "
                               "does not run")
        ok, value = out[0]
        if not ok:
            raise value
        return value


#: Seconds a start waits for the spawner thread (a fork leaves none in the child; see below).
_SPAWN_TIMEOUT = 60.0

_spawner = None
_spawner_lock = threading.Lock()


def _forget_spawner():  # pragma: no cover - runs in a forked child
    """A forked child has the parent's spawner but not its thread (fork copies the calling
    thread only), and maybe its lock held: Gymnasium's AsyncVectorEnv and SB3's SubprocVecEnv
    fork workers after the parent made an env. The child starts its own when it needs one."""
    global _spawner, _spawner_lock
    _spawner, _spawner_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_spawner)


def _popen(*args, **kwargs) -> subprocess.Popen:
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = _Spawner()
    return _spawner.popen(*args, **kwargs)


def exit_text(code: int) -> str:
    """How simgui ended, for errors: "exited with status 1", or for a negative returncode (the
    signal that killed it) "was killed by SIGKILL (signal 9)" rather than "status -9", which
    read as an exit status; SIGKILL is what the out-of-memory killer sends."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "a signal"
        return f"was killed by {name} (signal {-code})"
    return f"exited with status {code}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody uses right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SimguiProcess:
    """A headless simgui this Python process started and owns.

    ``fast_path`` is the socket path of its fast path; ``http_url`` the base URL of its HTTP API
    when ``http=True``, on ``http_port`` when given, else on a free port. ``scenario`` is a scenario file for the process (the HTTP API's base
    scenario); ``window=True`` opens simgui's window instead of running headless, so every env
    can be watched (it needs a display). ``gogc`` sets the process's Go GC target (GOGC), where
    $GOGC does not; by default it is Go's.
    """

    def __init__(self, *, http: bool = False, scenario: str | None = None, window: bool = False,
                 binary: str | None = None, extra_args=(), start_timeout: float = 60.0, gogc: int | None = None,
                 http_port: int | None = None):
        if http_port is not None and not (isinstance(http_port, int) and not isinstance(http_port, bool)
                                          and 1 <= http_port <= 65535):
            raise ValueError(f"http_port {http_port!r}: want a TCP port, 1..65535, or None for a free one")
        if any(str(a) == "--api-port" or str(a).startswith("--api-port=") for a in extra_args):
            raise ValueError("give the HTTP API's port as http_port=..., not --api-port in extra_args "
                             "(the process must know where to find the API)")
        if window and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            # simgui's own refusal suggested a `simgui run --headless ...` line nobody typed.
            raise ValueError("window=True needs a display (DISPLAY is not set): leave the window off to run "
                             "simgui headless (train_ppo.py: without --window)")
        self.binary = binary or find_binary()
        sweep_stale_folders()
        self._dir = tempfile.mkdtemp(prefix=_FOLDER_PREFIX)
        with open(os.path.join(self._dir, _OWNER_FILE), "w") as f:
            f.write(f"{os.getpid()} {_pid_namespace()}\n")
        self.fast_path = os.path.join(self._dir, "fast.sock")
        if len(os.fsencode(self.fast_path)) > _MAX_SOCKET_PATH:
            shutil.rmtree(self._dir, ignore_errors=True)
            raise RuntimeError(f"simgui's fast path socket would be {self.fast_path}, {len(os.fsencode(self.fast_path))} "
                               f"bytes, over the {_MAX_SOCKET_PATH} a socket path may have: the temporary folder "
                               f"{tempfile.gettempdir()} is too deep; set TMPDIR to a shorter folder (such as /tmp)")
        self.http_url = None
        args = [self.binary, "run"]
        if not window:
            # Real time until the first session pauses it: the scenario's own world idles.
            args += ["--headless", "--time-scale", "1"]
        args += ["--no-bridge", "--no-control", "--fast-path", self.fast_path]
        if http:
            port = free_port() if http_port is None else http_port
            args += ["--api-port", str(port)]
            self.http_url = f"http://127.0.0.1:{port}"
        else:
            args += ["--no-api"]
        if scenario:
            args += ["--scenario", str(scenario)]
        args += list(extra_args)
        self.args = args
        self._log = open(os.path.join(self._dir, "simgui.log"), "w+b")
        env = dict(os.environ)
        # Go's own GC target unless gogc (or $GOGC) says otherwise: measured with 16 envs, 400
        # was slower than Go's 100 both without visual randomization (17,700 against 21,000
        # steps/s) and with it (860 against 960 steps/s, and 860 MB against 370 MB), whose
        # resets build whole scenes.
        if gogc is not None:
            env.setdefault("GOGC", str(gogc))
        self.proc = _popen(args, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                     preexec_fn=_die_with_parent, env=env)
        # The process that started simgui: a child forked from it inherits this object, whose
        # finalizer (run at the child's exit) must not stop the parent's simgui or remove its folder.
        self._finalizer = weakref.finalize(self, _stop, self.proc, self._log, self._dir, os.getpid())
        try:
            self._wait_ready(start_timeout)
        except BaseException:
            self.close()
            raise

    def _wait_ready(self, timeout: float):
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"simgui {exit_text(self.proc.returncode)}:\n{self.log_tail()}")
            if os.path.exists(self.fast_path) and (self.http_url is None or self._http_up()):
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                        s.connect(self.fast_path)
                    return
                except OSError:
                    pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"simgui did not come up within {timeout:g} s:\n{self.log_tail()}")
            time.sleep(0.05)

    def _http_up(self) -> bool:
        host, port = self.http_url.rsplit("/", 1)[1].split(":")
        try:
            with socket.create_connection((host, int(port)), timeout=0.5):
                return True
        except OSError:
            return False

    def log_tail(self, n: int = 4000) -> str:
        """The end of the process's output ("" once it is closed)."""
        try:
            self._log.flush()
            with open(self._log.name, "rb") as f:
                return f.read()[-n:].decode("utf-8", "replace")
        except (OSError, ValueError):  # ValueError: the log is closed
            return ""

    def close(self):
        """Stops simgui and removes its temporary folder."""
        self._finalizer()

    # A process shared by several envs is closed as they are: `with SimguiProcess() as p:`.
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


_FOLDER_PREFIX = "simgui-"
#: The longest fast path socket path simgui takes, in bytes (the BSDs' sun_path, which simgui
#: holds every platform to).
_MAX_SOCKET_PATH = 104
# The file in an owned process's folder naming the Python process that made it: a folder whose
# maker is gone (killed with SIGKILL, which leaves no chance to clean up) is swept by the next
# SimguiProcess of the same user.
_OWNER_FILE = "owner.pid"


def _pid_namespace() -> str:
    """This process's PID namespace (Linux), so that a folder made in another one (a container
    sharing /tmp) is never judged by PIDs that mean other processes here."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return "-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def sweep_stale_folders(tmp: str | None = None) -> list[str]:
    """Removes the temporary folders of owned processes whose Python process has died without
    cleaning up (SIGKILL), and returns their paths. Only this user's folders whose owner file
    names a process of this PID namespace that no longer exists are touched; their simgui died
    with its parent."""
    tmp = tmp or tempfile.gettempdir()
    removed = []
    try:
        names = os.listdir(tmp)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(_FOLDER_PREFIX):
            continue
        folder = os.path.join(tmp, name)
        try:
            st = os.lstat(folder)
            if not os.path.isdir(folder) or os.path.islink(folder) or st.st_uid != os.getuid():
                continue
            with open(os.path.join(folder, _OWNER_FILE)) as f:
                pid_text, ns = f.read(256).split()
            pid = int(pid_text)
        except (OSError, ValueError):
            continue
        if ns == _pid_namespace() and pid > 0 and pid != os.getpid() and not _alive(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


#: How long close() gives simgui to end after SIGTERM before it is killed: a clean stop takes
#: well under a second, and a frozen one (SIGSTOP, a hung machine) held close() for 10 s.
_STOP_TIMEOUT = 3


def _stop(proc, log, folder, owner=None):
    if owner is not None and os.getpid() != owner:
        # A forked child's copy: simgui and its folder are the parent's (poll() would not even
        # see simgui, which is not the child's child, and call it ended).
        log.close()
        return
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)
