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
import operator
import threading

import numpy as np

from . import tasks as _tasks
from ._compat import AUTORESET_NEXT_STEP, HAVE_GYMNASIUM, Env, VectorEnv, batch_space, np_random, np_random_seeded, spaces
from .fastpath import KIND_HOLD, KIND_RESET, KIND_STEP, FastPathClient, FastPathError, decode_resets
from .process import SimguiProcess

#: Episode seeds drawn from an env's generator lie in 0..SEED_MAX.
SEED_MAX = 2**31 - 1


_ONE, _MINUS_ONE = np.float64(1.0), np.float64(-1.0)

#: Seeds go to simgui as 64-bit signed integers.
_SEED_LIMIT = 2**63 - 1

#: The step limit of an env made with time_limit=False and no max_episode_steps: none a run
#: reaches (a TimeLimit wrapper truncates its episodes).
NO_TIME_LIMIT = 2**53


def _flag_text(value) -> str:
    """A randomization value as simgui's flags take it: a (lo, hi) pair as "lo,hi", a bool as
    true/false, anything else as its text ("0.5,1", 0.2, "true")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list, np.ndarray)) and len(value) == 2:
        return f"{value[0]},{value[1]}"
    return str(value)


def _whole(v) -> bool:
    """Whether v is a whole number (a bool is not one, though Python says it is an int)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _check_seed(seed):
    if seed is not None and not (_whole(seed) and 0 <= int(seed) <= _SEED_LIMIT):
        raise ValueError(f"seed {seed!r}: want a whole number from 0 to {_SEED_LIMIT}")


def _check_options(options):
    if options:
        raise ValueError(f"reset options {options!r}: simgui's envs take none (randomization, the scenario "
                         "and the frame are set when the env is made; a vector env resets every env)")


def _check_args(n, frame_size, action_period, max_episode_steps, switches):
    """Checks the arguments that make an env before simgui is started, naming the argument.
    simgui checks the ranges it owns again (frame sides, envs per session) and says them."""
    if not (_whole(n) and n >= 1):
        raise ValueError(f"num_envs {n!r}: want a whole number, at least 1")
    try:
        ok = len(frame_size) == 2 and all(_whole(v) and v >= 0 for v in frame_size)
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"frame_size {frame_size!r}: want (width, height), two whole numbers of pixels "
                         "((0, 0): the camera's own size)")
    if (frame_size[0] == 0) != (frame_size[1] == 0):
        raise ValueError(f"frame_size {frame_size!r}: give both sides, or (0, 0) for the camera's own size")
    if action_period is not None and not (isinstance(action_period, (int, float, np.floating, np.integer))
                                          and not isinstance(action_period, bool)
                                          and math.isfinite(action_period) and action_period > 0):
        raise ValueError(f"action_period {action_period!r}: want seconds of sim time per step, a positive number "
                         "(a whole number of the scenario's physics steps), or None for the scenario's")
    if max_episode_steps is not None and not (_whole(max_episode_steps) and max_episode_steps >= 1):
        raise ValueError(f"max_episode_steps {max_episode_steps!r}: want a whole number, at least 1, or None")
    for name, v in switches.items():
        # "no" would be true: a switch is a bool.
        if not isinstance(v, (bool, np.bool_)):
            raise ValueError(f"{name} {v!r}: want True or False")


def _spaces(width: int, height: int, actions: int = 2):
    obs = spaces.Dict({
        "image": spaces.Box(0, 255, (height, width, 3), np.uint8),
        "ultrasonic": spaces.Box(0.0, 1.0, (1,), np.float32),
    })
    act = spaces.Box(-1.0, 1.0, (actions,), np.float32)
    return obs, act


def _action_text(names) -> str:
    """The action's columns as errors name them: "(throttle, steer)"."""
    return "(" + ", ".join(names) + ")"


