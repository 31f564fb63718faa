"""Client of simgui's training fast path (the Go package simgui/app/fastpath, docs/TRAINING.md).

One Unix-socket connection is a session of N envs. Step requests are a few hundred bytes of
binary; the envs' frames and state land in a shared memory file (memfd) whose descriptor comes
with the open reply, mapped here and read through numpy views — no JPEG, no base64, no JSON for
pixels, no copy per pixel.
"""

from __future__ import annotations

import array
import errno
import json
import mmap
import os
import socket
import struct
import subprocess
import threading

import numpy as np

from .process import exit_text

PROTOCOL = 2
MSG_OPEN, MSG_STEP, MSG_CLOSE = 0x01, 0x02, 0x03
MSG_OPENED, MSG_STEPPED, MSG_CLOSED, MSG_ERROR = 0x81, 0x82, 0x83, 0xEE
KIND_HOLD, KIND_STEP, KIND_RESET = 0, 1, 2
_HEADER = struct.Struct("<2sBBI")
_MEM_MAGIC = b"SIMGUIFP"
#: The largest reply read (an open reply, or the episode infos of a step that reset every env
#: with the track's layout in each).
MAX_REPLY_BYTES = 64 << 20


class FastPathError(RuntimeError):
    """simgui answered a request with an error, or the session broke.

    ``field`` names the open request's field whose value simgui refused ("envs",
    "frameWidth", "frameHeight", "actionPeriod"), or is None.
    """

    def __init__(self, msg: str, field: str | None = None):
        super().__init__(msg)
        self.field = field


