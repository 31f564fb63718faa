"""The session behind simgui's envs: N envs of one task on one backend (the fast path or the
HTTP API), their episode bookkeeping, and the checks of the envs' arguments."""

from __future__ import annotations

import math
import operator

import numpy as np

from . import tasks as _tasks
from ._compat import np_random, spaces
from .fastpath import KIND_RESET, KIND_STEP, FastPathClient, FastPathError, decode_resets
from .process import SimguiProcess

#: Episode seeds drawn from an env's generator lie in 0..SEED_MAX.
SEED_MAX = 2**31 - 1

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
                                       expect=self.task.plugin_ids(), expect_period=self.task.action_period(),
                                       timeout=self.reply_timeout)
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
