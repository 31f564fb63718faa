"""The training tasks: a scenario each (in ``simgui/scenarios``), and rewards computed here, in
Python, from what simgui reports after every step — pose, speed, route progress, sonar and, on
the fast path, contacts with walls and boxes.

Every task follows its track's route (the waypoints of the track's layout, each reached within
its reach distance, in order; simgui's app/route):

* progress: ``progress_gain`` × the metres gained towards the next waypoint, and
  ``waypoint_bonus`` when one is reached;
* ``time_penalty`` every step;
* goal: the last waypoint reached, ``goal_bonus``, the episode terminates (success);
* crash: a wall or box touched during the step, ``crash_penalty``, the episode terminates;
* off route (tasks with ``off_route_m``): farther than that from the route's centreline,
  ``crash_penalty``, the episode terminates;
* truncation after ``max_episode_steps``.

The HTTP transport (rusim's API) reports neither contacts nor the route's geometry, so there an
episode ends only at the goal or the time limit.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import numpy as np

# The largest open request simgui's fast path reads (app/fastpath MaxOpenBytes).
_MAX_OPEN_BYTES = 1 << 20

#: The sonar reading is divided by this (metres) for the observation, as rusim's vision env.
SONAR_SCALE_M = 5.0


@dataclass(frozen=True)
class Task:
    """A training task: where it runs and how it is scored."""

    id: str
    scenario: str  # file in simgui/scenarios, or a path of one's own (with_scenario)
    doc: str
    max_episode_steps: int = 100
    progress_gain: float = 10.0  # reward per metre towards the next waypoint
    waypoint_bonus: float = 1.0
    goal_bonus: float = 10.0
    crash_penalty: float = 10.0
    time_penalty: float = 0.01
    off_route_m: float | None = None
    # The vehicle's sensors the fast path runs, by mount id or by kind (the first camera always;
    # a kind the vehicle lacks is skipped); () runs them all. The task observes the camera and
    # the sonar; the others would only cost time.
    sensors: tuple = ("camera", "ultrasonic")
    track_params: dict = field(default_factory=dict)
    vehicle_params: dict = field(default_factory=dict)

    def scenario_text(self) -> str:
        if self._own():
            # Bounded: the text travels in the fast path's open request, which simgui takes up
            # to 1 MiB (and its scenario up to 256 KiB, a limit simgui reports itself).
            with open(self.scenario, "rb") as f:
                data = f.read(_MAX_OPEN_BYTES + 1)
            if len(data) > _MAX_OPEN_BYTES:
                raise ValueError(f"scenario {self.scenario!r} is over the {_MAX_OPEN_BYTES >> 20} MiB a fast path open request may hold")
            if not data.strip():
                # An empty text asks the fast path for its default scenario: not what a file meant.
                raise ValueError(f"scenario {self.scenario!r}: the scenario is empty")
            return data.decode("utf-8")
        return resources.files("simgui").joinpath("scenarios", self.scenario).read_text()

    def plugin_ids(self) -> tuple:
        """The track and the vehicle the scenario runs, each None unless the scenario names it
        once (comments aside): what an HTTP backend checks the simgui it talks to runs. A
        scenario of several vehicles leaves the vehicle unchecked."""
        lines = [ln.split("#", 1)[0] for ln in self.scenario_text().splitlines()]
        ids = []
        for key in ("trackId", "vehicleId"):
            found = {m.group(1) for ln in lines
                     for m in re.finditer(r"\b" + key + r"""\s*:\s*["']?([A-Za-z0-9_.-]+)""", ln)}
            ids.append(found.pop() if len(found) == 1 else None)
        return tuple(ids)

    def action_period(self):
        """The sim time one step advances as the scenario names it (runtime.actionPeriod), or
        None when it names none once (comments aside): simgui's default then applies."""
        lines = [ln.split("#", 1)[0] for ln in self.scenario_text().splitlines()]
        found = {m.group(1) for ln in lines for m in re.finditer(r"\bactionPeriod\s*:\s*([0-9][0-9.eE+-]*)", ln)}
        if len(found) != 1:
            return None
        try:
            return float(found.pop())
        except ValueError:
            return None  # simgui refuses it itself

    def scenario_path(self):
        """A context manager giving the scenario as a file (for `simgui run --scenario`)."""
        if self._own():
            return contextlib.nullcontext(Path(self.scenario))
        return resources.as_file(resources.files("simgui").joinpath("scenarios", self.scenario))

    def _own(self) -> bool:
        return os.path.isabs(self.scenario)  # with_scenario's; the packaged ones are names

    def with_options(self, **kw) -> "Task":
        return replace(self, **kw)

    def with_scenario(self, path) -> "Task":
        """The task in a scenario file of one's own (its track, vehicle, route and randomization),
        scored by this task's rewards."""
        p = Path(os.fspath(path)).resolve()
        if not p.exists():
            raise FileNotFoundError(f"scenario {os.fspath(path)!r}: no such file")
        if not p.is_file():
            raise ValueError(f"scenario {os.fspath(path)!r}: not a regular file")
        return replace(self, scenario=str(p))


