"""The Gymnasium API contract of simgui's single and vector envs, against a real simgui.

Run with Debian's python3 from the checkout (make test-python does):
    SIMGUI_BIN=bin/simgui /usr/bin/python3 -m unittest discover -s python/tests
"""

import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simgui  # noqa: E402
from simgui import fastpath  # noqa: E402
from simgui import spaces as fallback_spaces  # noqa: E402

ID = "simgui/KS0223Corridor-v0"


def setUpModule():
    global PROC
    PROC = simgui.SimguiProcess()


def tearDownModule():
    PROC.close()


def rollout(env, seed, actions):
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False)]
    for a in actions:
        obs, r, te, tr, info = env.step(a)
        out.append((obs, r, te, tr))
        if te or tr:
            break
    return out


def same_obs(a, b):
    return np.array_equal(a["image"], b["image"]) and np.array_equal(a["ultrasonic"], b["ultrasonic"])


class SingleEnv(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.env = simgui.make(ID, simgui=PROC, render_mode="rgb_array")

    @classmethod
    def tearDownClass(cls):
        cls.env.close()

    def test_spaces(self):
        env = self.env
        img, son = env.observation_space["image"], env.observation_space["ultrasonic"]
        self.assertEqual((img.shape, img.dtype, int(img.low.min()), int(img.high.max())), ((84, 84, 3), np.uint8, 0, 255))
        self.assertEqual((son.shape, son.dtype, float(son.low[0]), float(son.high[0])), ((1,), np.float32, 0.0, 1.0))
        a = env.action_space
        self.assertEqual((a.shape, a.dtype), ((2,), np.float32))
        np.testing.assert_array_equal(a.low, [-1, -1])
        np.testing.assert_array_equal(a.high, [1, 1])
        a.seed(3)
        s1 = [a.sample() for _ in range(5)]
        a.seed(3)
        s2 = [a.sample() for _ in range(5)]
        np.testing.assert_array_equal(s1, s2)
        self.assertTrue(all(a.contains(s) for s in s1))
        self.assertFalse(a.contains(np.array([1.5, 0], np.float32)))
        self.assertFalse(a.contains(np.zeros(3, np.float32)))
        self.assertFalse(env.observation_space.contains({"image": np.zeros((84, 84, 3), np.float32), "ultrasonic": np.zeros(1, np.float32)}))
        o = env.observation_space.sample()
        self.assertIn(o, env.observation_space)

    def test_reset_and_step_types(self):
        env = self.env
        obs, info = env.reset(seed=1)
        self.assertIsInstance(info, dict)
        self.assertTrue(env.observation_space.contains(obs), obs["ultrasonic"])
        self.assertEqual(set(obs), {"image", "ultrasonic"})
        env.action_space.seed(0)
        for _ in range(40):
            out = env.step(env.action_space.sample())
            self.assertEqual(len(out), 5)
            obs, r, te, tr, info = out
            self.assertIsInstance(r, float)
            self.assertIs(type(te), bool)
            self.assertIs(type(tr), bool)
            self.assertIsInstance(info, dict)
            self.assertTrue(env.observation_space.contains(obs))
            if te or tr:
                obs, info = env.reset()
                self.assertTrue(env.observation_space.contains(obs))

    def test_render_metadata_spec(self):
        env = self.env
        obs, _ = env.reset(seed=2)
        frame = env.render()
        self.assertEqual((frame.shape, frame.dtype), ((84, 84, 3), np.uint8))
        np.testing.assert_array_equal(frame, obs["image"])
        self.assertIn("rgb_array", env.metadata["render_modes"])
        self.assertEqual(env.metadata["render_fps"], 10)
        self.assertEqual(env.render_mode, "rgb_array")
        self.assertEqual(env.spec.id, ID)
        self.assertEqual(env.spec.max_episode_steps, 100)
        self.assertIs(env.unwrapped, env)
        self.assertIsInstance(env.np_random, np.random.Generator)

    def test_seeding_is_deterministic(self):
        env = self.env
        rng = np.random.default_rng(9)
        actions = [np.array([0.8, s], np.float32) for s in rng.uniform(-0.4, 0.4, 25)]
        a, b = rollout(env, 42, actions), rollout(env, 42, actions)
        self.assertEqual(len(a), len(b))
        for (oa, ra, tea, tra), (ob, rb, teb, trb) in zip(a, b):
            self.assertTrue(same_obs(oa, ob))
            self.assertEqual((ra, tea, tra), (rb, teb, trb))
        c = rollout(env, 43, actions)
        self.assertFalse(all(same_obs(x[0], y[0]) for x, y in zip(a, c)), "seeds 42 and 43 gave the same episode")
        # Resets without a seed continue the generator seeded by the first: the same sequence.
        seeds = []
        for _ in range(2):
            env.reset(seed=7)
            seeds.append([env.reset()[1]["episode_seed"] for _ in range(3)])
        self.assertEqual(seeds[0], seeds[1])
        self.assertEqual(len(set(seeds[0])), 3)

    def test_np_random_seed_as_gymnasium_has_it(self):
        # Gymnasium 1.x's Env has np_random_seed (the vector env had it here, the single env
        # had not without Gymnasium: AttributeError).
        env = self.env
        env.reset(seed=11)
        self.assertEqual(env.np_random_seed, 11)
        env.np_random = np.random.default_rng(1)  # a generator set by hand: its seed is unknown
        self.assertEqual(env.np_random_seed, -1)
        env.reset(seed=12)
        self.assertEqual(env.np_random_seed, 12)

    def test_infos_repeat_exactly(self):
        # As Gymnasium's env checker compares them: with ==, so no NaN may stand in an info.
        # Both tasks' vehicles have a sonar (ABCorridor's Prometeo is a KS0223 in a car body).
        for task, sonar in ((ID, True), ("simgui/ABCorridor-v0", True)):
            with self.subTest(task=task):
                env = self.env if task == ID else simgui.make(task, simgui=PROC)
                try:
                    a = np.array([0.6, -0.2], np.float32)
                    runs = []
                    for _ in range(2):
                        _, i0 = env.reset(seed=123)
                        runs.append((i0, env.step(a)[4]))
                    for x, y in zip(*runs):
                        self.assertEqual(x, y)
                        self.assertEqual("ultrasonic_m" in x, sonar)
                finally:
                    if env is not self.env:
                        env.close()

    def test_terminated_versus_truncated(self):
        short = simgui.make(ID, simgui=PROC, max_episode_steps=4)
        try:
            short.reset(seed=3)
            for k in range(1, 5):
                _, _, te, tr, _ = short.step([0.0, 0.0])
                self.assertFalse(te)
                self.assertEqual(tr, k == 4, f"step {k}")
            with self.assertRaises(RuntimeError):
                short.step([0.0, 0.0])  # the episode is over
        finally:
            short.close()
        env = self.env
        env.reset(seed=3)
        for _ in range(60):  # straight on, into the far wall of the corner
            _, r, te, tr, info = env.step([1.0, 0.0])
            if te or tr:
                break
        self.assertTrue(te and not tr, "driving into a wall must terminate, not truncate")
        self.assertTrue(info["crash"] and not info["success"])
        self.assertLess(r, -5)
        with self.assertRaises(ValueError):
            env.reset(seed=3)
            env.step([np.nan, 0.0])


class VectorEnv(unittest.TestCase):
    N = 3

    @classmethod
    def setUpClass(cls):
        cls.venv = simgui.make_vec(ID, num_envs=cls.N, simgui=PROC)
        cls.single = simgui.make(ID, simgui=PROC)

    @classmethod
    def tearDownClass(cls):
        cls.venv.close()
        cls.single.close()

    def test_generator_and_its_seed(self):
        # As Gymnasium's vector envs: reset(seed=s) seeds np_random with s and np_random_seed
        # says so; a generator set by hand has the seed -1.
        with simgui.make_vec(ID, num_envs=2, simgui=PROC) as v:
            v.reset(seed=7)
            self.assertEqual(v.np_random_seed, 7)
            self.assertEqual(v.np_random.integers(1 << 30), simgui._compat.np_random(7).integers(1 << 30))
            v.np_random = np.random.default_rng(1)
            self.assertEqual(v.np_random_seed, -1)

    def test_spaces(self):
        v, n = self.venv, self.N
        self.assertEqual(v.num_envs, n)
        self.assertEqual(v.single_observation_space, self.single.observation_space)
        self.assertEqual(v.single_action_space, self.single.action_space)
        self.assertEqual(v.observation_space["image"].shape, (n, 84, 84, 3))
        self.assertEqual(v.observation_space["ultrasonic"].shape, (n, 1))
        self.assertEqual((v.action_space.shape, v.action_space.dtype), ((n, 2), np.float32))
        # Gymnasium's AutoresetMode.NEXT_STEP where Gymnasium is installed (its value is the
        # name), the name itself where it is not.
        mode = v.metadata["autoreset_mode"]
        self.assertEqual(getattr(mode, "value", mode), "NextStep")
        self.assertEqual(len(v.worlds), n)

    def test_step_types(self):
        v, n = self.venv, self.N
        obs, info = v.reset(seed=0)
        self.assertTrue(v.observation_space.contains(obs))
        v.action_space.seed(1)
        for _ in range(20):
            obs, r, te, tr, info = v.step(v.action_space.sample())
            self.assertTrue(v.observation_space.contains(obs))
            self.assertEqual((r.shape, r.dtype), ((n,), np.float64))
            self.assertEqual((te.shape, te.dtype, tr.shape, tr.dtype), ((n,), np.bool_, (n,), np.bool_))
            self.assertIsInstance(info, dict)
            for k in ("x", "success", "crash", "episode_seed", "_reset"):
                self.assertEqual(np.shape(info[k]), (n,), k)
            # Gymnasium's vector-info convention: "_k" says which envs have key k.
            for k in [k for k in info if not k.startswith("_")]:
                mask = info["_" + k]
                self.assertEqual((mask.dtype, mask.shape), (np.bool_, (n,)), k)
                self.assertTrue(mask.all(), k)
            per_env = [{k: v[i] for k, v in info.items() if not k.startswith("_") and info["_" + k][i]} for i in range(n)]
            self.assertEqual([d["x"] for d in per_env], list(info["x"]))

    def test_env_i_is_seeded_seed_plus_i(self):
        n = self.N
        acts = [np.array([[0.9, 0.3 * np.sin(k + i)] for i in range(n)]) for k in range(12)]
        obs, _ = self.venv.reset(seed=10)
        steps = [self.venv.step(a) for a in acts]
        for i in range(n):
            o, _ = self.single.reset(seed=10 + i)
            self.assertTrue(same_obs({k: x[i] for k, x in obs.items()}, o), f"env {i}")
            for k, a in enumerate(acts):
                o, r, te, tr, _ = self.single.step(a[i])
                vo, vr, vte, vtr, _ = steps[k]
                # The same observations and rewards; the vector env scores with numpy, the single
                # env with Python floats.
                self.assertTrue(same_obs({kk: x[i] for kk, x in vo.items()}, o), f"env {i} step {k}")
                self.assertEqual((r, te, tr), (vr[i], vte[i], vtr[i]), f"env {i} step {k}")
                if te or tr:
                    break

    def test_next_step_autoreset(self):
        n, steps = self.N, 3
        v = simgui.make_vec(ID, num_envs=n, simgui=PROC, max_episode_steps=steps)
        single = simgui.make(ID, simgui=PROC, max_episode_steps=steps)
        try:
            acts = np.array([[0.6, 0.1 * i] for i in range(n)])
            v.reset(seed=20)
            for k in range(1, steps + 1):
                obs, r, te, tr, info = v.step(acts)
                self.assertEqual(tr.tolist(), [k == steps] * n, f"step {k}")
                self.assertFalse(te.any())
            last = {k: x.copy() for k, x in obs.items()}
            # The next call resets every env, ignoring the actions: a first observation, reward
            # 0, neither terminated nor truncated.
            obs, r, te, tr, info = v.step(np.ones((n, 2)))
            self.assertTrue(info["_reset"].all())
            np.testing.assert_array_equal(r, np.zeros(n))
            self.assertFalse(te.any() or tr.any())
            self.assertFalse(np.array_equal(obs["image"], last["image"]))
            after = v.step(acts)[0]
            for i in range(n):
                # The same as env seed 20+i on its own: its episode, then reset() from its generator.
                single.reset(seed=20 + i)
                for _ in range(steps):
                    o, *_ = single.step(acts[i])
                self.assertTrue(same_obs(o, {k: x[i] for k, x in last.items()}), f"env {i}: last observation")
                o, _ = single.reset()
                self.assertTrue(same_obs(o, {k: x[i] for k, x in obs.items()}), f"env {i}: after the autoreset")
                o, *_ = single.step(acts[i])
                self.assertTrue(same_obs(o, {k: x[i] for k, x in after.items()}), f"env {i}: next step")
        finally:
            v.close()
            single.close()


class FastPathWire(unittest.TestCase):
    def test_replies_in_pieces(self):
        # Every env resets with the track's layout: a reply far larger than the client's first
        # buffer, read in pieces and grown into.
        n = 4
        v = simgui.make_vec(ID, num_envs=n, simgui=PROC, layout=True, max_episode_steps=2)
        try:
            b = v._s.backend
            b._buf = bytearray(16)
            b._view = memoryview(b._buf)
            v.reset(seed=30)
            self.assertGreater(len(b._buf), 16)
            for k in range(3):  # the third step autoresets every env
                _, _, _, tr, info = v.step(np.zeros((n, 2)))
            self.assertTrue(info["_reset"].all())
            for i in range(n):
                ep = v.reset_info(i)
                self.assertEqual((ep["env"], ep["seed"]), (i, int(info["episode_seed"][i])))
                self.assertTrue(ep["elements"], "the layout's walls")
                self.assertTrue(ep["route"]["waypoints"])
            with self.assertRaises(ValueError):
                v.step(np.array([[np.inf, 0.0]] * n))
            with self.assertRaises(ValueError):
                v.step(np.array([[0.0, np.nan]] * n))
            with self.assertRaisesRegex(ValueError, "complex128"):
                v.step(np.array([[1 + 1j, 0.0]] * n))
            v.step(np.zeros((n, 2)))  # the session is still in step
            # simgui refuses what the env would not send: its error, and the session goes on.
            b.actions[0, 0] = np.nan
            with self.assertRaisesRegex(fastpath.FastPathError, "finite"):
                b.request()
            v.step(np.zeros((n, 2)))
        finally:
            v.close()


class FallbackSpaces(unittest.TestCase):
    """simgui.spaces, which stands in for gymnasium.spaces where Gymnasium is missing."""

    def test_box_dict_discrete(self):
        b = fallback_spaces.Box(-1, 1, (2,), np.float32, seed=4)
        self.assertEqual(b.shape, (2,))
        self.assertTrue(b.contains(b.sample()))
        self.assertFalse(b.contains(np.array([2.0, 0.0], np.float32)))
        self.assertFalse(b.contains(np.zeros(2, np.float64)))  # float64 does not cast to float32 safely
        d = fallback_spaces.Discrete(5, seed=1)
        self.assertTrue(all(d.contains(d.sample()) for _ in range(20)))
        self.assertFalse(d.contains(5))
        dd = fallback_spaces.Dict({"a": b, "b": d}, seed=3)
        s = dd.sample()
        self.assertTrue(dd.contains(s))
        self.assertFalse(dd.contains({"a": s["a"]}))
        dd.seed(3)
        np.testing.assert_array_equal(dd.sample()["a"], s["a"])
        batched = fallback_spaces.batch_space(dd, 4)
        self.assertEqual(batched["a"].shape, (4, 2))


if __name__ == "__main__":
    unittest.main()


class Misuse(unittest.TestCase):
    """What a user gets wrong is refused with what was wanted, and an env outlives the thread
    that made it."""

    def test_action_shapes(self):
        env = simgui.make(ID, simgui=PROC)
        venv = simgui.make_vec(ID, num_envs=2, simgui=PROC)
        try:
            env.reset(seed=1)
            for bad in ([[1.0, 0.0]], [1.0, 0.0, 0.0], [[1.0], [0.0]]):
                with self.assertRaisesRegex(ValueError, r"want \(2,\)"):
                    env.step(bad)
            venv.reset(seed=1)
            for bad in (np.zeros((2, 1)), np.zeros(4), np.zeros((4, 1)), np.zeros((2, 2)).T[None]):
                with self.assertRaisesRegex(ValueError, r"want \(2, 2\)"):
                    venv.step(bad)
            venv.step(np.zeros((2, 2)))  # the right shape still steps
            # Out of range is clipped to -1..1 (the docs say so): the same episode as the bounds.
            for far, bound in (([7.0, -3.0], [1.0, -1.0]), ([-2.0, 1.5], [-1.0, 1.0])):
                env.reset(seed=4)
                got = env.step(far)
                env.reset(seed=4)
                want = env.step(bound)
                self.assertEqual(got[0]["image"].tobytes(), want[0]["image"].tobytes())
                self.assertEqual((got[1], got[4]["x"], got[4]["y"]), (want[1], want[4]["x"], want[4]["y"]))
        finally:
            env.close()
            venv.close()

    def test_closed_env(self):
        env = simgui.make(ID, simgui=PROC)
        first, _ = env.reset(seed=1)
        env.close()
        with self.assertRaisesRegex(RuntimeError, "closed"):
            env.step([0.0, 0.0])
        # reset() starts a closed env again, as it was made (Stable-Baselines3's checker closes
        # an env and resets it): the same seed gives the same episode.
        try:
            again, _ = env.reset(seed=1)
            self.assertEqual(again["image"].tobytes(), first["image"].tobytes())
            env.step([0.0, 0.0])
        finally:
            env.close()
        venv = simgui.make_vec(ID, num_envs=1, simgui=PROC, render_mode="rgb_array")
        venv.close()
        with self.assertRaisesRegex(RuntimeError, "closed"):
            venv.reset(seed=1)
        # Not an AttributeError on the closed env's missing session.
        with self.assertRaisesRegex(RuntimeError, "closed"):
            venv.render()
        with self.assertRaisesRegex(RuntimeError, "closed"):
            venv.worlds

    def test_time_limit(self):
        # time_limit=False leaves the limit to a TimeLimit wrapper (gymnasium.make registers the
        # envs so): no truncation at the task's 100 steps, unless max_episode_steps is given.
        with simgui.make(ID, simgui=PROC, time_limit=False, randomize=False) as env:
            env.reset(seed=3)
            for k in range(simgui.TASKS[ID].max_episode_steps + 20):
                _, _, terminated, truncated, _ = env.step([0.0, 0.0])
                self.assertFalse(terminated or truncated, f"step {k + 1}")
        with simgui.make(ID, simgui=PROC, time_limit=False, max_episode_steps=5) as env:
            env.reset(seed=3)
            ends = [env.step([0.0, 0.0])[3] for _ in range(5)]
            self.assertEqual(ends, [False] * 4 + [True])
        with self.assertRaisesRegex(ValueError, "time_limit 'no': want True or False"):
            simgui.make(ID, simgui=PROC, time_limit="no")

    def test_seed_range(self):
        env = simgui.make(ID, simgui=PROC)
        try:
            for bad in (2**64, -1, 2**63):
                with self.assertRaisesRegex(ValueError, "want a whole number from 0"):
                    env.reset(seed=bad)
            env.reset(seed=2**63 - 1)
        finally:
            env.close()

    def test_randomization_groups(self):
        env = simgui.make(ID, simgui=PROC, randomization={"sensors.image_noise": "0,4"})
        try:
            _, info = env.reset(seed=5)
            draws = json_keys(info["reset"])
            self.assertTrue(any("noise" in k for k in draws), f"no image noise among the draws: {draws}")
        finally:
            env.close()
        # A range as a pair of numbers, and a number, draw as their text does.
        for text, given in (("0,4", (0, 4.0)), ("2.5", 2.5)):
            got = []
            for value in (text, given):
                env = simgui.make(ID, simgui=PROC, randomization={"sensors.image_noise": value})
                try:
                    _, info = env.reset(seed=5)
                    got.append(info["reset"])
                finally:
                    env.close()
            self.assertEqual(got[0], got[1], f"{given!r} drew otherwise than {text!r}")
        with self.assertRaisesRegex(ValueError, "randomize=False"):
            simgui.make(ID, simgui=PROC, randomize=False, randomization={"sensors.image_noise": "0,4"})
        with self.assertRaisesRegex(ValueError, "enabled=false"):
            simgui.make(ID, simgui=PROC, randomization={"Enabled": "false", "visual.textures": "0,1"})
        with self.assertRaisesRegex(ValueError, "randomize=False"):
            simgui.make(ID, simgui=PROC, randomize=False, randomization={"enabled": "true"})
        # Ranges simgui refuses are the argument's fault too: ValueError, naming it.
        for bad in ({"vehicle.mass": "abc"}, {"bogus.key": "1"}):
            with self.assertRaisesRegex(ValueError, "^randomization "):
                simgui.make(ID, simgui=PROC, randomization=bad)

    def test_own_scenario(self):
        # The task in a scenario file of one's own: its corridor width, scored by the task.
        text = simgui.TASKS[ID].scenario_text().replace("width: [0.5, 0.8]", "width: [0.9, 0.9]")
        self.assertIn("width: [0.9, 0.9]", text)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "wide.yaml")
            with open(path, "w") as f:
                f.write(text)
            envs = simgui.make_vec(ID, num_envs=2, simgui=PROC, scenario=path)
            try:
                envs.reset(seed=4)
                for i in range(2):
                    self.assertEqual(envs.reset_info(i)["trackParams"]["width"], 0.9, envs.reset_info(i))
                _, reward, _, _, _ = envs.step(np.zeros((2, 2), np.float32))
                self.assertEqual(reward.shape, (2,))
            finally:
                envs.close()
            with self.assertRaisesRegex(FileNotFoundError, "no such file"):
                simgui.make(ID, simgui=PROC, scenario=os.path.join(d, "missing.yaml"))
            fifo = os.path.join(d, "fifo")
            os.mkfifo(fifo)
            with self.assertRaisesRegex(ValueError, "not a regular file"):
                simgui.make(ID, simgui=PROC, scenario=fifo)
            huge = os.path.join(d, "huge.yaml")
            with open(huge, "w") as f:
                f.write(text + "#" * (2 << 20))
            with self.assertRaisesRegex(ValueError, "over the 1 MiB"):
                simgui.make(ID, simgui=PROC, scenario=huge)
            big = os.path.join(d, "big.yaml")
            with open(big, "w") as f:
                f.write(text + "#" * (300 << 10))
            with self.assertRaisesRegex(ValueError, "^scenario '.*big.yaml': .*limit is 262144"):
                simgui.make(ID, simgui=PROC, scenario=big)
            # A file simgui cannot read is the argument's fault: a ValueError naming the file
            # (it was a FastPathError about "fast path scenario", the file unnamed).
            typo = os.path.join(d, "typo.yaml")
            with open(typo, "w") as f:
                f.write("world: [\n")
            with self.assertRaisesRegex(ValueError, "^scenario '.*typo.yaml': line 1"):
                simgui.make_vec(ID, num_envs=2, simgui=PROC, scenario=typo)
            # An empty file is no scenario (its text, "", asked for the default one), nor is
            # one of comments alone.
            for name, body in (("empty.yaml", ""), ("blank.yaml", " \n\n"), ("comments.yaml", "# world: ...\n")):
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    f.write(body)
                with self.assertRaisesRegex(ValueError, f"^scenario '.*{name}': the scenario is empty"):
                    simgui.make(ID, simgui=PROC, scenario=path)

    def test_bad_arguments_name_themselves(self):
        # Refused before any simgui starts (simgui=a path that does not exist is never dialled).
        never = "/nonexistent/simgui.sock"
        for kwargs, want in (
            ({"frame_size": 84}, "frame_size 84: want \\(width, height\\)"),
            ({"frame_size": (84, 84, 3)}, "frame_size"),
            ({"frame_size": (84.7, 84)}, "frame_size"),
            ({"frame_size": (0, 84)}, "frame_size \\(0, 84\\): give both sides, or \\(0, 0\\)"),
            ({"action_period": float("nan")}, "action_period nan"),
            ({"action_period": 0}, "action_period 0"),
            ({"max_episode_steps": 0}, "max_episode_steps 0"),
            ({"max_episode_steps": -5}, "max_episode_steps -5"),
        ):
            with self.subTest(kwargs=kwargs), self.assertRaisesRegex(ValueError, want):
                simgui.make(ID, simgui=never, **kwargs)
        for n in (0, -2, 2.5, True):
            with self.subTest(num_envs=n), self.assertRaisesRegex(ValueError, "num_envs"):
                simgui.make_vec(ID, num_envs=n, simgui=never)
        with self.assertRaisesRegex(ValueError, "copy 'no': want True or False"):
            simgui.make_vec(ID, num_envs=2, simgui=never, copy="no")
        with self.assertRaisesRegex(fastpath.FastPathError, "fast path at /nonexistent/simgui.sock: no such socket"):
            simgui.make(ID, simgui=never)
        with self.assertRaisesRegex(ValueError, "layout=True: the track's layout comes with the fast path's resets only"):
            simgui.make(ID, simgui="http://127.0.0.1:1", transport="http", layout=True)
        for kwargs, want in (
            ({"randomize": "no"}, "randomize 'no': want True or False"),
            ({"layout": 1}, "layout 1: want True or False"),
        ):
            with self.subTest(kwargs=kwargs), self.assertRaisesRegex(ValueError, want):
                simgui.make(ID, simgui=never, **kwargs)
        # A period between the task's 0.01 s physics steps would be rounded: simgui refuses it,
        # and what simgui serves is refused naming the argument that asked for it.
        for make, kwargs, want in (
            (simgui.make, {"action_period": 0.015},
             r"^action_period 0.015: actionPeriod 0.015 s is not a whole number of 0.01 s physics steps \(0.01 or 0.02 s would be\)$"),
            (simgui.make, {"action_period": 1e308}, r"^action_period 1e\+308: actionPeriod 1e\+308 s is outside 0..10$"),
            (simgui.make, {"frame_size": (15, 84)}, r"^frame_size \(15, 84\): frame 15×84: each side is 0 \(the camera's\) or 16..1024 px$"),
            (simgui.make, {"frame_size": (84, 1025)}, r"^frame_size \(84, 1025\): frame 84×1025"),
            (simgui.make_vec, {"num_envs": 65}, r"^num_envs 65: envs 65 is outside 1..64$"),
        ):
            with self.subTest(kwargs=kwargs), self.assertRaisesRegex(ValueError, want):
                make(ID, simgui=PROC, **kwargs)
        # The camera's own size, past what the fast path serves.
        with tempfile.TemporaryDirectory() as d:
            ultra = os.path.join(d, "ultra.yaml")
            with open(ultra, "w") as f:
                f.write("world: {trackId: track.cardboard_corridor.v1}\n"
                        "vehicle: {vehicleId: vehicle.ks0223.v1, params: {camera.profile: ultra}}\n")
            with self.assertRaisesRegex(ValueError, r"^frame_size \(0, 0\): the camera's frame is 1600×900; each side must be 16..1024 px here"):
                simgui.make(ID, simgui=PROC, scenario=ultra, frame_size=(0, 0))
        env = simgui.make(ID, simgui=PROC, action_period=0.02)
        try:
            env.reset(seed=1)
            _, _, _, _, info = env.step([0.0, 0.0])
            self.assertAlmostEqual(info["sim_time"], 0.02)
            self.assertEqual(env.metadata["render_fps"], 50)
            with self.assertRaisesRegex(ValueError, "seed True"):
                env.reset(seed=True)
            with self.assertRaisesRegex(ValueError, r"want 2 real numbers, \(throttle, steer\)"):
                env.step(np.array([1 + 1j, 0]))
            with self.assertRaisesRegex(ValueError, r"want 2 real numbers, \(throttle, steer\)"):
                env.step(["1", "0"])
            with self.assertRaisesRegex(ValueError, "reset options"):
                env.reset(seed=1, options={"reset_mask": [True]})
        finally:
            env.close()
        with simgui.make_vec(ID, num_envs=2, simgui=PROC) as envs:
            with self.assertRaisesRegex(ValueError, "reset options"):
                envs.reset(seed=0, options={"reset_mask": np.array([True, False])})
            with self.assertRaisesRegex(ValueError, "seed True"):
                envs.reset(seed=True)
        self.assertIsNone(envs._s, "leaving the with block did not close the env")
        with simgui.make(ID, simgui=PROC) as env:
            env.reset(seed=2)
        self.assertIsNone(env._s)

    def test_simgui_argument_says_what_it_wants(self):
        # A URL given where a socket path is wanted, and a URL the HTTP transport cannot dial,
        # are refused before anything is dialled, saying what to give (a URL without its
        # scheme raised a TypeError from http.client; a URL on the fast path, "no such socket").
        for url in ("http://127.0.0.1:19999", "https://localhost:8000"):
            with self.subTest(url=url), self.assertRaisesRegex(ValueError, "transport='http'"):
                simgui.make(ID, simgui=url)
            with self.subTest(url=url), self.assertRaisesRegex(ValueError, "transport='http'"):
                simgui.make_vec(ID, num_envs=2, simgui=url)
        for url in ("127.0.0.1:19999", "localhost:8000", "https://127.0.0.1:19999", "http://", "ws://127.0.0.1:8080"):
            with self.subTest(url=url), self.assertRaisesRegex(ValueError, r"http://HOST:PORT"):
                simgui.make(ID, transport="http", simgui=url)

    def test_vector_env_misuse(self):
        with self.assertRaisesRegex(ValueError, "fast path"):
            simgui.make_vec(ID, num_envs=2, transport="http")
        envs = simgui.make_vec(ID, num_envs=2, simgui=PROC)
        envs.reset(seed=3)
        for bad in (-1, 2):
            with self.assertRaisesRegex(IndexError, "envs 0..1"):
                envs.reset_info(bad)
        envs.close()
        with self.assertRaisesRegex(RuntimeError, "closed"):
            envs.reset_info(0)

    def test_interrupted_step_is_not_read_late(self):
        env = simgui.make(ID, simgui=PROC)
        try:
            env.reset(seed=1)
            backend = env._s.backend
            real = backend._read_reply

            def interrupted():
                raise KeyboardInterrupt  # as Ctrl-C lands while the reply is awaited

            backend._read_reply = interrupted
            with self.assertRaises(KeyboardInterrupt):
                env.step([0.3, 0.0])
            backend._read_reply = real
            with self.assertRaisesRegex(fastpath.FastPathError, "out of step"):
                env.step([0.3, 0.0])
        finally:
            env.close()

    def test_second_thread_is_told_so(self):
        # A step taken while another thread's waits for its reply is refused as such, and the
        # env goes on (it is not left out of step).
        env = simgui.make(ID, simgui=PROC)
        try:
            env.reset(seed=1)
            self.assertTrue(env._busy.acquire(blocking=False))  # as a step under way holds it
            try:
                with self.assertRaisesRegex(RuntimeError, "another thread is stepping this env"):
                    env.step([0.3, 0.0])
            finally:
                env._busy.release()
            env.step([0.3, 0.0])
        finally:
            env.close()

    def test_refused_call_leaves_the_env_as_it_was(self):
        # A call refused because another thread's step is under way touches nothing: not the
        # request's actions (another thread may be sending them) and not the episode seeds (a
        # refused reset drew the next one, and seeding was no longer reproducible).
        import threading

        envs = simgui.make_vec(ID, num_envs=2, simgui=PROC)
        try:
            envs.reset(seed=5)
            b = envs._s.backend
            real, inside, release = b.request, threading.Event(), threading.Event()

            def held():
                inside.set()
                release.wait(30)
                return real()

            b.request = held
            stepper = threading.Thread(target=envs.step, args=(np.full((2, 2), 0.25),))
            stepper.start()
            self.assertTrue(inside.wait(30))
            actions, seeds = b.actions.copy(), envs._s.episode_seed.copy()
            rng_state = [r.bit_generator.state for r in envs._s.rngs]
            for call in (lambda: envs.step(np.full((2, 2), -1.0)), lambda: envs.reset(), lambda: envs.reset(seed=9)):
                with self.assertRaisesRegex(RuntimeError, "another thread is stepping this env"):
                    call()
            np.testing.assert_array_equal(b.actions, actions)
            np.testing.assert_array_equal(envs._s.episode_seed, seeds)
            self.assertEqual([r.bit_generator.state for r in envs._s.rngs], rng_state)
            release.set()
            stepper.join(30)
            b.request = real
            envs.step(np.zeros((2, 2)))
        finally:
            envs.close()

    def test_reply_timeout_is_checked(self):
        for bad in (0, -1, float("nan"), float("inf"), "5", True):
            with self.assertRaisesRegex(ValueError, "reply_timeout"):
                simgui.make(ID, simgui="/nonexistent/simgui.sock", reply_timeout=bad)

    def test_too_many_sessions_says_so(self):
        proc = simgui.SimguiProcess()
        envs = []
        try:
            with self.assertRaisesRegex(fastpath.FastPathError, "sessions are open"):
                for _ in range(8):
                    envs.append(simgui.make(ID, simgui=proc))
            self.assertGreater(len(envs), 0)
        finally:
            for e in envs:
                e.close()
            proc.close()

    def test_env_made_on_a_thread_outlives_it(self):
        import threading

        made = {}
        t = threading.Thread(target=lambda: made.update(env=simgui.make(ID)))
        t.start()
        t.join()
        env = made["env"]
        try:
            obs, _ = env.reset(seed=0)
            self.assertEqual(obs["image"].shape, (84, 84, 3))
            self.assertIsNone(env._s.proc.proc.poll(), "simgui ended with the thread that started it")
        finally:
            env.close()


def json_keys(v, prefix=""):
    """Every key path of a nested dict/list, for looking through an info."""
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            out.append(prefix + str(k))
            out += json_keys(x, prefix + str(k) + ".")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += json_keys(x, prefix + str(i) + ".")
    return out
