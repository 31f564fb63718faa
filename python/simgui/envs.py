"""Gymnasium-style envs on simgui: SimguiEnv (one env) and SimguiVectorEnv (N envs stepped by one
fast path request, Gymnasium 1.x "next step" autoreset).

Observations are ``{"image": uint8 (H, W, 3), "ultrasonic": float32 (1,)}`` (the sonar in
metres / 5, clipped to 0..1, 0 for a vehicle without one); actions are ``Box(-1, 1, (2,),
float32)``: throttle and steer, steer > 0 turning right (rusim's convention), and for a vehicle
that flies ``(3,)``, the third climbing (``action_names`` says which). One step is one
action period of sim time (default 0.1 s). ``reset(seed=s)`` followed by the same actions gives
the same observations; env i of a vector env reset with seed s is the env reset with s + i.
"""

from __future__ import annotations

import functools
import math
import threading

import numpy as np

from . import tasks as _tasks
from ._compat import AUTORESET_NEXT_STEP, HAVE_GYMNASIUM, Env, VectorEnv, batch_space, np_random, np_random_seeded
from .fastpath import KIND_HOLD
from .session import (  # noqa: F401 (NO_TIME_LIMIT: simgui exports it from here)
    NO_TIME_LIMIT,
    SEED_MAX,
    _Session,
    _action_text,
    _batch_info,
    _check_options,
    _check_seed,
    _masked,
    _one_info,
    _spaces,
    _whole,
)

_ONE, _MINUS_ONE = np.float64(1.0), np.float64(-1.0)


def _one_thread(method):
    """Refuses a call while another thread is in one of the env's steps or resets, before it
    touches anything: the request's buffers and the episode seeds are the env's own, and a
    refused call must leave them as they were."""

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        busy = self._busy
        if not busy.acquire(blocking=False):
            raise RuntimeError("another thread is stepping this env: use an env from one thread at a time")
        try:
            return method(self, *args, **kwargs)
        finally:
            busy.release()

    return guarded