TASKS = {
    t.id: t
    for t in [
        Task(
            id="simgui/KS0223Corridor-v0",
            scenario="ks0223_corridor.yaml",
            doc="drive the KS0223 through the L-shaped cardboard corridor to its end without touching a wall",
            max_episode_steps=100,
        ),
        Task(
            id="simgui/KS0223Maze-v0",
            scenario="ks0223_maze.yaml",
            doc="drive the KS0223 from the maze's south-west cell to its goal; every episode is a new maze",
            max_episode_steps=300,
        ),
        Task(
            id="simgui/ABCorridor-v0",
            scenario="ab_corridor.yaml",
            doc="rusim's A→B task: drive the car along the basic arena's road from A to B, staying on it",
            max_episode_steps=400,
            off_route_m=0.9,  # half of rusim's 1.2 m corridor plus its 0.3 m margin
        ),
    ]
}


#: Visual domain randomization for a vision policy meant for a real camera: each episode draws
#: textures, colour jitter, the sun and the sky, distractor objects and the camera's lens and
#: film, which turns the realistic look on. Pass it as ``randomization=`` (or update a copy).
#: Resets cost about 20 ms of simgui's CPU with it (docs/TRAINING.md).
VISUAL_RANDOMIZATION = {
    "visual.textures": (0.5, 1),
    "visual.color_jitter": 0.1,
    "visual.sun_azimuth_deg": 180,
    "visual.sun_elevation_deg": 20,
    "visual.sun_intensity": 0.3,
    "visual.sun_color": 0.1,
    "visual.ambient": 0.3,
    "visual.distractors": (2, 10),
    "sensors.distortion_k1": (-0.1, 0.02),
    "sensors.exposure": 0.3,
    "sensors.white_balance": 0.1,
    "sensors.vignette": 0.4,
    "sensors.read_noise": 2,
    "sensors.shot_noise": 4,
}


def parse_randomization(items) -> dict:
    """Reads "KEY=VALUE" strings (command-line --randomization flags) into a randomization
    dict, as make's ``randomization=`` takes it; ValueError names a malformed one."""
    out = {}
    for kv in items:
        key, sep, value = str(kv).partition("=")
        if not sep or not key.strip():
            raise ValueError(f"randomization {kv!r}: want KEY=VALUE, e.g. visual.distractors=2,10")
        out[key.strip()] = value.strip()
    return out


def lookup(task) -> Task:
    if isinstance(task, Task):
        return task
    key = task if task in TASKS else "simgui/" + str(task)
    if key not in TASKS:
        raise KeyError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    return TASKS[key]


def observations(images: np.ndarray, sonar_m: np.ndarray) -> dict:
    """The observation dict of N envs: images as given, the sonar scaled to 0..1 (0 without a
    sonar, NaN), as sonar_obs computes it."""
    s = sonar_m * _SONAR_GAIN
    np.minimum(s, _ONE, out=s)
    np.fmax(_ZERO, s, out=s)  # fmax(0, NaN) is 0
    return {"image": images, "ultrasonic": s.astype(np.float32)[:, None]}


