"""Gymnasium-style envs on simgui: SimguiEnv (one env) and SimguiVectorEnv (N envs stepped by one
fast path request, Gymnasium 1.x "next step" autoreset).

Observations are ``{"image": uint8 (H, W, 3), "ultrasonic": float32 (1,)}`` (the sonar in
metres / 5, clipped to 0..1, 0 for a vehicle without one); actions are ``Box(-1, 1, (2,),
float32)``: throttle and steer, steer > 0 turning right (rusim's convention). One step is one
action period of sim time (default 0.1 s). ``reset(seed=s)`` followed by the same actions gives
the same observations; env i of a vector env reset with seed s is the env reset with s + i.
"""

from __future__ import annotations

import math

import numpy as np

from . import tasks as _tasks
from ._compat import AUTORESET_NEXT_STEP, HAVE_GYMNASIUM, Env, VectorEnv, batch_space, np_random, spaces
from .fastpath import KIND_HOLD, KIND_RESET, KIND_STEP, FastPathClient
from .process import SimguiProcess

#: Episode seeds drawn from an env's generator lie in 0..SEED_MAX.
SEED_MAX = 2**31 - 1


def _spaces(width: int, height: int):
    obs = spaces.Dict({
        "image": spaces.Box(0, 255, (height, width, 3), np.uint8),
        "ultrasonic": spaces.Box(0.0, 1.0, (1,), np.float32),
    })
    act = spaces.Box(-1.0, 1.0, (2,), np.float32)
    return obs, act


class _Session:
    """N envs of one task on one backend (fast path or HTTP), with their episode bookkeeping."""

    def __init__(self, task, n: int, *, transport: str = "fast", simgui=None, frame_size=(84, 84),
                 action_period: float | None = None, randomize: bool = True, max_episode_steps: int | None = None,
                 layout: bool = False, window: bool = False, label: str = ""):
        self.task = _tasks.lookup(task)
        if max_episode_steps is not None:
            self.task = self.task.with_options(max_episode_steps=int(max_episode_steps))
        self.n = n
        self.proc = None
        randomization = {} if randomize else {"enabled": "false"}
        w, h = int(frame_size[0]), int(frame_size[1])
        if transport == "fast":
            if simgui is None:
                self.proc = simgui = SimguiProcess(window=window)
            path = simgui.fast_path if isinstance(simgui, SimguiProcess) else str(simgui).removeprefix("unix:")
            self.backend = FastPathClient(path)
            self.backend.open(envs=n, scenario=self.task.scenario_text(), frame=(w, h),
                              vehicle_params=self.task.vehicle_params, track_params=self.task.track_params,
                              randomization=randomization, action_period=action_period or 0.0, layout=layout,
                              label=label or self.task.id.split("/")[-1], sensors=self.task.sensors)
            self.contacts = True
        elif transport == "http":
            if n != 1:
                raise ValueError("the HTTP transport runs one env; use the fast path for vector envs")
            if action_period is not None:
                raise ValueError("the HTTP API's action period is its scenario's runtime.actionPeriod")
            from .http import HttpBackend

            if simgui is None:
                with self.task.scenario_path() as path:
                    self.proc = simgui = SimguiProcess(http=True, scenario=str(path), window=window)
            url = simgui.http_url if isinstance(simgui, SimguiProcess) else str(simgui)
            self.backend = HttpBackend(url, frame=(w, h), vehicle_params=self.task.vehicle_params,
                                       track_params=self.task.track_params, randomization=randomization)
            self.contacts = False
        else:
            raise ValueError(f"transport {transport!r}: want 'fast' or 'http'")
        b = self.backend
        fr = b.info["frame"]
        self.width, self.height = fr["width"], fr["height"]
        self.action_period = b.info.get("actionPeriod", action_period or 0.1)
        self.fields = b.fields
        self.scorer = _tasks.Scorer(self.task, n, self.contacts, self.fields)
        self.rngs = [None] * n
        self.steps = np.zeros(n, np.int64)
        self.prev = None
        self.episode_seed = np.zeros(n, np.int64)
        self.reset_infos = [None] * n
        self._kinds = np.zeros(n, np.uint8)
        self._seeds = np.zeros(n, np.int64)
        self._zero = np.zeros((n, 2))
        self._act = np.zeros((n, 2))

    def col(self, name: str) -> np.ndarray:
        return self.backend.state[:, self.fields[name]]

    def snapshot(self) -> np.ndarray:
        """The state rows, copied."""
        return self.backend.state.copy()

    def seed_env(self, i: int, seed):
        """Seeds env i's generator; returns the seed of its next episode."""
        if seed is not None:
            self.rngs[i] = np_random(int(seed))
            return int(seed)
        if self.rngs[i] is None:
            self.rngs[i] = np_random()
        return int(self.rngs[i].integers(0, SEED_MAX))

    def run(self, kinds, actions):
        """One request: envs with kind 2 reset (seeds from their generators unless set in
        self._seeds beforehand), kind 1 step. Returns the reset infos by env."""
        infos = self.backend.step(kinds, actions, self._seeds)
        out = {}
        for info in infos:
            i = info["env"]
            self.scorer.start(i, info)
            self.steps[i] = 0
            self.episode_seed[i] = info["seed"]
            self.reset_infos[i] = info
            out[i] = info
        return out

    def observe(self, copy: bool = True) -> dict:
        imgs = self.backend.images
        return _tasks.observations(imgs.copy() if copy else imgs, self.col("ultrasonic_m"))

    def close(self):
        if self.backend is not None:
            self.backend.close()
            self.backend = None
        if self.proc is not None:
            self.proc.close()
            self.proc = None