class SimguiEnv(Env):
    """One env of a simgui task (Gymnasium's Env API).

    Arguments: ``task`` (an id of simgui.registry(), or a Task), ``transport`` ("fast": the
    fast path; "http": rusim's HTTP API), ``simgui`` (a running simgui to use: its fast path
    socket path, or its HTTP URL, or a SimguiProcess; default: start one), ``render_mode``
    ("rgb_array": render() returns the camera frame), ``frame_size`` (width, height),
    ``action_period`` (seconds of sim time per step), ``randomize`` (domain randomization, on by
    default), ``randomization`` (more groups to draw over the scenario's, e.g.
    ``{"sensors.image_noise": (0, 4)}``), ``scenario`` (a scenario file of one's own instead of
    the task's, scored by the task's rewards), ``max_episode_steps``, ``time_limit`` (False: the
    env truncates only at a ``max_episode_steps`` given here, leaving the limit to a TimeLimit
    wrapper, as ``gymnasium.make`` registers it), ``window`` (start simgui with its window).

    A closed env is started again by ``reset()`` (Stable-Baselines3's env checker closes an env,
    then resets it).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, task="simgui/KS0223Corridor-v0", *, render_mode=None, transport="fast", simgui=None,
                 frame_size=(84, 84), action_period=None, randomize=True, max_episode_steps=None, window=False,
                 layout=False, randomization=None, scenario=None, reply_timeout=120.0, time_limit=True):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: want one of {self.metadata['render_modes']}")
        self._s = None
        self._busy = threading.Lock()  # see _one_thread
        # What reset() starts a closed env again with.
        self._args = (task, dict(transport=transport, simgui=simgui, frame_size=frame_size,
                                 action_period=action_period, randomize=randomize,
                                 max_episode_steps=max_episode_steps, layout=layout, window=window,
                                 randomization=randomization, scenario=scenario, reply_timeout=reply_timeout,
                                 time_limit=time_limit))
        self._s = _Session(self._args[0], 1, **self._args[1])
        self.task = self._s.task
        self.render_mode = render_mode
        self.action_names = self._s.action_names
        self.action_period = self._s.action_period  # seconds of sim time per step, as simgui runs it
        self.observation_space, self.action_space = _spaces(self._s.width, self._s.height, len(self.action_names))
        self.metadata = dict(self.metadata, render_fps=round(1 / self._s.action_period))
        self._needs_reset = True
        self._last = None
        self._act = self._s.backend.actions[0]  # the request's throttle, steer (and vertical)

    @property
    def max_episode_steps(self) -> int:
        return self.task.max_episode_steps

    @_one_thread
    def reset(self, *, seed=None, options=None):
        _check_seed(seed)
        _check_options(options)
        if self._s is None:  # closed: started again, as it was made
            self._s = _Session(self._args[0], 1, **self._args[1])
            self._act = self._s.backend.actions[0]
        s = self._s
        super().reset(seed=seed)
        s.rngs[0] = self.np_random
        s.backend.seeds[0] = int(seed) if seed is not None else int(self.np_random.integers(0, SEED_MAX))
        s.reset_envs((0,))
        self._steps = 0
        self._prev = s.backend.state[0].tolist()
        self._needs_reset = False
        info = _one_info(s, self._prev, {})
        info["reset"] = s.reset_info(0)
        return self._obs(self._prev), info

    def _obs(self, row: list):
        img = self._s.backend.images[0].copy()
        self._last = img
        return {"image": img, "ultrasonic": np.array([_tasks.sonar_obs(row[self._s.sonar])], np.float32)}

    def _live(self):
        if self._s is None:
            raise RuntimeError("the env is closed")
        return self._s

    @_one_thread
    def step(self, action):
        self._live()
        if self._needs_reset:
            raise RuntimeError("call reset() before step() (and after an episode ends)")
        names = self.action_names
        if type(action) is np.ndarray and action.shape == (len(names),) and action.dtype.kind == "f":
            xs = action.tolist()
        else:
            a = np.asarray(action)
            if a.dtype.kind not in "iuf":  # a complex part would be dropped with a warning only
                raise ValueError(f"action {action!r}: want {len(names)} real numbers, {_action_text(names)}")
            if a.shape != (len(names),):
                raise ValueError(f"action of shape {a.shape}: want ({len(names)},), {_action_text(names)}")
            xs = a.tolist()
        if not all(math.isfinite(x) for x in xs):
            raise ValueError(f"action {action!r} is not finite")
        s = self._s
        b = s.backend
        act = self._act
        for k, x in enumerate(xs):
            act[k] = min(1.0, max(-1.0, x))
        b.request()  # kinds[0] is KIND_STEP: the reply is empty
        self._steps += 1
        cur = b.state[0].tolist()
        reward, terminated, truncated, flags = s.scorer.score_one(self._prev, cur, self._steps)
        self._prev = cur
        self._needs_reset = terminated or truncated
        return self._obs(cur), float(reward), terminated, truncated, _one_info(s, cur, flags)

    def render(self):
        if self.render_mode == "rgb_array":
            return None if self._last is None else self._last.copy()
        return None

    def close(self):
        if self._s is not None:
            self._s.close()
            self._s = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

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
                 layout=False, copy=True, randomization=None, transport="fast", scenario=None, reply_timeout=120.0,
                 time_limit=True):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: want one of {self.metadata['render_modes']}")
        self._s = None
        self._busy = threading.Lock()  # see _one_thread
        if not isinstance(copy, (bool, np.bool_)):
            raise ValueError(f"copy {copy!r}: want True or False")
        if transport != "fast":
            raise ValueError(f"transport {transport!r}: a vector env steps its envs together on the fast path "
                             "(transport='fast'); the HTTP transport runs one env (simgui.make)")
        self._s = _Session(task, num_envs, transport="fast", simgui=simgui, frame_size=frame_size,
                           action_period=action_period, randomize=randomize, max_episode_steps=max_episode_steps,
                           layout=layout, window=window, randomization=randomization, scenario=scenario,
                           reply_timeout=reply_timeout, time_limit=time_limit)
        self.task = self._s.task
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.copy = copy
        self.action_names = self._s.action_names
        self.action_period = self._s.action_period  # seconds of sim time per step, as simgui runs it
        self.single_observation_space, self.single_action_space = _spaces(self._s.width, self._s.height,
                                                                          len(self.action_names))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata, render_fps=round(1 / self._s.action_period))
        self._autoreset = None
        self._act_shape = (self.num_envs, len(self.action_names))
        self._every = np.ones(self.num_envs, bool)
        self._every.flags.writeable = False
        self._limit = self.task.max_episode_steps
        self._started = False
        self._np_random = None
        self._np_random_seed = None

    # The generator and its seed as Gymnasium's VectorEnv has them (reset(seed=s) seeds it
    # with s; episode seeds come from each env's own generator).
    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random, self._np_random_seed = np_random_seeded()
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random, self._np_random_seed = value, -1

    @property
    def np_random_seed(self) -> int:
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = np_random_seeded()
        return self._np_random_seed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def worlds(self) -> list:
        """The ids of the envs' worlds in simgui (its window lists them)."""
        return list(self._live().backend.info.get("worlds", []))

    @_one_thread
    def reset(self, *, seed=None, options=None):
        if self._s is None:
            raise RuntimeError("the env is closed")
        _check_options(options)
        s, n = self._s, self.num_envs
        if seed is None:
            seeds = [None] * n
        elif _whole(seed):
            seeds = [int(seed) + i for i in range(n)]
            self._np_random, self._np_random_seed = np_random_seeded(int(seed))
        else:
            try:
                seeds = list(seed)
            except TypeError:
                raise ValueError(f"seed {seed!r}: want a whole number, a list of {n} seeds, or None") from None
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} envs")
        for sd in seeds:
            _check_seed(sd)
        b = s.backend
        for i, sd in enumerate(seeds):
            b.seeds[i] = s.seed_env(i, sd)
        s.reset_envs(range(n))
        s.prev = rows = s.rows()
        self._autoreset = None
        self._started = True
        return s.observe(rows, self.copy), _masked(_batch_info(s, rows), self._every)

    @_one_thread
    def step(self, actions):
        if self._s is None:
            raise RuntimeError("the env is closed")
        if not self._started:
            raise RuntimeError("call reset() before step()")
        s = self._s
        b = s.backend
        a = np.asarray(actions)
        if a.dtype.kind not in "iuf":  # a complex part would be dropped with a warning only
            raise ValueError(f"actions of dtype {a.dtype}: want real numbers, a {_action_text(self.action_names)} row per env")
        if a.shape != self._act_shape:
            raise ValueError(f"actions of shape {a.shape}: want {self._act_shape}, a {_action_text(self.action_names)} row per env")
        if b"\x00" in np.isfinite(a).tobytes():  # a.all() costs more on arrays this small
            raise ValueError("actions must be finite")
        np.minimum(a, _ONE, out=b.actions)
        np.maximum(b.actions, _MINUS_ONE, out=b.actions)
        resetting = self._autoreset  # the envs that ended last step, or None
        if resetting is None:
            b.request()  # every kind is KIND_STEP: the reply is empty
            s.count += 1
            rows = s.rows()
            reward, ends = s.scorer.score(s.prev, rows, s.start <= s.count - self._limit)
            resetting = np.zeros(self.num_envs, bool)
        else:
            which = resetting.nonzero()[0].tolist()
            for i in which:
                b.seeds[i] = s.seed_env(i, None)
            s.reset_envs(which)
            rows = s.rows()
            reward, ends = s.scorer.score(s.prev, rows, s.start <= s.count - self._limit)
            # Envs that were reset this call begin an episode: reward 0, neither ended.
            ends[:, resetting] = False
            reward[resetting] = 0.0
        s.prev = rows
        term, trunc, success, crash, off = ends
        self._autoreset = (term | trunc) if b"\x01" in ends[:2].tobytes() else None
        # The info's state rows, copied once (rows is kept as the next step's prev).
        info = dict(zip(s.info_fields, rows[s.info_rows]))
        info["episode_seed"] = s.episode_seed.copy()
        info["success"], info["crash"], info["off_route"] = success, crash, off
        _masked(info, self._every)
        info["_reset"] = resetting
        imgs = b.images
        return _tasks.observations(imgs.copy() if self.copy else imgs, rows[s.sonar]), reward, term, trunc, info

    def reset_info(self, i: int) -> dict:
        """Env i's episode info from its last reset: seed, randomization draws, route, spawn
        (and the track's layout with ``layout=True``)."""
        if self._s is None:
            raise RuntimeError("the env is closed")
        return self._s.reset_info(int(i))

    def render(self):
        if self.render_mode == "rgb_array":
            return tuple(self._live().backend.images.copy())
        return None

    def _live(self) -> _Session:
        # A closed env says so, as its reset and step do, rather than fail on its missing session.
        if self._s is None:
            raise RuntimeError("the env is closed")
        return self._s

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