def sonar_obs(sonar_m: float) -> float:
    """observations() for one env's reading, before its rounding to float32 (clipping first
    and rounding then gives what rounding first and clipping then gives)."""
    v = sonar_m * _SONAR_GAIN_F
    return (v if v < 1.0 else 1.0) if v > 0 else 0.0


_SONAR_GAIN_F = 1.0 / SONAR_SCALE_M
_SONAR_GAIN = np.float64(_SONAR_GAIN_F)
_ZERO, _ONE = np.float64(0.0), np.float64(1.0)


def route_segments(spawn, waypoints) -> list:
    """The route's centreline as segments (ax, ay, abx, aby, den): from the spawn point through
    the waypoints, den the squared length (at least 1e-12)."""
    pts = [(float(spawn[0]), float(spawn[1]))] + [(float(p[0]), float(p[1])) for p in waypoints]
    out = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        abx, aby = bx - ax, by - ay
        out.append((ax, ay, abx, aby, max(abx * abx + aby * aby, 1e-12)))
    return out


def lateral_distance(x: float, y: float, segments: list) -> float:
    """Distance from (x, y) to the route's centreline (route_segments), in Python floats; the
    same arithmetic as Scorer's batch, element by element."""
    best = math.inf
    for ax, ay, abx, aby, den in segments:
        t = ((x - ax) * abx + (y - ay) * aby) / den
        t = min(max(t, 0.0), 1.0)
        cx, cy = ax + t * abx - x, ay + t * aby - y
        best = min(best, math.sqrt(cx * cx + cy * cy))
    return best


def _row_pair(i: int, j: int):
    """An index of rows i and j (in that order) of a (K, N) array: a slice where one takes them
    (a view, no copy), else a list."""
    if i == j:
        return [i, j]
    step = j - i
    stop = j + (1 if step > 0 else -1)
    return slice(i, None if stop < 0 else stop, step)


#: The rows of Scorer.score's ends.
ENDS = ("terminated", "truncated", "success", "crash", "off_route")


