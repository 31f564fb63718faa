"""simgui.register, make and make_vec as Gymnasium's: an id's registered kwargs and episode
limit apply, the caller's on top.

Run with Debian's python3 from the checkout (make test-python does):
    SIMGUI_BIN=bin/simgui /usr/bin/python3 -m unittest discover -s python/tests
"""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simgui  # noqa: E402

ID = "simgui/KS0223Corridor-v0"
SHORT = "test/ShortCorridor-v0"


def setUpModule():
    global PROC
    PROC = simgui.SimguiProcess()
    # Randomization off: the car standing still in the corridor neither crashes nor arrives.
    simgui.register(SHORT, max_episode_steps=7, kwargs={"task": ID, "randomize": False})


def tearDownModule():
    PROC.close()


def episode_length(env, still):
    env.reset(seed=1)
    for k in range(1, 1000):
        out = env.step(still)
        terminated, truncated = np.any(out[2]), np.any(out[3])
        if terminated or truncated:
            return k, bool(terminated)
    return None, False


class Registry(unittest.TestCase):
    def test_registered_limit_truncates(self):
        # The id's max_episode_steps (7), not its task's (100), as gymnasium.make does.
        with simgui.make(SHORT, simgui=PROC) as env:
            self.assertEqual(env.spec.max_episode_steps, 7)
            self.assertEqual(episode_length(env, [0.0, 0.0]), (7, False))
        with simgui.make_vec(SHORT, num_envs=2, simgui=PROC) as envs:
            self.assertEqual(envs.spec.max_episode_steps, 7)
            self.assertEqual(episode_length(envs, np.zeros((2, 2))), (7, False))

    def test_callers_limit_wins(self):
        with simgui.make(SHORT, simgui=PROC, max_episode_steps=3) as env:
            self.assertEqual(env.spec.max_episode_steps, 3)
            self.assertEqual(episode_length(env, [0.0, 0.0]), (3, False))
        with simgui.make_vec(SHORT, num_envs=2, simgui=PROC, vector_kwargs={"max_episode_steps": 4}) as envs:
            self.assertEqual(episode_length(envs, np.zeros((2, 2))), (4, False))
        # time_limit=False leaves the limit to a TimeLimit wrapper: the registered one is not set.
        with simgui.make(SHORT, simgui=PROC, time_limit=False) as env:
            env.reset(seed=1)
            ends = [env.step([0.0, 0.0])[3] for _ in range(20)]
            self.assertEqual(ends, [False] * 20)
            # Its spec says it has no limit, as a Gymnasium spec without a TimeLimit does.
            self.assertIsNone(env.spec.max_episode_steps)
        with simgui.make_vec(SHORT, num_envs=2, simgui=PROC, time_limit=False) as envs:
            self.assertIsNone(envs.spec.max_episode_steps)

    def test_task_ids_keep_their_limits(self):
        with simgui.make(ID, simgui=PROC) as env:
            self.assertEqual(env.spec.max_episode_steps, simgui.TASKS[ID].max_episode_steps)


if __name__ == "__main__":
    unittest.main()
