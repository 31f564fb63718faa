"""The HTTP transport: one env over simgui's rusim-compatible training API (POST /reset, /step).

It is the compatibility path and the benchmarks' baseline: every step is a JSON request and a
JSON reply with the frame as base64 JPEG, decoded here with Pillow (Debian's python3-pil). The
process's scenario is the API's base, so simgui must run with the task's scenario
(``simgui run --scenario``); SimguiEnv arranges that when it starts simgui itself, and the first
reset checks the track and vehicle simgui runs are the task's (GET /health).

States are turned into the fast path's state fields (world frame: x east, y north, yaw
counter-clockwise from east) so that both transports score alike. The API reports no contacts
(``contacts`` and ``touching`` are NaN) and no route geometry.
"""

from __future__ import annotations

import base64
import http.client
import io
import json
import math
import subprocess
from urllib.parse import urlsplit

import numpy as np

from .process import exit_text

STATE_FIELDS = ["x", "y", "yaw", "vx", "vy", "speed", "forward", "yaw_rate", "sim_time", "world_step", "actions",
                "ultrasonic_m", "contacts", "touching", "route_index", "route_total", "route_distance",
                "route_completed", "z", "climb"]

#: The contract's actuator that climbs a flying vehicle, sent in a step's extensions.
VERTICAL_ACTUATOR = "control.vertical_norm"

#: Frame sides the envs take, as simgui's fast path bounds them (app/fastpath).
MIN_FRAME_SIDE, MAX_FRAME_SIDE = 16, 1024


class HttpError(RuntimeError):
    """The API answered with an error."""


def _kvs(d: dict) -> list:
    return [{"key": k, "value": str(v)} for k, v in d.items()]