class Scorer:
    """Rewards and episode ends of N envs of one task.

    score() takes consecutive states of the batch as (K, N) arrays — row k is state field k
    (columns of ``fields``) of every env — and works on whole rows, no loop over envs;
    score_one() does the same arithmetic for one env on Python floats (numpy costs more than
    the arithmetic on arrays of one). Both give the same numbers.
    """

    def __init__(self, task: Task, n: int, contacts: bool, fields: dict):
        self.task, self.n, self.contacts = task, n, contacts
        self.f = fields
        self._ri, self._rd = fields["route_index"], fields["route_distance"]
        self._rc, self._ct = fields["route_completed"], fields["contacts"]
        self._x, self._y = fields["x"], fields["y"]
        t = task
        self._pg, self._wb, self._tp = np.float64(t.progress_gain), np.float64(t.waypoint_bonus), np.float64(t.time_penalty)
        self._gb, self._cp = np.float64(t.goal_bonus), np.float64(t.crash_penalty)
        # Rows of the state the batch reads together: views where a slice takes them.
        self._progress = _row_pair(self._ri, self._rd)
        self._goal_crash = _row_pair(self._rc, self._ct)
        self._zeros = bytes(8 * n)
        self.routes = [None] * n  # route_segments per env (None: no route), for off-route checks
        self._seg = None  # the routes as (5, N, M) arrays, padded with each route's last segment

    def start(self, i: int, info: dict):
        """Takes env i's new episode (its reset info)."""
        if self.task.off_route_m is None:
            return
        r = info.get("route")
        wps = r.get("waypoints") if r else None
        self.routes[i] = route_segments(info.get("spawn", (0, 0, 0)), wps) if wps else None
        self._seg = None

    def _segments(self):
        if self._seg is None:
            m = max([len(r) for r in self.routes if r] or [1])
            seg = np.zeros((5, self.n, m))
            seg[4] = 1.0
            has = np.zeros(self.n, bool)
            for i, r in enumerate(self.routes):
                if r:
                    seg[:, i, :] = np.array(r + [r[-1]] * (m - len(r))).T
                    has[i] = True
            self._seg = seg, has
        return self._seg

    def _off_route(self, cur: np.ndarray) -> np.ndarray:
        (ax, ay, abx, aby, den), has = self._segments()
        x, y = cur[self._x][:, None], cur[self._y][:, None]
        t = ((x - ax) * abx + (y - ay) * aby) / den
        t = np.minimum(np.maximum(t, 0.0), 1.0)
        cx, cy = ax + t * abx - x, ay + t * aby - y
        d = np.sqrt(cx * cx + cy * cy).min(axis=1)
        return (d > self.task.off_route_m) & has

    def score(self, prev: np.ndarray, cur: np.ndarray, at_limit: np.ndarray):
        """Reward (N) and ends ((5, N) bool: rows as ENDS) of the batch, fresh arrays, from the
        states before and after the step ((K, N) arrays) and whether each env has reached the
        time limit."""
        # Each numpy call costs microseconds on arrays this small, so the usual step (no
        # waypoint reached, nothing touched, no goal) takes the fewest; the results are those
        # of score_one's arithmetic in every case.
        delta = prev[self._progress] - cur[self._progress]  # route index, metres gained
        reward = delta[1]
        if delta[0].tobytes() != self._zeros:  # a waypoint reached (or a route index not finite)
            ri = self._ri
            reward[cur[ri] != prev[ri]] = 0.0  # no gain across the waypoint change
            reward *= self._pg
            reached = np.maximum(cur[ri] - prev[ri], 0.0)
            reached *= self._wb
            reward += reached
        else:
            reward *= self._pg  # + wb × 0 changes nothing
        reward -= self._tp
        ends = np.zeros((5, self.n), bool)
        ends[1] = at_limit
        goal_crash = ends[2:4]
        np.greater(cur[self._goal_crash], 0.0, out=goal_crash)
        if self.contacts and self.task.off_route_m is None and b"\x01" not in goal_crash.tobytes():
            return reward, ends  # no goal, no failure: success, terminated stay False
        goal, crash, off = ends[2], ends[3], ends[4]
        if not self.contacts:
            crash[:] = False
        if self.task.off_route_m is not None:
            off[:] = self._off_route(cur)
            fail = crash | off
        else:
            fail = crash
        np.logical_or(goal, fail, out=ends[0])  # terminated
        np.greater(goal, fail, out=goal)  # success: goal and not fail (a touch on the last step fails)
        reward += self._gb * goal
        reward -= self._cp * fail
        np.greater(at_limit, ends[0], out=ends[1])  # truncated: at the limit and not terminated
        return reward, ends

    def score_one(self, prev: list, cur: list, steps: int):
        """score() for one env with Python floats (state rows as lists); the flags as a dict."""
        t = self.task
        ri, rd = self._ri, self._rd
        if cur[ri] != prev[ri] or cur[ri] - prev[ri] != 0:  # a waypoint reached (or not finite)
            gained = prev[rd] - cur[rd] if cur[ri] == prev[ri] else 0.0
            reward = t.progress_gain * gained + t.waypoint_bonus * max(cur[ri] - prev[ri], 0.0) - t.time_penalty
        else:
            reward = t.progress_gain * (prev[rd] - cur[rd]) - t.time_penalty
        goal = cur[self._rc] > 0
        crash = self.contacts and cur[self._ct] > 0
        off = False
        if t.off_route_m is not None and self.routes[0]:
            off = lateral_distance(cur[self._x], cur[self._y], self.routes[0]) > t.off_route_m
        fail = crash or off
        success = goal and not fail
        if goal or fail:
            reward = reward + t.goal_bonus * success - t.crash_penalty * fail
        terminated = goal or fail
        truncated = steps >= t.max_episode_steps and not terminated
        return reward, terminated, truncated, {"success": success, "crash": crash, "off_route": off}
