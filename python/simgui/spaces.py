"""Spaces with Gymnasium's attributes, for machines without Gymnasium.

When ``gymnasium`` is importable, ``simgui`` uses ``gymnasium.spaces`` instead and this module
is not used. The classes here mirror the parts of ``gymnasium.spaces`` (Farama Gymnasium 1.x,
``gymnasium/spaces/box.py``, ``dict.py``, ``discrete.py``) that envs and trainers use: ``shape``,
``dtype``, ``low``/``high``, ``n``, ``sample()``, ``contains()``, ``seed()``, ``np_random`` and
``__contains__``.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np


class Space:
    """The base of every space: a shape, a dtype and its own random generator."""

    def __init__(self, shape=None, dtype=None, seed=None):
        self._shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self):
        return self._shape

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self.seed()
        return self._np_random

    def seed(self, seed=None):
        """Seeds the space's generator (as gymnasium.utils.seeding.np_random) and returns [seed]."""
        self._np_random = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
        return [seed]

    def sample(self, mask=None):
        raise NotImplementedError

    def contains(self, x) -> bool:
        raise NotImplementedError

    def __contains__(self, x) -> bool:
        return self.contains(x)


class Box(Space):
    """A box in R^n: each coordinate between low and high (inclusive)."""

    def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.broadcast(np.asarray(low), np.asarray(high)).shape
        shape = tuple(int(d) for d in shape)
        self.low = np.full(shape, low, dtype=dtype) if np.isscalar(low) else np.broadcast_to(np.asarray(low, dtype=dtype), shape).copy()
        self.high = np.full(shape, high, dtype=dtype) if np.isscalar(high) else np.broadcast_to(np.asarray(high, dtype=dtype), shape).copy()
        if np.any(self.low > self.high):
            raise ValueError("Box: low must not exceed high")
        super().__init__(shape, dtype, seed)

    def sample(self, mask=None):
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high.astype(np.int64) + 1, size=self.shape).astype(self.dtype)
        return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

    def contains(self, x) -> bool:
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self.shape
            and np.all(x >= self.low)
            and np.all(x <= self.high)
        )

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

    def __eq__(self, other):
        return (
            isinstance(other, Box)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and np.array_equal(self.low, other.low)
            and np.array_equal(self.high, other.high)
        )


class Discrete(Space):
    """The integers start, ..., start + n - 1."""

    def __init__(self, n, seed=None, start=0):
        self.n = np.int64(n)
        self.start = np.int64(start)
        super().__init__((), np.int64, seed)

    def sample(self, mask=None):
        return np.int64(self.start + self.np_random.integers(self.n))

    def contains(self, x) -> bool:
        if isinstance(x, (int, np.integer)) or (isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer)):
            return bool(self.start <= int(x) < self.start + self.n)
        return False

    def __repr__(self):
        return f"Discrete({self.n})"

    def __eq__(self, other):
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start


class Dict(Space):
    """A dictionary of named spaces; observations are dicts with the same keys."""

    def __init__(self, spaces=None, seed=None, **kwargs):
        spaces = dict(spaces or {}, **kwargs)
        self.spaces = OrderedDict(sorted(spaces.items())) if not isinstance(spaces, OrderedDict) else spaces
        super().__init__(None, None, None)
        if seed is not None:
            self.seed(seed)

    def seed(self, seed=None):
        """Seeds every subspace from one generator, as gymnasium's Dict.seed(int)."""
        super().seed(seed)
        if isinstance(seed, dict):
            return [self.spaces[k].seed(s)[0] for k, s in seed.items()]
        subseeds = self._np_random.integers(np.iinfo(np.int32).max, size=len(self.spaces))
        return [seed] + [self.spaces[k].seed(int(s))[0] for k, s in zip(self.spaces, subseeds)]

    def sample(self, mask=None):
        return OrderedDict((k, s.sample()) for k, s in self.spaces.items())

    def contains(self, x) -> bool:
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(s.contains(x[k]) for k, s in self.spaces.items())

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def items(self):
        return self.spaces.items()

    def __iter__(self):
        return iter(self.spaces)

    def __len__(self):
        return len(self.spaces)

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces


def batch_space(space: Space, n: int) -> Space:
    """The space of n stacked samples of space (gymnasium.vector.utils.batch_space)."""
    if isinstance(space, Box):
        low = np.broadcast_to(space.low, (n,) + space.shape)
        high = np.broadcast_to(space.high, (n,) + space.shape)
        return Box(low, high, (n,) + space.shape, space.dtype)
    if isinstance(space, Dict):
        return Dict(OrderedDict((k, batch_space(s, n)) for k, s in space.spaces.items()))
    if isinstance(space, Discrete):
        return Box(space.start, space.start + space.n - 1, (n,), np.int64)
    raise TypeError(f"cannot batch {space!r}")
