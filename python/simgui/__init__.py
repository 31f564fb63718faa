"""simgui for reinforcement learning: Gymnasium-style envs on the simgui simulator.

    import simgui
    env = simgui.make("simgui/KS0223Corridor-v0", render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

    envs = simgui.make_vec("simgui/KS0223Corridor-v0", num_envs=16)   # one fast path session

``make`` and ``make_vec`` mirror ``gymnasium.make`` and ``gymnasium.make_vec``. With Gymnasium
installed the envs are ``gymnasium.Env`` / ``gymnasium.vector.VectorEnv`` and the ids are
registered with ``gymnasium.register`` too. Each env starts and owns a headless simgui
($SIMGUI_BIN, the checkout's bin/simgui, or simgui on PATH) unless given ``simgui=`` (a fast
path socket path, an HTTP URL, or a ``SimguiProcess`` to share).
"""

from __future__ import annotations

from ._compat import HAVE_GYMNASIUM, EnvSpec
from .envs import NO_TIME_LIMIT, SimguiEnv, SimguiVectorEnv
from .process import SimguiProcess, find_binary
from .tasks import TASKS, VISUAL_RANDOMIZATION, Task, parse_randomization

__version__ = "0.1.0"

_registry: dict[str, EnvSpec] = {}


def register(id: str, entry_point: str = "simgui.envs:SimguiEnv", max_episode_steps=None, kwargs=None,
             vector_entry_point: str = "simgui.envs:SimguiVectorEnv"):
    """Registers an env id (as gymnasium.register; also with Gymnasium when it is installed)."""
    spec = EnvSpec(id=id, entry_point=entry_point, max_episode_steps=max_episode_steps, kwargs=dict(kwargs or {}),
                   vector_entry_point=vector_entry_point)
    _registry[id] = spec
    if HAVE_GYMNASIUM:  # pragma: no cover - Gymnasium is not on these machines
        import gymnasium

        if id not in gymnasium.registry:
            # gymnasium.make wraps the env in TimeLimit(max_episode_steps, or the one given to
            # make) and does not pass it on, so its single envs leave the limit to the wrapper
            # (time_limit=False); make_vec passes the limit to the vector env, which keeps it.
            gymnasium.register(id=id, entry_point=entry_point, max_episode_steps=max_episode_steps,
                               kwargs={**dict(kwargs or {}), "time_limit": False},
                               vector_entry_point=vector_entry_point)
    return spec


def registry() -> dict:
    """The registered env specs by id."""
    return dict(_registry)


def spec(id: str) -> EnvSpec:
    if id not in _registry:
        raise KeyError(f"unknown env id {id!r} (known: {', '.join(_registry)})")
    return _registry[id]


def _load(entry_point: str):
    import importlib

    mod, _, name = entry_point.partition(":")
    return getattr(importlib.import_module(mod), name)


def _with_limit(s: EnvSpec, kwargs: dict) -> dict:
    """The registered kwargs, then the caller's, with the spec's max_episode_steps unless the
    caller gives one or time_limit=False: gymnasium.make truncates at the registered limit, and
    an id registered with a limit other than its task's ran to the task's."""
    out = {**s.kwargs, **kwargs}
    if s.max_episode_steps is not None and out.get("time_limit", True) in (True, 1):
        out.setdefault("max_episode_steps", s.max_episode_steps)
    return out


def _spec_limit(n: int):
    """The spec's max_episode_steps for an env's limit: None for time_limit=False's, as a
    Gymnasium spec without a TimeLimit says."""
    return None if n >= NO_TIME_LIMIT else n


def make(id: str, **kwargs):
    """Makes one env, as gymnasium.make: the registered kwargs and episode limit, then yours."""
    s = spec(id)
    env = _load(s.entry_point)(**_with_limit(s, kwargs))
    env.spec = EnvSpec(id=s.id, entry_point=s.entry_point, max_episode_steps=_spec_limit(env.max_episode_steps),
                       kwargs={**s.kwargs, **kwargs}, vector_entry_point=s.vector_entry_point)
    return env


def make_vec(id: str, num_envs: int = 1, vectorization_mode: str | None = None, vector_kwargs=None, **kwargs):
    """Makes num_envs envs as one vector env, as gymnasium.make_vec. simgui's own vector env
    ("vector_entry_point", the default) steps them all with one fast path request;
    vectorization_mode="sync" builds Gymnasium's SyncVectorEnv of single envs instead (Gymnasium
    only)."""
    s = spec(id)
    if vectorization_mode in (None, "vector_entry_point"):
        env = _load(s.vector_entry_point)(num_envs=num_envs, **_with_limit(s, {**kwargs, **dict(vector_kwargs or {})}))
    elif vectorization_mode in ("sync", "async") and HAVE_GYMNASIUM:  # pragma: no cover
        import gymnasium

        return gymnasium.make_vec(id, num_envs=num_envs, vectorization_mode=vectorization_mode,
                                  vector_kwargs=vector_kwargs, **kwargs)
    else:
        raise ValueError(f"vectorization_mode {vectorization_mode!r}: without Gymnasium only the default "
                         "(simgui's vector env) is available")
    env.spec = EnvSpec(id=s.id, entry_point=s.entry_point, max_episode_steps=_spec_limit(env.task.max_episode_steps),
                       kwargs={**s.kwargs, **kwargs}, vector_entry_point=s.vector_entry_point)
    return env


for _t in TASKS.values():
    register(_t.id, max_episode_steps=_t.max_episode_steps, kwargs={"task": _t.id})

__all__ = ["make", "make_vec", "register", "registry", "spec", "SimguiEnv", "SimguiVectorEnv", "SimguiProcess",
           "Task", "TASKS", "find_binary", "HAVE_GYMNASIUM", "__version__"]