class HttpBackend:
    """One env on the training API, with the fast path client's attributes (images, state,
    fields, num_envs, kinds, actions, seeds, request()) so that the envs drive both alike."""

    def __init__(self, url: str, *, frame=(84, 84), vehicle_params=None, track_params=None, randomization=None,
                 timeout: float = 60.0, expect: tuple = (None, None), expect_period: float | None = None):
        try:
            from PIL import Image  # noqa: F401
        except ImportError as e:  # pragma: no cover
            raise ImportError("the HTTP transport decodes JPEG frames with Pillow (Debian: python3-pil)") from e
        u = urlsplit(url)
        if u.scheme != "http" or not u.hostname:
            raise ValueError(f"simgui {url!r}: want the training API's URL, http://HOST:PORT "
                             "(e.g. http://127.0.0.1:8000; simgui serves no HTTPS)")
        self.conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout)
        try:
            self._url = url
            self.timeout = float(timeout)
            # Set while a request waits for its reply: one that ended there (a timeout, an
            # interrupt) leaves the connection with a reply unread, and the env out of step.
            self._broken = None
            self.process = None  # the SimguiProcess at the other end when this Python process owns it (_gone)
            device = self._device(expect[1])
            w, h = frame
            if (w, h) == (0, 0):
                # The camera's own size, as the fast path takes it: its contract's shape [H, W, C].
                shape = next((s.get("shape") for s in (device or {}).get("sensors") or () if s.get("sensorType") == "camera"), None)
                if not shape or len(shape) < 2:
                    raise ValueError("frame_size (0, 0): the camera's own size is not known here (the scenario names no "
                                     "single vehicle with a camera in /contract); give the frame size")
                h, w = int(shape[0]), int(shape[1])
            if not (MIN_FRAME_SIDE <= w <= MAX_FRAME_SIDE and MIN_FRAME_SIDE <= h <= MAX_FRAME_SIDE):
                raise ValueError(f"frame_size {frame!r}: the frame is {w}×{h}; each side must be "
                                 f"{MIN_FRAME_SIDE}..{MAX_FRAME_SIDE} px, as on the fast path")
            self.num_envs = 1
            self.frame = (w, h)
            self.images = np.zeros((1, h, w, 3), np.uint8)
            self.fields = {f: i for i, f in enumerate(STATE_FIELDS)}
            self.state = np.zeros((1, len(STATE_FIELDS)))
            vp = dict(vehicle_params or {})
            vp.update({"camera.width": w, "camera.height": h})
            self._vehicle = _kvs(vp)
            # World-frame "x,y" points pass the API's Unity-axes conversion unchanged (x, z → x, y).
            self._track = _kvs(track_params or {})
            self._flags = _kvs({"randomization." + k: v for k, v in (randomization or {}).items()})
            self._actions = 0
            # The task's (track, vehicle): the first reset checks simgui runs them (its scenario is
            # the API's base; another would train the wrong task without a word).
            self._expect = expect
            self.info = {"frame": {"width": w, "height": h, "channels": 3}}
            # The next request, as the fast path client holds it (request()).
            self.kinds = np.zeros(1, np.uint8)
            self.seeds = np.zeros(1, np.int64)
            # A vehicle that flies takes a third action, its climb: its contract lists the actuator.
            self.action_names = ("throttle", "steer")
            if any(a.get("id") == VERTICAL_ACTUATOR for a in (device or {}).get("actuators") or ()):
                self.action_names += ("vertical",)
            self.info["actions"] = list(self.action_names)
            self.actions = np.zeros((1, len(self.action_names)))
            # A first reset, as the fast path's open: it checks the params and the world now, and
            # tells the sim time a step advances (the scenario's runtime.actionPeriod, 0.05 s when
            # it leaves it out), which the env's clock and frame rate need before its first step.
            res = self._reset(0)
            period = next((kv["value"] for kv in res["info"] if kv["key"] == "sim.action_period_s"), None)
            if period is not None:
                self.info["actionPeriod"] = float(period)
                # A simgui that steps another period runs another scenario than the task's,
                # though it may run its track and vehicle: its steps would be the wrong length.
                if expect_period is not None and not math.isclose(float(period), expect_period, rel_tol=1e-9):
                    raise HttpError(f"simgui at {url} advances {float(period):g} s of sim time a step, not the task's "
                                    f"{expect_period:g} s (its scenario's runtime.actionPeriod): start it with the task's "
                                    "scenario (simgui run --scenario), or let the env start it (simgui=None)")
        except BaseException:
            self.conn.close()  # a refused world, a bad frame size: the socket goes with the error
            raise

    def _exchange(self, method: str, path: str, data=None, headers=None):
        """One request and its reply: (response, body). A reply that does not come within the
        timeout, or a wait interrupted, leaves the env out of step, and every later request
        says so (or that simgui ended)."""
        if self._broken:
            p = self.process
            if p is not None and p.proc.poll() is not None:
                raise self._gone(path, RuntimeError("simgui ended"))
            raise HttpError(f"{path}: {self._broken}")
        self._broken = ("an earlier request ended before its reply was read (interrupted or timed out), so this "
                        "env's connection is out of step: close the env and make a new one")
        try:
            self.conn.request(method, path, data, headers or {})
            r = self.conn.getresponse()
            out = r.read()
        except TimeoutError:
            raise HttpError(f"{path}: simgui sent no reply within {self.timeout:g} s") from None
        except (OSError, http.client.HTTPException) as e:  # refused, reset, closed
            self._broken = None  # the next request says why (simgui ended) or dials again
            raise self._gone(path, e) from e
        self._broken = None
        return r, out

    def _post(self, path: str, body: dict) -> dict:
        data = json.dumps(body).encode()
        r, out = self._exchange("POST", path, data, {"Content-Type": "application/json"})
        if r.status != 200:
            try:
                msg = json.loads(out)["error"]
            except (ValueError, KeyError):
                msg = out[:200].decode("utf-8", "replace")
            raise HttpError(f"{path}: {r.status} {msg}")
        return json.loads(out)

    def _gone(self, path: str, e: Exception) -> HttpError:
        """The error for a connection that broke: with simgui's exit status and the end of its
        log when this process owns it and it has ended."""
        p = self.process
        if p is not None:
            try:
                code = p.proc.wait(0.5)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                return HttpError(f"{path}: simgui {exit_text(code)}; the end of its log:\n{p.log_tail()}")
        return HttpError(f"{path}: the connection to simgui at {self._url} broke ({type(e).__name__}: {e})")

    def _device(self, vehicle):
        """The device /contract lists for vehicle (an id), or None (no vehicle named, or none
        listed: the env then takes throttle and steer)."""
        if not vehicle:
            return None
        r, body = self._exchange("GET", "/contract")
        try:
            c = json.loads(body) if r.status == 200 else None
            return next((d for d in c["availableVehicles"] or () if d["deviceId"] == vehicle), None)
        except (ValueError, TypeError, KeyError):
            raise HttpError(f"/contract: {r.status} {body[:200].decode('utf-8', 'replace')}") from None

    def _reset(self, seed: int) -> dict:
        res = self._post("/reset", {"seed": int(seed), "vehicleParams": self._vehicle,
                                    "trackParams": self._track, "flags": self._flags})
        self._actions = 0
        if self._expect != (None, None):
            self._check_world()
            self._expect = (None, None)
        self._read(res)
        return res

    def step(self, kinds, actions=None, seeds=None) -> list:
        kind = int(kinds[0])
        if kind == 2:
            res = self._reset(int(seeds[0]))
            draws = {}
            for kv in res["info"]:
                k = kv["key"]
                if k.startswith("randomization.ego.") and k != "randomization.ego.seed":
                    draws[k[len("randomization.ego."):]] = _number(kv["value"])
            return [{"env": 0, "seed": int(seeds[0]), "draws": draws, "route": None,
                     "spawn": [float(v) for v in self.state[0, :3]]}]
        if kind == 1:
            t, s = float(actions[0][0]), float(actions[0][1])
            ext = [{"key": VERTICAL_ACTUATOR, "value": repr(float(actions[0][2]))}] if len(self.action_names) > 2 else []
            res = self._post("/step", {"throttle": t, "steer": s, "brake": 0.0, "targetAgentId": "ego",
                                       "timestamp": 0, "timeBase": "unix_ms", "extensions": ext})
            self._actions += 1
            self._read(res)
        return []

    def _check_world(self):
        # After the first reset: before one, /health names no active track or vehicle.
        r, body = self._exchange("GET", "/health")
        try:
            h = json.loads(body) if r.status == 200 else None
        except ValueError:
            h = None
        if not isinstance(h, dict):
            raise HttpError(f"/health: {r.status} {body[:200].decode('utf-8', 'replace')}")
        got = (h.get("activeTrackId"), h.get("activeVehicleId"))
        for want, have, what in zip(self._expect, got, ("track", "vehicle")):
            if want and have and want != have:
                raise HttpError(f"simgui at {self._url} runs {what} {have}, not the task's {want}: start it with "
                                "the task's scenario (simgui run --scenario), or let the env start it (simgui=None)")

    def request(self) -> bytes:
        """step() with kinds, actions and seeds as they are; the reset infos as the fast path's
        step reply has them (JSON, b"" when the env was not reset)."""
        resets = self.step(self.kinds, self.actions, self.seeds)
        return json.dumps({"resets": resets}).encode() if resets else b""

    def _read(self, res: dict):
        st = res["state"]
        p, q, v = st["pose"]["position"], st["pose"]["rotation"], st["linearVelocity"]
        yaw_unity = math.atan2(2 * (q["w"] * q["y"] + q["x"] * q["z"]), 1 - 2 * (q["y"] ** 2 + q["z"] ** 2))
        yaw = math.remainder(math.pi / 2 - yaw_unity, 2 * math.pi)
        tel = {kv["key"]: kv["value"] for kv in st["telemetry"]}
        info = {kv["key"]: kv["value"] for kv in res["info"]}
        vx, vy = v["x"], v["z"]
        row = self.state[0]
        f = self.fields
        row[:] = 0.0
        row[f["x"]], row[f["y"]], row[f["yaw"]] = p["x"], p["z"], yaw
        row[f["z"]], row[f["climb"]] = p["y"], v["y"]
        row[f["vx"]], row[f["vy"]], row[f["speed"]] = vx, vy, st["speed"]
        row[f["forward"]] = vx * math.cos(yaw) + vy * math.sin(yaw)
        row[f["yaw_rate"]] = -st["angularVelocity"]["y"]
        row[f["sim_time"]] = float(info.get("sim.time_s", 0))
        row[f["world_step"]] = float(info.get("sim.step", 0))
        row[f["actions"]] = self._actions
        row[f["ultrasonic_m"]] = float(tel["sensor.ultrasonic.front.m"]) if "sensor.ultrasonic.front.m" in tel else math.nan
        row[f["contacts"]] = row[f["touching"]] = math.nan
        if "route.total_waypoints" in info:
            row[f["route_index"]] = float(info["route.current_index"])
            row[f["route_total"]] = float(info["route.total_waypoints"])
            row[f["route_distance"]] = float(info["route.distance_to_target_m"])
            row[f["route_completed"]] = 1.0 if info["route.completed"] == "true" else 0.0
        fr = res["frame"]
        if fr.get("dataBase64"):
            from PIL import Image

            img = Image.open(io.BytesIO(base64.b64decode(fr["dataBase64"]))).convert("RGB")
            if img.size != (self.frame[0], self.frame[1]):
                img = img.resize((self.frame[0], self.frame[1]), Image.BILINEAR)
            self.images[0] = np.asarray(img)

    def close(self):
        self.conn.close()


def _number(text):
    """A draw's value as the fast path gives it: an int when simgui wrote a whole number."""
    try:
        return int(text)
    except ValueError:
        return float(text)
