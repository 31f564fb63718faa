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

from dataclasses import dataclass, field, replace
from importlib import resources

import numpy as np

#: The sonar reading is divided by this (metres) for the observation, as rusim's vision env.
SONAR_SCALE_M = 5.0


@dataclass(frozen=True)
class Task:
    """A training task: where it runs and how it is scored."""

    id: str
    scenario: str  # file in simgui/scenarios
    doc: str
    max_episode_steps: int = 100
    progress_gain: float = 10.0  # reward per metre towards the next waypoint
    waypoint_bonus: float = 1.0
    goal_bonus: float = 10.0
    crash_penalty: float = 10.0
    time_penalty: float = 0.01
    off_route_m: float | None = None
    # The vehicle's sensors the fast path runs (the camera always); () runs them all. The task
    # observes the camera and the sonar; the others would only cost time.
    sensors: tuple = ("camera.front.rgb", "ultrasonic.front")
    track_params: dict = field(default_factory=dict)
    vehicle_params: dict = field(default_factory=dict)

    def scenario_text(self) -> str:
        return resources.files("simgui").joinpath("scenarios", self.scenario).read_text()

    def scenario_path(self):
        """A context manager giving the scenario as a file (for `simgui run --scenario`)."""
        return resources.as_file(resources.files("simgui").joinpath("scenarios", self.scenario))

    def with_options(self, **kw) -> "Task":
        return replace(self, **kw)


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
            sensors=("camera.front.rgb",),  # the Prometeo has no sonar
        ),
    ]
}


def lookup(task) -> Task:
    if isinstance(task, Task):
        return task
    key = task if task in TASKS else "simgui/" + str(task)
    if key not in TASKS:
        raise KeyError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    return TASKS[key]


def observations(images: np.ndarray, sonar_m: np.ndarray) -> dict:
    """The observation dict of N envs: images as given, the sonar scaled to 0..1 (0 without a
    sonar)."""
    s = (sonar_m * (1.0 / SONAR_SCALE_M)).astype(np.float32).reshape(-1, 1)
    s[~(s > 0)] = 0.0  # NaN (no sonar) too
    np.minimum(s, 1.0, out=s)
    return {"image": images, "ultrasonic": s}


def lateral_distance(x, y, spawn, waypoints) -> float:
    """Distance from (x, y) to the polyline from the spawn point through the waypoints."""
    pts = np.vstack([np.asarray(spawn[:2], float)[None, :], np.asarray(waypoints, float)])
    a, b = pts[:-1], pts[1:]
    ab = b - a
    p = np.array([x, y])
    t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12), 0, 1)
    d = np.linalg.norm(a + t[:, None] * ab - p, axis=1)
    return float(d.min())


class Scorer:
    """Rewards and episode ends of N envs of one task, from consecutive state arrays (N rows of
    the state fields, columns as in ``fields``)."""

    def __init__(self, task: Task, n: int, contacts: bool, fields: dict):
        self.task, self.n, self.contacts = task, n, contacts
        self.f = fields
        self.routes = [None] * n  # (spawn, waypoints) per env, for off-route checks

    def start(self, i: int, info: dict):
        r = info.get("route")
        self.routes[i] = (info.get("spawn", (0, 0, 0)), r["waypoints"]) if r and r.get("waypoints") else None

    def score(self, prev: np.ndarray, cur: np.ndarray, steps: np.ndarray):
        """Reward, terminated, truncated and per-env flags for the stepped envs (all arrays)."""
        t, f = self.task, self.f
        ri, rd = f["route_index"], f["route_distance"]
        same = cur[:, ri] == prev[:, ri]
        gained = np.where(same, prev[:, rd] - cur[:, rd], 0.0)
        reached = np.maximum(cur[:, ri] - prev[:, ri], 0)
        reward = t.progress_gain * gained + t.waypoint_bonus * reached - t.time_penalty
        goal = cur[:, f["route_completed"]] > 0
        crash = cur[:, f["contacts"]] > 0 if self.contacts else np.zeros(self.n, bool)
        off = np.zeros(self.n, bool)
        if t.off_route_m is not None:
            for i, r in enumerate(self.routes):
                if r is not None:
                    off[i] = lateral_distance(cur[i, f["x"]], cur[i, f["y"]], r[0], r[1]) > t.off_route_m
        fail = crash | off
        success = goal & ~fail  # a touch on the last step still fails
        reward = reward + t.goal_bonus * success - t.crash_penalty * fail
        terminated = goal | fail
        truncated = (steps >= t.max_episode_steps) & ~terminated
        return reward, terminated, truncated, {"success": success, "crash": crash, "off_route": off}

    def score_one(self, prev: list, cur: list, steps: int):
        """score() for one env with Python floats (state rows as lists): the same arithmetic,
        without numpy's per-call cost on arrays of one."""
        t, f = self.task, self.f
        ri, rd = f["route_index"], f["route_distance"]
        gained = prev[rd] - cur[rd] if cur[ri] == prev[ri] else 0.0
        reached = max(cur[ri] - prev[ri], 0.0)
        reward = t.progress_gain * gained + t.waypoint_bonus * reached - t.time_penalty
        goal = cur[f["route_completed"]] > 0
        crash = self.contacts and cur[f["contacts"]] > 0
        off = False
        if t.off_route_m is not None and self.routes[0] is not None:
            r = self.routes[0]
            off = lateral_distance(cur[f["x"]], cur[f["y"]], r[0], r[1]) > t.off_route_m
        fail = crash or off
        success = goal and not fail
        reward = reward + t.goal_bonus * success - t.crash_penalty * fail
        terminated = goal or fail
        truncated = steps >= t.max_episode_steps and not terminated
        return reward, terminated, truncated, {"success": success, "crash": crash, "off_route": off}
