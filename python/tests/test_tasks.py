"""The tasks' scoring: the batch scorer (numpy over the envs' state rows) and the single env's
(Python floats) give the same rewards, ends and flags, state by state."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from simgui import tasks  # noqa: E402
from simgui.http import STATE_FIELDS  # noqa: E402

FIELDS = {f: i for i, f in enumerate(STATE_FIELDS)}
ROUTE = {"route": {"waypoints": [[2.0, 0.0], [2.0, 3.0], [-1.0, 3.0]]}, "spawn": [0.0, 0.0, 0.0]}


def random_states(rng, n):
    """(K, N) states with route progress, waypoint changes, goals, contacts and positions on
    and off the route."""
    s = rng.normal(0, 1.5, (len(STATE_FIELDS), n))
    s[FIELDS["route_index"]] = rng.integers(0, 3, n)
    s[FIELDS["route_distance"]] = rng.uniform(0, 3, n)
    s[FIELDS["route_completed"]] = rng.random(n) < 0.15
    s[FIELDS["contacts"]] = (rng.random(n) < 0.15) * rng.integers(1, 3, n)
    return s


class BatchVersusOne(unittest.TestCase):
    def check(self, task, n, contacts=True, rounds=300):
        rng = np.random.default_rng(3)
        batch = tasks.Scorer(task, n, contacts, FIELDS)
        ones = [tasks.Scorer(task, 1, contacts, FIELDS) for _ in range(n)]
        for i in range(n):
            batch.start(i, ROUTE if i % 3 else {})
            ones[i].start(0, ROUTE if i % 3 else {})
        seen = {"success": 0, "crash": 0, "off_route": 0, "waypoint": 0, "truncated": 0, "plain": 0}
        prev = random_states(rng, n)
        for _ in range(rounds):
            cur = random_states(rng, n)
            # Most steps change little: the same waypoint, nothing touched (the batch's cheap path).
            if rng.random() < 0.5:
                cur[FIELDS["route_index"]] = prev[FIELDS["route_index"]]
                cur[FIELDS["route_completed"]] = 0
                cur[FIELDS["contacts"]] = 0
            steps = rng.integers(90, 102, n)
            reward, ends = batch.score(prev, cur, steps >= task.max_episode_steps)
            self.assertEqual((reward.shape, ends.shape), ((n,), (5, n)))
            term, trunc, success, crash, off = ends
            for i in range(n):
                r, te, tr, flags = ones[i].score_one(prev[:, i].tolist(), cur[:, i].tolist(), int(steps[i]))
                where = f"env {i}"
                self.assertEqual(r, reward[i], where)
                self.assertEqual((te, tr), (term[i], trunc[i]), where)
                self.assertEqual((flags["success"], flags["crash"], flags["off_route"]), (success[i], crash[i], off[i]), where)
                seen["waypoint"] += cur[FIELDS["route_index"], i] != prev[FIELDS["route_index"], i]
                seen["truncated"] += tr
                seen["plain"] += not (te or tr)
                for k in ("success", "crash", "off_route"):
                    seen[k] += flags[k]
            prev = cur
        return seen

    def test_corridor(self):
        seen = self.check(tasks.TASKS["simgui/KS0223Corridor-v0"], 16)
        for k in ("success", "crash", "waypoint", "truncated", "plain"):
            self.assertGreater(seen[k], 0, k)
        self.assertEqual(seen["off_route"], 0)

    def test_off_route(self):
        seen = self.check(tasks.TASKS["simgui/ABCorridor-v0"], 7)
        for k in ("success", "crash", "off_route", "plain"):
            self.assertGreater(seen[k], 0, k)

    def test_without_contacts(self):
        seen = self.check(tasks.TASKS["simgui/KS0223Corridor-v0"], 4, contacts=False)
        self.assertEqual(seen["crash"], 0)
        self.assertGreater(seen["success"], 0)

    def test_lateral_distance(self):
        seg = tasks.route_segments(ROUTE["spawn"], ROUTE["route"]["waypoints"])
        self.assertEqual(tasks.lateral_distance(1.0, 0.5, seg), 0.5)  # beside the first leg
        self.assertEqual(tasks.lateral_distance(2.0, 1.0, seg), 0.0)  # on the second
        self.assertAlmostEqual(tasks.lateral_distance(-2.0, 3.0, seg), 1.0)  # past the end
        self.assertAlmostEqual(tasks.lateral_distance(3.0, -1.0, seg), 2**0.5)  # off the corner


class Observations(unittest.TestCase):
    def test_sonar(self):
        m = np.array([0.0, -0.0, -1.0, np.nan, 1e-50, 2.5, 4.9999999, 5.0, 7.0, np.inf, 1.234567891])
        got = tasks.observations(np.zeros((len(m), 2, 2, 3), np.uint8), m)["ultrasonic"]
        self.assertEqual((got.shape, got.dtype), ((len(m), 1), np.float32))
        one = np.array([[tasks.sonar_obs(x)] for x in m.tolist()], np.float32)
        np.testing.assert_array_equal(got, one)
        np.testing.assert_array_equal(got[:, 0], np.array([0, 0, 0, 0, 0, 0.5, 1, 1, 1, 1, 1.234567891 / 5], np.float32))
        self.assertTrue((got >= 0).all() and (got <= 1).all())


if __name__ == "__main__":
    unittest.main()