class FastPathClient:
    """A session of N envs on simgui's fast path.

    After open(), ``images`` is an (N, H, W, C) uint8 view and ``state`` an (N, K) float64 view
    of the shared memory (``fields`` maps state names to columns). Both are rewritten by every
    step(); copy what you keep. ``kinds``, ``actions`` and ``seeds`` are views of the step
    message: request() sends them as they are.
    """

    def __init__(self, path: str, timeout: float = 120.0):
        self.path = path
        self.timeout = float(timeout)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # A blocking socket with kernel timeouts rather than settimeout(): Python runs a socket
        # with a timeout non-blocking and polls before every send and receive, two system calls
        # where one does. SO_SNDTIMEO bounds the connect too (Linux, AF_UNIX).
        tv = struct.pack("ll", int(timeout), int((timeout % 1) * 1e6))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, tv)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
        try:
            self.sock.connect(path)
        except OSError as e:
            self.sock.close()
            why = {errno.ENOENT: "no such socket", errno.ECONNREFUSED: "nothing listens there (a simgui that ended?)",
                   errno.ENOTSOCK: "not a socket", errno.EACCES: "permission denied"}.get(e.errno, e.strerror)
            raise FastPathError(f"cannot connect to simgui's fast path at {path}: {why}; start one with "
                                "`simgui run --fast-path PATH` or leave simgui= out to start one") from e
        self._mem = None
        # Replies land here; a step reply (a header, and JSON when envs were reset) usually
        # fits, so one recv_into reads it whole. Bytes past a reply are the next one's start.
        self._buf = bytearray(1 << 16)
        self._view = memoryview(self._buf)
        self._have = 0
        self.images = self.state = None
        self.kinds = self.actions = self.seeds = None
        self.fields = {}
        self.info = {}
        self.num_envs = 0
        # Set while a step is between its request and its reply: an interrupt there (a caught
        # KeyboardInterrupt) leaves the reply unread, and every later read would be one behind.
        self._broken = None
        # One step at a time: a second thread's request would read the first one's reply.
        self._lock = threading.Lock()
        # The SimguiProcess at the other end when this Python process owns it: a connection it
        # closes then reports the exit status and the end of its log.
        self.process = None
        # The process that opened the session: a child forked from it shares the connection,
        # and its copy of the client must not end the parent's session when it closes (at its
        # exit, say).
        self._pid = os.getpid()

    # -- wire ---------------------------------------------------------------------------------

    def _send(self, typ: int, payload=b""):
        self.sock.sendall(_HEADER.pack(b"SG", typ, 0, len(payload)) + bytes(payload))

    def _fill(self, want: int):
        """Receives until the buffer holds at least want bytes."""
        if want > len(self._buf):
            if want > MAX_REPLY_BYTES:
                raise FastPathError(f"a fast path reply of {want - _HEADER.size} bytes is over the limit of {MAX_REPLY_BYTES}")
            grown = bytearray(want)
            grown[: self._have] = self._view[: self._have]
            self._buf, self._view = grown, memoryview(grown)
        while self._have < want:
            try:
                n = self.sock.recv_into(self._view[self._have:])
            except BlockingIOError:  # SO_RCVTIMEO
                raise FastPathError(f"simgui sent no reply within {self.timeout:g} s") from None
            except ConnectionResetError:
                raise self._closed() from None
            if n == 0:
                raise self._closed()
            self._have += n

    def _closed(self) -> "FastPathError":
        """The error for a connection simgui closed: with its exit status and the end of its
        log when this process owns it and it has ended (its log goes with close())."""
        p = self.process
        if p is not None:
            try:  # a simgui that died closes the connection as it exits
                code = p.proc.wait(0.5)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                return FastPathError(f"simgui {exit_text(code)}; the end of its log:\n{p.log_tail()}")
        return FastPathError("simgui closed the fast path connection")

    def _recv(self, with_fd=False):
        """Reads one reply: (type, payload as bytes, file descriptor or None)."""
        fd = None
        if with_fd and self._have == 0:
            try:
                msg, anc, _flags, _addr = self.sock.recvmsg(len(self._buf), socket.CMSG_SPACE(struct.calcsize("i")))
            except BlockingIOError:
                raise FastPathError(f"simgui sent no reply within {self.timeout:g} s") from None
            except ConnectionResetError:
                raise self._closed() from None
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds = array.array("i")
                    fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
                    if fds:
                        fd = fds[0]
                    for extra in fds[1:]:
                        os.close(extra)
            if not msg:
                raise self._closed()
            self._buf[: len(msg)] = msg
            self._have = len(msg)
        try:
            typ, payload = self._read_reply()
        except BaseException:
            if fd is not None:
                os.close(fd)
            raise
        if typ == MSG_ERROR:
            if fd is not None:
                os.close(fd)
            _refused(payload)
        return typ, payload, fd

    def _read_reply(self):
        """Reads one reply from the socket: (type, payload as bytes)."""
        hs = _HEADER.size
        if self._have < hs:
            self._fill(hs)
        magic, typ, zero, n = _HEADER.unpack_from(self._buf)
        if magic != b"SG" or zero != 0:
            raise FastPathError(f"not a fast path reply: {bytes(self._buf[:hs])!r}")
        end = hs + n
        if self._have < end:
            self._fill(end)
        payload = bytes(self._view[hs:end]) if n else b""
        rest = self._have - end
        if rest:
            self._buf[:rest] = self._view[end : self._have]
        self._have = rest
        return typ, payload

    # -- session ------------------------------------------------------------------------------

    def open(self, *, envs: int, scenario: str = "", frame=(84, 84), vehicle_params=None, track_params=None,
             randomization=None, action_period: float = 0.0, layout: bool = False, label: str = "",
             sensors=()) -> dict:
        """Opens the session's envs; returns simgui's open reply."""
        req = {
            "protocol": PROTOCOL, "scenario": scenario, "envs": int(envs),
            "frameWidth": int(frame[0]) if frame else 0, "frameHeight": int(frame[1]) if frame else 0,
            "vehicleParams": dict(vehicle_params or {}), "trackParams": dict(track_params or {}),
            "randomization": {k: str(v) for k, v in (randomization or {}).items()},
            "actionPeriod": float(action_period), "layout": bool(layout), "label": label,
            "sensors": [str(x) for x in sensors],
        }
        try:
            self._send(MSG_OPEN, json.dumps(req).encode())
        except (BrokenPipeError, ConnectionResetError):
            # simgui refused the connection and closed it (too many sessions): its reason is
            # still waiting to be read.
            self._recv()
            raise FastPathError("simgui closed the fast path connection") from None
        typ, payload, fd = self._recv(with_fd=True)
        if typ != MSG_OPENED or fd is None:
            if fd is not None:
                os.close(fd)
            raise FastPathError(f"unexpected reply 0x{typ:02x} to open")
        info = json.loads(payload)
        mem = info["memory"]
        try:
            self._mem = mmap.mmap(fd, mem["size"], mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        finally:
            os.close(fd)
        if self._mem[:8] != _MEM_MAGIC:
            raise FastPathError("the shared memory does not start with SIMGUIFP")
        n, fr = info["envs"], info["frame"]
        h, w, c = fr["height"], fr["width"], fr["channels"]
        k = len(mem["stateFields"])
        if mem["imageStride"] != h * w * c or mem["stateStride"] != 8 * k:
            raise FastPathError(f"shared memory strides {mem['imageStride']}, {mem['stateStride']}: this client reads packed frames and rows")
        self.images = np.frombuffer(self._mem, np.uint8, n * mem["imageStride"], mem["imageOffset"]).reshape(n, h, w, c)
        self.state = np.frombuffer(self._mem, "<f8", n * k, mem["stateOffset"]).reshape(n, k)
        self.fields = {name: i for i, name in enumerate(mem["stateFields"])}
        self.num_envs, self.info = n, info
        # The step message, built in place: header, n, 0, kinds (padded to 8), actions, seeds.
        # Each env's actions are the columns the reply names: throttle, steer and, for a
        # vehicle that flies, vertical.
        self.action_names = tuple(info.get("actions") or ("throttle", "steer"))
        a = len(self.action_names)
        pad = (n + 7) & ~7
        body = 8 + pad + 8 * a * n + 8 * n
        h = _HEADER.size
        self._msg = bytearray(h + body)
        _HEADER.pack_into(self._msg, 0, b"SG", MSG_STEP, 0, body)
        struct.pack_into("<II", self._msg, h, n, 0)
        self.kinds = np.frombuffer(self._msg, np.uint8, n, h + 8)
        self.actions = np.frombuffer(self._msg, "<f8", a * n, h + 8 + pad).reshape(n, a)
        self.seeds = np.frombuffer(self._msg, "<i8", n, h + 8 + pad + 8 * a * n)
        return info

    def request(self) -> bytes:
        """Sends the step message as ``kinds``, ``actions`` and ``seeds`` hold it: env i holds
        (kind 0), steps with actions[i] (1) or resets with seeds[i] (2). Returns the reply's
        payload: b"" unless envs were reset, else simgui's StepReply as JSON (decode_resets)."""
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("another thread is stepping this env: use an env from one thread at a time")
        try:
            if self._broken:
                p = self.process
                if p is not None and p.proc.poll() is not None:
                    raise self._closed()  # simgui ended: say so, not that the stream is out of step
                raise FastPathError(self._broken)
            self._broken = ("an earlier step ended before its reply was read (interrupted, timed out or cut off), "
                            "so this env's connection is out of step: close the env and make a new one")
            try:
                self.sock.sendall(self._msg)
            except (BrokenPipeError, ConnectionResetError):
                raise self._closed() from None
            typ, payload = self._read_reply()
            self._broken = None
            if typ != MSG_STEPPED:
                if typ == MSG_ERROR:
                    _refused(payload)
                raise FastPathError(f"unexpected reply 0x{typ:02x} to step")
            return payload
        finally:
            self._lock.release()

    def step(self, kinds, actions=None, seeds=None) -> list:
        """request() with these kinds, actions and seeds; returns the reset envs' episode infos
        (simgui's ResetInfo as dicts)."""
        self.kinds[:] = kinds
        if actions is not None:
            self.actions[:] = actions
        if seeds is not None:
            self.seeds[:] = seeds
        return decode_resets(self.request())

    def close(self):
        """Ends the session (simgui removes its worlds) and unmaps the memory."""
        if self.sock.fileno() >= 0 and os.getpid() != self._pid:
            # A forked child's copy: the socket (and its options, which the parent's copy
            # shares) stays the parent's; only this process's descriptor goes.
            self.sock.close()
        if self.sock.fileno() >= 0:
            # A short wait: a simgui that does not answer (stopped, hung) must not hold close()
            # for the whole reply timeout; closing the socket ends the session anyway. A stream
            # out of step (an interrupted step) is not asked at all.
            tv = struct.pack("ll", 2, 0)
            try:
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, tv)
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
                if not self._broken:
                    self._send(MSG_CLOSE)
                    self._recv()
            except (OSError, FastPathError):
                pass
            self.sock.close()
        self.images = self.state = None
        self.kinds = self.actions = self.seeds = None
        if self._mem is not None:
            try:
                self._mem.close()
            except BufferError:
                pass  # a view is still alive; the mapping goes with it
            self._mem = None


def decode_resets(payload: bytes) -> list:
    """The episode infos of a step reply's payload (request()), in env order."""
    return json.loads(payload)["resets"] if payload else []


def _refused(payload: bytes):
    """Raises the error of an error reply."""
    field = None
    try:
        body = json.loads(payload)
        msg = body["error"]
        field = body.get("field")
    except (ValueError, KeyError, TypeError, AttributeError):
        msg = payload.decode("utf-8", "replace")
    raise FastPathError(msg, field if isinstance(field, str) else None)
