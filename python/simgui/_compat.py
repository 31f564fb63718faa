"""Gymnasium when it is importable, else stand-ins with the same attributes.

With Gymnasium the envs subclass ``gymnasium.Env`` and ``gymnasium.vector.VectorEnv`` and use
``gymnasium.spaces``; without it (Debian has no package) ``simgui.spaces`` and the small bases
below stand in. The bases keep Gymnasium's seeding contract: ``reset(seed=s)`` seeds
``np_random`` as ``gymnasium.utils.seeding.np_random(s)`` does, and a reset without a seed
continues it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

try:  # pragma: no cover - exercised only where Gymnasium is installed
    import gymnasium as _gym
    from gymnasium import spaces
    from gymnasium.vector import VectorEnv as _VectorBase
    from gymnasium.vector.utils import batch_space

    HAVE_GYMNASIUM = True
except ImportError:
    _gym = None
    from . import spaces
    from .spaces import batch_space

    HAVE_GYMNASIUM = False


def np_random(seed=None):
    """A generator seeded as gymnasium.utils.seeding.np_random(seed)."""
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative int or None, not {seed!r}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))


def np_random_seeded(seed=None):
    """np_random(seed) and its seed, as gymnasium.utils.seeding.np_random returns them (an
    unseeded generator's seed is its fresh entropy)."""
    if seed is not None:
        return np_random(seed), int(seed)
    seq = np.random.SeedSequence()
    return np.random.Generator(np.random.PCG64(seq)), int(seq.entropy)


@dataclass
class _EnvSpec:
    """The parts of gymnasium.envs.registration.EnvSpec that simgui's registry fills in."""

    id: str
    entry_point: str
    max_episode_steps: int | None = None
    kwargs: dict = field(default_factory=dict)
    vector_entry_point: str | None = None


class _Env:
    """A base with gymnasium.Env's seeding and attributes, for when Gymnasium is missing."""

    metadata: dict = {"render_modes": []}
    render_mode = None
    spec = None
    _np_random = None
    _np_random_seed = None

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random, self._np_random_seed = np_random_seeded()
        return self._np_random

    @np_random.setter
    def np_random(self, value):
        self._np_random, self._np_random_seed = value, -1  # as Gymnasium: a generator's seed is not known

    @property
    def np_random_seed(self) -> int:
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = np_random_seeded()
        return self._np_random_seed

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random, self._np_random_seed = np_random_seeded(seed)
        return None

    @property
    def unwrapped(self):
        return self

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _VectorEnv:
    """A base with gymnasium.vector.VectorEnv's attributes, for when Gymnasium is missing."""

    metadata: dict = {"render_modes": [], "autoreset_mode": "NextStep"}
    render_mode = None
    spec = None
    closed = False

    @property
    def unwrapped(self):
        return self

    def close(self, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


if HAVE_GYMNASIUM:  # pragma: no cover
    # Gymnasium's own spec: its checkers and wrappers read more of it than simgui fills in.
    from gymnasium.envs.registration import EnvSpec

    Env = _gym.Env
    VectorEnv = _VectorBase
    try:  # Gymnasium 1.1 names the mode with an enum
        from gymnasium.vector import AutoresetMode

        AUTORESET_NEXT_STEP = AutoresetMode.NEXT_STEP
    except ImportError:
        AUTORESET_NEXT_STEP = "NextStep"
else:
    EnvSpec = _EnvSpec
    Env = _Env
    VectorEnv = _VectorEnv
    AUTORESET_NEXT_STEP = "NextStep"