_INFO_FIELDS = ("x", "y", "yaw", "speed", "route_index", "route_distance", "sim_time", "ultrasonic_m")


def _step_info(sess: _Session, flags: dict, i=None) -> dict:
    cols = {k: sess.col(k) for k in _INFO_FIELDS}
    info = {k: (float(v[i]) if i is not None else v.copy()) for k, v in cols.items()}
    for k, v in flags.items():
        info[k] = bool(v[i]) if i is not None else v.copy()
    info["episode_seed"] = int(sess.episode_seed[i]) if i is not None else sess.episode_seed.copy()
    return info


class SimguiEnv(Env):
    """One env of a simgui task (Gymnasium's Env API).

    Arguments: ``task`` (an id of simgui.registry(), or a Task), ``transport`` ("fast": the
    fast path; "http": rusim's HTTP API), ``simgui`` (a running simgui to use: its fast path
    socket path, or its HTTP URL, or a SimguiProcess; default: start one), ``render_mode``
    ("rgb_array": render() returns the camera frame), ``frame_size`` (width, height),
    ``action_period`` (seconds of sim time per step), ``randomize`` (domain randomization, on by
    default), ``max_episode_steps``, ``window`` (start simgui with its window).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, task="simgui/KS0223Corridor-v0", *, render_mode=None, transport="fast", simgui=None,
                 frame_size=(84, 84), action_period=None, randomize=True, max_episode_steps=None, window=False,
                 layout=False):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: want one of {self.metadata['render_modes']}")
        self._s = None
        self._s = _Session(task, 1, transport=transport, simgui=simgui, frame_size=frame_size,
                           action_period=action_period, randomize=randomize, max_episode_steps=max_episode_steps,
                           layout=layout, window=window)
        self.task = self._s.task
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self._s.width, self._s.height)
        self.metadata = dict(self.metadata, render_fps=round(1 / self._s.action_period))
        self._needs_reset = True
        self._last = None

    @property
    def max_episode_steps(self) -> int:
        return self.task.max_episode_steps

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._s.rngs[0] = self.np_random
            episode = int(seed)
        else:
            self._s.rngs[0] = self.np_random
            episode = int(self.np_random.integers(0, SEED_MAX))
        self._s._seeds[0] = episode
        self._s._kinds[0] = KIND_RESET
        infos = self._s.run(self._s._kinds, self._s._zero)
        self._prev = self._s.backend.state[0].tolist()
        self._needs_reset = False
        obs = self._obs()
        info = _step_info(self._s, {}, 0)
        info["reset"] = infos[0]
        return obs, info

    def _obs(self):
        s = self._s
        img = s.backend.images[0].copy()
        # As tasks.observations computes it for N envs: float32(m / 5), 0 for NaN (no sonar), at most 1.
        v = np.float32(s.backend.state[0, s.fields["ultrasonic_m"]] * (1.0 / _tasks.SONAR_SCALE_M))
        son = np.array([min(v, np.float32(1.0)) if v > 0 else 0.0], np.float32)
        self._last = img
        return {"image": img, "ultrasonic": son}

    def step(self, action):
        if self._needs_reset:
            raise RuntimeError("call reset() before step() (and after an episode ends)")
        a = np.asarray(action, dtype=np.float64).reshape(1, 2)
        t, st = float(a[0, 0]), float(a[0, 1])
        if not (math.isfinite(t) and math.isfinite(st)):
            raise ValueError(f"action {action!r} is not finite")
        s = self._s
        s._kinds[0] = KIND_STEP
        s._act[0, 0], s._act[0, 1] = min(1.0, max(-1.0, t)), min(1.0, max(-1.0, st))
        s.run(s._kinds, s._act)
        s.steps[0] += 1
        cur = s.backend.state[0].tolist()
        reward, terminated, truncated, flags = s.scorer.score_one(self._prev, cur, int(s.steps[0]))
        self._prev = cur
        self._needs_reset = terminated or truncated
        return self._obs(), float(reward), bool(terminated), bool(truncated), self._info(cur, flags)

    def _info(self, row, flags) -> dict:
        f = self._s.fields
        info = {k: row[f[k]] for k in _INFO_FIELDS}
        info.update((k, bool(v)) for k, v in flags.items())
        info["episode_seed"] = int(self._s.episode_seed[0])
        return info

    def render(self):
        if self.render_mode == "rgb_array":
            return None if self._last is None else self._last.copy()
        return None

    def close(self):
        if self._s is not None:
            self._s.close()
            self._s = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class SimguiVectorEnv(VectorEnv):
    """``num_envs`` envs of a simgui task stepped together on the fast path (Gymnasium's
    VectorEnv API, "next step" autoreset).

    Takes SimguiEnv's arguments (fast path only) and ``copy`` (default True: observations are
    copies; False returns views of the shared memory that the next step overwrites).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10, "autoreset_mode": AUTORESET_NEXT_STEP}

    def __init__(self, task="simgui/KS0223Corridor-v0", num_envs: int = 8, *, render_mode=None, simgui=None,
                 frame_size=(84, 84), action_period=None, randomize=True, max_episode_steps=None, window=False,
                 layout=False, copy=True):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: want one of {self.metadata['render_modes']}")
        self._s = None
        self._s = _Session(task, int(num_envs), transport="fast", simgui=simgui, frame_size=frame_size,
                           action_period=action_period, randomize=randomize, max_episode_steps=max_episode_steps,
                           layout=layout, window=window)
        self.task = self._s.task
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces(self._s.width, self._s.height)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata, render_fps=round(1 / self._s.action_period))
        self._autoreset = np.zeros(self.num_envs, bool)
        self._started = False
        self._np_random = None

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np_random()
        return self._np_random

    @property
    def worlds(self) -> list:
        """The ids of the envs' worlds in simgui (its window lists them)."""
        return list(self._s.backend.info.get("worlds", []))

    def reset(self, *, seed=None, options=None):
        s, n = self._s, self.num_envs
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
            self._np_random = np_random(int(seed))
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} envs")
        for i, sd in enumerate(seeds):
            s._seeds[i] = s.seed_env(i, sd)
        s._kinds[:] = KIND_RESET
        s.run(s._kinds, s._zero)
        s.prev = s.snapshot()
        self._autoreset[:] = False
        self._started = True
        info = _step_info(s, {})
        return s.observe(self.copy), info

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        s, n = self._s, self.num_envs
        a = np.asarray(actions, dtype=np.float64).reshape(n, 2)
        if not np.all(np.isfinite(a)):
            raise ValueError("actions must be finite")
        resetting = self._autoreset.copy()
        kinds = s._kinds
        kinds[:] = np.where(resetting, KIND_RESET, KIND_STEP)
        for i in np.flatnonzero(resetting):
            s._seeds[i] = s.seed_env(int(i), None)
        s.run(kinds, np.clip(a, -1.0, 1.0))
        s.steps[~resetting] += 1
        cur = s.snapshot()
        reward, term, trunc, flags = s.scorer.score(s.prev, cur, s.steps)
        # Envs that were reset this call begin an episode: reward 0, neither ended.
        reward = np.where(resetting, 0.0, reward).astype(np.float64)
        term = term & ~resetting
        trunc = trunc & ~resetting
        for k in flags:
            flags[k] = flags[k] & ~resetting
        s.prev = cur
        self._autoreset = term | trunc
        info = _step_info(s, flags)
        info["_reset"] = resetting
        return s.observe(self.copy), reward, term, trunc, info

    def render(self):
        if self.render_mode == "rgb_array":
            return tuple(self._s.backend.images.copy())
        return None

    def close(self, **kwargs):
        if self._s is not None:
            self._s.close()
            self._s = None
        self.closed = True

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


__all__ = ["SimguiEnv", "SimguiVectorEnv", "HAVE_GYMNASIUM", "KIND_HOLD"]