class _Session:
    """N envs of one task on one backend (fast path or HTTP), with their episode bookkeeping.

    The backend's ``kinds``, ``actions`` and ``seeds`` are the next request as it will be sent;
    kinds stay KIND_STEP between requests, so a step writes the actions only.
    """

    def __init__(self, task, n: int, *, transport: str = "fast", simgui=None, frame_size=(84, 84),
                 action_period: float | None = None, randomize: bool = True, max_episode_steps: int | None = None,
                 layout: bool = False, window: bool = False, label: str = "", randomization: dict | None = None,
                 scenario=None, reply_timeout: float = 120.0, time_limit: bool = True):
        _check_args(n, frame_size, action_period, max_episode_steps,
                    {"randomize": randomize, "layout": layout, "window": window, "time_limit": time_limit})
        if not (isinstance(reply_timeout, (int, float, np.floating, np.integer)) and not isinstance(reply_timeout, bool)
                and math.isfinite(reply_timeout) and reply_timeout > 0):
            raise ValueError(f"reply_timeout {reply_timeout!r}: want seconds, a positive number")
        self.reply_timeout = float(reply_timeout)
        self.task = _tasks.lookup(task)
        if scenario is not None:
            self.task = self.task.with_scenario(scenario)
        if max_episode_steps is not None:
            self.task = self.task.with_options(max_episode_steps=int(max_episode_steps))
        elif not time_limit:
            self.task = self.task.with_options(max_episode_steps=NO_TIME_LIMIT)
        self.n = n
        self.proc = None
        self.backend = None
        try:
            self._start(n, transport, simgui, frame_size, action_period, randomize, layout, window, label,
                        randomization)
        except BaseException:
            self.close()  # what was made so far: the connection, simgui if it is this env's
            raise

    def _start(self, n, transport, simgui, frame_size, action_period, randomize, layout, window, label,
               randomization):
        asked = randomization  # as given, for errors
        # Keys as simgui reads them: without case; values as its reset flags take them.
        extra = {str(k).strip().lower(): _flag_text(v) for k, v in (randomization or {}).items()}
        ranges = [k for k in extra if k != "enabled"]
        said = extra.get("enabled", "").strip().lower()
        if not randomize and said in ("true", "1"):
            raise ValueError("randomization enabled=true was given with randomize=False")
        if ranges and (not randomize or said in ("false", "0")):
            raise ValueError("randomization ranges were given with randomization off (randomize=False or enabled=false)")
        # Ranges given here are meant to be drawn, whether or not the task's scenario has
        # randomization on (simgui refuses ranges that would not be).
        randomization = {"enabled": "false"} if not randomize else {"enabled": "true"} if ranges else {}
        randomization.update(extra)
        w, h = int(frame_size[0]), int(frame_size[1])
        if transport == "fast":
            if simgui is None:
                self.proc = simgui = SimguiProcess(window=window)
            if not isinstance(simgui, SimguiProcess) and str(simgui).lower().startswith(("http://", "https://")):
                raise ValueError(f"simgui {simgui!r} is a URL: the fast path takes its socket's path "
                                 "(simgui run --fast-path PATH); give transport='http' to use the HTTP API there")
            path = simgui.fast_path if isinstance(simgui, SimguiProcess) else str(simgui).removeprefix("unix:")
            self.backend = FastPathClient(path, self.reply_timeout)
            if isinstance(simgui, SimguiProcess):
                self.backend.process = simgui  # a broken connection then says why simgui ended
            try:
                self.backend.open(envs=n, scenario=self.task.scenario_text(), frame=(w, h),
                                  vehicle_params=self.task.vehicle_params, track_params=self.task.track_params,
                                  randomization=randomization, action_period=action_period or 0.0, layout=layout,
                                  label=label or self.task.id.split("/")[-1], sensors=self.task.sensors)
            except FastPathError as e:
                # simgui owns the ranges (frame sides, envs per session, action periods in
                # whole steps) and names the field at fault; this argument is what set it.
                arg = {"envs": ("num_envs", n), "frameWidth": ("frame_size", frame_size),
                       "frameHeight": ("frame_size", frame_size),
                       "actionPeriod": ("action_period", action_period),
                       "randomization": ("randomization", asked)}.get(e.field)
                if e.field == "scenario" and self.task._own():
                    # A file of one's own; simgui saw its text only, so the file is named here.
                    arg = ("scenario", self.task.scenario)
                if arg:
                    # In the argument's words, not the wire's.
                    why = str(e).removeprefix("open: ").removeprefix("fast path scenario: ")
                    why = why.replace("frameWidth and frameHeight", "frame_size")
                    raise ValueError(f"{arg[0]} {arg[1]!r}: {why}") from e
                raise
            self.contacts = True
        elif transport == "http":
            if n != 1:
                raise ValueError("the HTTP transport runs one env; use the fast path for vector envs")
            if action_period is not None:
                raise ValueError("the HTTP API's action period is its scenario's runtime.actionPeriod")
            if layout:
                # rusim's /reset reply has no place for the track's elements.
                raise ValueError("layout=True: the track's layout comes with the fast path's resets only; "
                                 "use transport='fast'")
            from .http import HttpBackend

            if simgui is None:
                with self.task.scenario_path() as path:
                    self.proc = simgui = SimguiProcess(http=True, scenario=str(path), window=window)
            url = simgui.http_url if isinstance(simgui, SimguiProcess) else str(simgui)
            self.backend = HttpBackend(url, frame=(w, h), vehicle_params=self.task.vehicle_params,
                                       track_params=self.task.track_params, randomization=randomization,
                                       expect=self.task.plugin_ids(), timeout=self.reply_timeout)
            if isinstance(simgui, SimguiProcess):
                self.backend.process = simgui  # a broken connection then says why simgui ended
            self.contacts = False
        else:
            raise ValueError(f"transport {transport!r}: want 'fast' or 'http'")
        b = self.backend
        fr = b.info["frame"]
        self.width, self.height = fr["width"], fr["height"]
        self.action_period = b.info.get("actionPeriod", action_period or 0.1)
        self.fields = b.fields
        self.action_names = tuple(b.action_names)
        self.scorer = _tasks.Scorer(self.task, n, self.contacts, self.fields)
        self.rngs = [None] * n
        # Requests so far, and the request each env's episode began with: an env has taken
        # count - start steps of its episode.
        self.count = 0
        self.start = np.zeros(n, np.int64)
        self.prev = None
        self.episode_seed = np.zeros(n, np.int64)
        # Env i's reset info: the step reply's JSON until someone asks (reset_info), then the
        # dict. Only off-route tasks need it at once (the route's geometry).
        self._reset_src = np.full(n, None, object)
        self._eager = self.task.off_route_m is not None
        self.sonar = self.fields["ultrasonic_m"]
        # A flying vehicle's infos say its altitude and climb rate too.
        self._info_keys(_INFO_FIELDS + (("z", "climb") if "vertical" in self.action_names else ()))
        self._sonar_known = False
        b.kinds[:] = KIND_STEP

    def _info_keys(self, keys):
        """Sets the state fields infos carry: their names, rows and a getter of a row's."""
        self.info_fields = tuple(keys)
        self.info_rows = np.array([self.fields[k] for k in self.info_fields])
        self.info_items = operator.itemgetter(*self.info_rows.tolist())  # of a state row as a list

    def _check_sonar(self):
        """After the first reset: a vehicle without a sonar reads NaN there (simgui's state
        says so), so its infos leave ultrasonic_m out rather than carry a NaN that compares
        unequal to itself (Gymnasium's determinism check compares infos with ==)."""
        self._sonar_known = True
        if np.isnan(self.backend.state[:, self.sonar]).all():
            self._info_keys(k for k in self.info_fields if k != "ultrasonic_m")

    def rows(self) -> np.ndarray:
        """The state, copied as a (K, N) array: row k is state field k of every env."""
        return self.backend.state.T.copy()

    def seed_env(self, i: int, seed):
        """Seeds env i's generator; returns the seed of its next episode."""
        if seed is not None:
            self.rngs[i] = np_random(int(seed))
            return int(seed)
        if self.rngs[i] is None:
            self.rngs[i] = np_random()
        return int(self.rngs[i].integers(0, SEED_MAX))

    def reset_envs(self, which) -> bytes:
        """One request resetting the envs ``which`` (indices) with the seeds in
        backend.seeds and stepping the others; returns the reply's payload."""
        # Element by element: a reset is one env or a few, where a masked numpy write costs more.
        b = self.backend
        kinds, seeds, start, episode_seed, src = b.kinds, b.seeds, self.start, self.episode_seed, self._reset_src
        for i in which:
            kinds[i] = KIND_RESET
        try:
            payload = b.request()
        finally:
            for i in which:
                kinds[i] = KIND_STEP
        self.count += 1
        if not self._sonar_known:
            self._check_sonar()
        for i in which:
            start[i] = self.count
            episode_seed[i] = seeds[i]
            src[i] = payload
        if self._eager:
            for info in decode_resets(payload):
                src[info["env"]] = info
                self.scorer.start(info["env"], info)
        return payload

    def reset_info(self, i: int) -> dict:
        """Env i's episode info from its last reset (simgui's ResetInfo as a dict)."""
        if not 0 <= i < self.n:
            raise IndexError(f"env {i}: this vector env has envs 0..{self.n - 1}")
        src = self._reset_src[i]
        if isinstance(src, bytes):
            for info in decode_resets(src):
                e = info["env"]
                if self._reset_src[e] is src:
                    self._reset_src[e] = info
            src = self._reset_src[i]
        return src

    def observe(self, rows: np.ndarray, copy: bool = True) -> dict:
        imgs = self.backend.images
        return _tasks.observations(imgs.copy() if copy else imgs, rows[self.sonar])

    def close(self):
        if self.backend is not None:
            self.backend.close()
            self.backend = None
        if self.proc is not None:
            self.proc.close()
            self.proc = None


_INFO_FIELDS = ("x", "y", "yaw", "speed", "route_index", "route_distance", "sim_time", "ultrasonic_m")


def _batch_info(sess: _Session, rows: np.ndarray) -> dict:
    """The vector info's state part: the info fields' rows (copied once) and the episode seeds."""
    info = dict(zip(sess.info_fields, rows[sess.info_rows]))
    info["episode_seed"] = sess.episode_seed.copy()
    return info


def _masked(info: dict, every: np.ndarray) -> dict:
    """Adds Gymnasium's vector-info masks: "_k" beside every key k, saying which envs have it
    (all of them, here: one shared read-only array), so wrappers such as DictInfoToList read
    the info as they read Gymnasium's own vector envs'. Keys that begin with "_" are masks or
    flags already and get none."""
    for k in [k for k in info if not k.startswith("_")]:
        info["_" + k] = every
    return info


def _one_info(sess: _Session, row: list, flags: dict) -> dict:
    """The single env's info: the state fields as floats, the flags as bools, the episode seed."""
    info = dict(zip(sess.info_fields, sess.info_items(row)))
    info.update(flags)
    info["episode_seed"] = int(sess.episode_seed[0])
    return info


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
