"""A quadcopter trains like a car: its envs open without a sonar, take a third action that
climbs, and report altitude, on the fast path and on the training API alike.

Run with Debian's python3 from the checkout (make test-python does):
    SIMGUI_BIN=bin/simgui /usr/bin/python3 -m unittest discover -s python/tests
"""

import math
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simgui  # noqa: E402

DRONE = """\
scenarioId: drone-arena
runtime: {seed: 7, stepSize: 0.005, actionPeriod: 0.1}
world: {trackId: track.basic_arena.v1}
vehicle: {vehicleId: vehicle.drone.simple.v1}
"""


class Drone(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.scenario = os.path.join(cls.dir.name, "drone.yaml")
        with open(cls.scenario, "w") as f:
            f.write(DRONE)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def climb(self, env):
        self.assertEqual(env.action_space.shape, (3,))
        self.assertEqual(env.action_names, ("throttle", "steer", "vertical"))
        _, info = env.reset(seed=3)
        self.assertAlmostEqual(info["z"], 1.0, places=6)  # the drone's start altitude
        self.assertNotIn("ultrasonic_m", info)  # no sonar on a drone
        for _ in range(10):
            obs, _, term, trunc, info = env.step(np.array([0.0, 0.0, 1.0], np.float32))
        # 1 s at full climb: 3 m/s² up to 2.5 m/s, then 2.5 m/s: about 1.46 m up.
        self.assertAlmostEqual(info["z"], 2.46, delta=0.03)
        self.assertAlmostEqual(info["climb"], 2.5, delta=0.01)
        self.assertEqual(obs["ultrasonic"][0], 0.0)
        with self.assertRaisesRegex(ValueError, r"want \(3,\), \(throttle, steer, vertical\)"):
            env.step(np.zeros(2, np.float32))
        return info

    def test_fast_path(self):
        with simgui.make("simgui/ABCorridor-v0", scenario=self.scenario) as env:
            self.climb(env)

    def test_http(self):
        with simgui.make("simgui/ABCorridor-v0", scenario=self.scenario, transport="http") as env:
            self.climb(env)

    def test_http_takes_the_scenarios_period_and_camera(self):
        # A scenario without runtime.actionPeriod steps 0.05 s; (0, 0) is the camera's own size.
        path = os.path.join(self.dir.name, "noperiod.yaml")
        with open(path, "w") as f:
            f.write(DRONE.replace(", actionPeriod: 0.1", ""))
        with simgui.make("simgui/ABCorridor-v0", scenario=path, transport="http", frame_size=(0, 0)) as env:
            self.assertEqual(env.observation_space["image"].shape, (120, 160, 3))
            self.assertEqual(env.metadata["render_fps"], 20)
            _, info = env.reset(seed=1)
            _, _, _, _, info2 = env.step(np.zeros(3, np.float32))
            self.assertAlmostEqual(info2["sim_time"] - info["sim_time"], 0.05, places=9)
        with self.assertRaisesRegex(ValueError, r"frame_size \(1500, 16\): .* each side must be 16..1024 px"):
            simgui.make("simgui/ABCorridor-v0", scenario=path, transport="http", frame_size=(1500, 16))

    def test_vector(self):
        with simgui.make_vec("simgui/ABCorridor-v0", 2, scenario=self.scenario) as env:
            self.assertEqual(env.action_space.shape, (2, 3))
            _, info = env.reset(seed=1)
            for _ in range(5):
                _, _, _, _, info = env.step(np.array([[0, 0, 1], [0, 0, -1]], np.float32))
            self.assertGreater(info["z"][0], 1.2)
            self.assertTrue(math.isclose(info["z"][1], 0.35, abs_tol=0.3) and info["z"][1] < 1.0, info["z"])


if __name__ == "__main__":
    unittest.main()
