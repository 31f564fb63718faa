"""A step-bounded PPO run (examples/python/train_ppo.py, fixed seeds, 4,096 env steps) learns
to drive: on held-out seeds its policy's mean return beats a random policy's by at least 4
(a random policy scores about −9 in the corridor; driving straight on scores about −1)."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))

try:
    import torch  # noqa: F401
except ImportError:  # pragma: no cover
    torch = None

MARGIN = 4.0


@unittest.skipIf(torch is None, "PyTorch is missing (Debian: python3-torch; build/setup.sh installs it)")
class SmokeTraining(unittest.TestCase):
    def test_ppo_beats_random(self):
        import evaluate
        import train_ppo

        with tempfile.TemporaryDirectory() as out:
            args = train_ppo.parse(["--out", out, "--total-steps", "4096", "--num-envs", "8", "--n-steps", "64",
                                    "--epochs", "3", "--threads", "1", "--seed", "1", "--quiet",
                                    "--eval-episodes", "0", "--gif-episodes", "0"])
            summary = train_ppo.train(args)
            self.assertEqual(summary["env_steps"], 4096)
            for f in ("policy.pt", "curve.png", "curve.csv", "train.json"):
                self.assertTrue(os.path.getsize(os.path.join(out, f)) > 0, f)
            trained = evaluate.evaluate(os.path.join(out, "policy.pt"), episodes=24, num_envs=8, seed_base=5_000_000)
            rand = evaluate.evaluate(None, task="simgui/KS0223Corridor-v0", episodes=24, num_envs=8, seed_base=5_000_000)
            self.check_car_export(os.path.join(out, "policy.pt"), os.path.join(out, "car.pt"))
        print(f"\nsmoke PPO: trained {trained['mean_return']:.2f} (success {trained['success_rate']:.2f}), "
              f"random {rand['mean_return']:.2f}", file=sys.stderr)
        self.assertGreaterEqual(trained["mean_return"], rand["mean_return"] + MARGIN)

    def test_drone_trains_and_evaluates(self):
        """A drone scenario trains with a three-action policy (throttle, steer, vertical), which
        evaluate.py loads and scores and car_policy.py refuses to export for a car."""
        import car_policy
        import evaluate
        import train_ppo

        with tempfile.TemporaryDirectory() as out:
            scenario = os.path.join(out, "drone.yaml")
            with open(scenario, "w") as f:
                f.write("runtime: {seed: 7, stepSize: 0.005, actionPeriod: 0.1}\n"
                        "world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.drone.simple.v1}\n")
            args = train_ppo.parse(["--out", out, "--scenario", scenario, "--total-steps", "256", "--num-envs", "2",
                                    "--n-steps", "64", "--epochs", "1", "--threads", "1", "--seed", "1", "--quiet",
                                    "--eval-episodes", "0", "--gif-episodes", "0"])
            self.assertEqual(train_ppo.train(args)["env_steps"], 256)
            policy = os.path.join(out, "policy.pt")
            net, ck = evaluate.load(policy)
            self.assertEqual((ck["actions"], ck["action_names"]), (3, ["throttle", "steer", "vertical"]))
            res = evaluate.evaluate(policy, episodes=2, num_envs=2, seed_base=7)
            self.assertEqual(res["episodes"], 2)
            rand = evaluate.evaluate(None, task="simgui/KS0223Corridor-v0", scenario=scenario, episodes=2, num_envs=2)
            self.assertEqual(rand["episodes"], 2)
            with self.assertRaisesRegex(ValueError, r"drives \(throttle, steer, vertical\): a car policy takes"):
                car_policy.export_policy(policy, os.path.join(out, "car.pt"))

    def check_car_export(self, policy, exported):
        """The car's export (car_policy.py) acts as the trained network's mean on the same
        frames, crops a 640×480 frame to its centre square, and mixes steer > 0 into a right
        turn (left motor faster)."""
        import car_policy
        import evaluate

        self.assertEqual(car_policy.export_policy(policy, exported), 84)
        car = car_policy.CarPolicy(exported)
        self.assertEqual(car.action_period, 0.1)  # the task's, kept though not given
        net, _ = evaluate.load(policy)
        rng = np.random.default_rng(3)
        for _ in range(4):
            img = rng.integers(0, 256, (84, 84, 3), dtype=np.uint8)
            sonar_m = float(rng.uniform(0.05, 4.0))
            want = net.act({"image": img[None], "ultrasonic": np.array([[min(sonar_m, 3.5) / 5]], np.float32)},
                           deterministic=True)[0]
            np.testing.assert_allclose(car.act(img, sonar_m), np.clip(want, -1, 1), atol=1e-5)
        wide = np.zeros((480, 640, 3), np.uint8)
        wide[:, 80:560] = 200  # the centre square, bright; the sides dark
        self.assertEqual(car_policy.centre_square(wide, 84).min(), 200)
        self.assertEqual(car_policy.mix(0.5, 0.5), (1.0, 0.0))
        self.assertAlmostEqual(car_policy.sonar_feature(None), 0.7)  # the simulated sonar's no echo
        # Frames the car's code must not take silently: a 0..1 float frame (black as uint8),
        # greyscale, RGBA.
        for bad, says in ((np.full((480, 640, 3), 0.5, np.float32), "uint8"),
                          (np.zeros((480, 640), np.uint8), "(H, W, 3)"),
                          (np.zeros((480, 640, 4), np.uint8), "(H, W, 3)")):
            with self.assertRaises(ValueError) as cm:
                car.act(bad, 1.0)
            self.assertIn(says, str(cm.exception))

    def test_visual_conditions_travel_with_the_policy(self):
        # A policy trained with visual randomization is scored in it, not in the flat look.
        import evaluate
        import torch
        import train_ppo

        with tempfile.TemporaryDirectory() as out:
            args = train_ppo.parse(["--out", out, "--total-steps", "128", "--num-envs", "2", "--n-steps", "64",
                                    "--epochs", "1", "--threads", "1", "--quiet", "--visual",
                                    "--randomization", "visual.distractors=3,3",
                                    "--eval-episodes", "0", "--gif-episodes", "0"])
            train_ppo.train(args)
            ck = torch.load(os.path.join(out, "policy.pt"), map_location="cpu")
            want = dict(train_ppo.simgui.VISUAL_RANDOMIZATION, **{"visual.distractors": "3,3"})
            self.assertEqual(ck["randomization"], want)
            res = evaluate.evaluate(os.path.join(out, "policy.pt"), episodes=2, num_envs=2, seed_base=7,
                                    randomization={"sensors.vignette": 0})
            self.assertEqual(res["randomization"], dict(want, **{"sensors.vignette": 0}))
            self.assertEqual(res["episodes"], 2)
        with self.assertRaises(SystemExit):
            train_ppo.conditions(train_ppo.parse(["--randomization", "visual.distractors"]))

    def test_action_period_travels_with_the_policy(self):
        # docs/TRAINING.md tells a real-car user to act every 0.14 s as the car does: train_ppo.py
        # takes it, and evaluate.py and the car's export run the policy at the period it learnt.
        import car_policy
        import evaluate
        import train_ppo

        with tempfile.TemporaryDirectory() as out:
            args = train_ppo.parse(["--out", out, "--total-steps", "128", "--num-envs", "2", "--n-steps", "64",
                                    "--epochs", "1", "--threads", "1", "--quiet", "--action-period", "0.14",
                                    "--eval-episodes", "0", "--gif-episodes", "0"])
            train_ppo.train(args)
            policy = os.path.join(out, "policy.pt")
            self.assertEqual(evaluate.load(policy)[1]["action_period"], 0.14)
            res = evaluate.evaluate(policy, episodes=2, num_envs=2, seed_base=7)
            self.assertAlmostEqual(res["action_period"], 0.14)
            car_policy.export_policy(policy, os.path.join(out, "car.pt"))
            self.assertEqual(car_policy.CarPolicy(os.path.join(out, "car.pt")).action_period, 0.14)
        self.assertIsNone(train_ppo.parse([]).action_period)  # the task's own, which the policy file keeps


@unittest.skipIf(torch is None, "PyTorch is missing (Debian: python3-torch; build/setup.sh installs it)")
class TrainingInputs(unittest.TestCase):
    def test_frame_too_small_names_the_least(self):
        import train_ppo

        for frame, says in ((16, "the least it takes with --pool"), (0, "give the frame's side")):
            with self.assertRaises(ValueError) as cm:
                train_ppo.check_frame(frame, 1)
            self.assertIn(says, str(cm.exception))
        train_ppo.check_frame(84, 1)  # the default takes

    def test_bad_arguments_are_refused_by_name(self):
        # --n-steps, --minibatches and --pool of 0 divided by zero deep in the update.
        import contextlib
        import io

        import train_ppo

        for argv, says in ((["--n-steps", "0"], "--n-steps 0: want a whole number, at least 1"),
                           (["--minibatches", "0"], "--minibatches 0: want a whole number"),
                           (["--pool", "0"], "--pool 0: want a whole number"),
                           (["--minibatches", "5000", "--num-envs", "2", "--n-steps", "8"], "at most --num-envs × --n-steps (16)"),
                           (["--gamma", "nan"], "--gamma nan: want a finite number from 0 to 1"),
                           (["--action-period", "0"], "--action-period 0.0: want seconds of sim time per step"),
                           (["--task", "simgui/Nope-v0"], "--task: unknown env id 'simgui/Nope-v0' (known: simgui/KS0223Corridor-v0"),
                           (["--window-episodes", "0"], "--curve-episodes 0")):
            err = io.StringIO()
            with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
                train_ppo.parse(argv)
            self.assertEqual(cm.exception.code, 2, argv)
            self.assertIn(says, err.getvalue(), argv)
        self.assertEqual(train_ppo.parse(["--window-episodes", "7"]).curve_episodes, 7)  # the old name still works

        import evaluate

        err = io.StringIO()
        with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
            evaluate.main(["--random", "--episodes", "-3"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("--episodes -3: want a whole number, at least 0", err.getvalue())
        err = io.StringIO()
        with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
            evaluate.main(["--random", "--task", "simgui/Nope-v0"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("--task: unknown env id 'simgui/Nope-v0'", err.getvalue())

    def test_summary_json_has_no_bare_nan(self):
        import train_ppo

        self.assertEqual(train_ppo.dumps({"return": float("nan"), "rows": [1.5, float("nan")]}),
                         '{"return": null, "rows": [1.5, null]}')

    def test_evaluate_prints_strict_json_without_episodes(self):
        # --episodes 0 printed bare NaN for the rates and means, which strict JSON readers
        # refuse (train_ppo.py's summary writes null for the same reason).
        import contextlib
        import io
        import json

        import evaluate

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            evaluate.main(["--random", "--episodes", "0", "--gif-episodes", "0"])
        res = json.loads(buf.getvalue(), parse_constant=lambda c: self.fail(f"{c} in {buf.getvalue()!r}"))
        self.assertEqual(res["episodes"], 0)
        self.assertIsNone(res["success_rate"])

    def test_ctrl_c_keeps_the_policy_so_far(self):
        # Ctrl-C in the middle of the first rollout still writes policy.pt and train.json.
        import json

        import torch
        import train_ppo

        def interrupt(n, envs):
            if n == 3:
                raise KeyboardInterrupt

        with hooked_steps(train_ppo, interrupt), tempfile.TemporaryDirectory() as out:
            summary = train_ppo.train(train_ppo.parse(short_run(out)))
            self.assertTrue(summary["interrupted"])
            self.assertEqual(summary["env_steps"], 4)
            ck = torch.load(os.path.join(out, "policy.pt"), map_location="cpu")
            self.assertIn("state_dict", ck)
            with open(os.path.join(out, "train.json")) as f:
                self.assertTrue(json.load(f)["interrupted"])

    def test_ctrl_c_is_not_a_success(self):
        # The command exited 0 after Ctrl-C, so `train_ppo.py && car_policy.py export ...`
        # went on with the half-trained policy; it exits as an interrupted command does.
        import train_ppo

        def interrupt(n, envs):
            if n == 3:
                raise KeyboardInterrupt

        with hooked_steps(train_ppo, interrupt), tempfile.TemporaryDirectory() as out, \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(train_ppo.cli(short_run(out)), 130)
            self.assertTrue(os.path.exists(os.path.join(out, "policy.pt")))
        with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(train_ppo.cli(short_run(out)), 0)  # a finished run


def short_run(out):
    """train_ppo's arguments for a short run into out: 2 envs, 64-step rollouts, no eval."""
    return ["--out", out, "--total-steps", "256", "--num-envs", "2", "--n-steps", "64", "--epochs", "1",
            "--threads", "1", "--quiet", "--eval-episodes", "0", "--gif-episodes", "0"]


@contextlib.contextmanager
def hooked_steps(train_ppo, before):
    """Within it, train_ppo's vector envs call before(n, envs) ahead of their n-th step (from 1)."""
    real = train_ppo.simgui.make_vec
    calls = {"n": 0}

    def make_vec(*a, **kw):
        envs = real(*a, **kw)
        step = envs.step

        def hooked(actions):
            calls["n"] += 1
            before(calls["n"], envs)
            return step(actions)

        envs.step = hooked
        return envs

    train_ppo.simgui.make_vec = make_vec
    try:
        yield
    finally:
        train_ppo.simgui.make_vec = real


class CarSonar(unittest.TestCase):
    """The car's sonar feature is what the envs observed in training for the same reading:
    the simulated KS0223 sonar reports its rangeMax (3.5 m) when nothing echoes, so the envs'
    observation never goes past 3.5 / 5; a real reading of no echo (None) or of more than that
    must not reach the policy as something it never saw (1.0, 0.8)."""

    def test_no_echo_reads_as_in_the_simulator(self):
        import json

        import car_policy

        with open(os.path.join(HERE, "..", "..", "assets", "plugins", "vehicle.ks0223.v1", "descriptor.json")) as f:
            desc = json.load(f)
        sonar = next(s for s in desc["sensors"] if s["kind"] == "ultrasonic")
        range_max = sonar["params"]["rangeMax"]
        sim_no_echo = float(np.float32(range_max / 5.0))  # tasks.observations of a reading of rangeMax
        for reading in (None, float("inf"), float("nan"), range_max, range_max + 0.7, 10.0):
            self.assertAlmostEqual(car_policy.sonar_feature(reading), sim_no_echo, places=6, msg=reading)
        self.assertAlmostEqual(car_policy.sonar_feature(1.0), 0.2)
        self.assertEqual(car_policy.sonar_feature(-0.1), 0.0)

    @unittest.skipUnless(os.environ.get("SIMGUI_BIN"), "needs simgui (SIMGUI_BIN)")
    def test_no_echo_matches_an_env_in_the_open(self):
        # An open arena: nothing within the sonar's range ahead of the spawn.
        import car_policy
        import simgui

        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "arena.yaml")
            with open(path, "w") as f:
                f.write("world: {trackId: track.basic_arena.v1}\nvehicle: {vehicleId: vehicle.ks0223.v1}\n")
            with simgui.make("simgui/KS0223Corridor-v0", scenario=path, randomize=False) as env:
                obs, info = env.reset(seed=0)
        self.assertAlmostEqual(float(obs["ultrasonic"][0]), car_policy.sonar_feature(None), places=6)


@unittest.skipIf(torch is None, "PyTorch is missing (Debian: python3-torch; build/setup.sh installs it)")
class SimguiDiesMidTraining(unittest.TestCase):
    def test_the_policy_so_far_is_kept(self):
        # simgui killed during training (the OOM killer, a stray kill): the run fails, saying
        # so, and still writes the policy so far, as Ctrl-C does; it wrote nothing before.
        import json

        import torch
        import train_ppo

        def die(n, envs):
            if n == 70:  # in the second rollout, after one update
                envs._s.proc.proc.kill()
                envs._s.proc.proc.wait()

        with hooked_steps(train_ppo, die), tempfile.TemporaryDirectory() as out:
            with self.assertRaisesRegex(RuntimeError, r"(?s)simgui was killed by SIGKILL \(signal 9\).*the policy so far is in"):
                train_ppo.train(train_ppo.parse(short_run(out)))
            ck = torch.load(os.path.join(out, "policy.pt"), map_location="cpu")
            self.assertIn("state_dict", ck)
            with open(os.path.join(out, "train.json")) as f:
                summary = json.load(f)
            self.assertTrue(summary["interrupted"])
            self.assertEqual(summary["env_steps"], 2 * 69)
            self.assertIn("simgui was killed by SIGKILL (signal 9)", summary["error"])


@unittest.skipIf(torch is None, "PyTorch is missing (Debian: python3-torch; build/setup.sh installs it)")
class MixedUpFiles(unittest.TestCase):
    def test_each_file_where_the_other_is_wanted_says_so(self):
        # evaluate.py given the car's export failed with "evaluate: " and nothing after it (a
        # NotImplementedError without a message); car_policy.py check given the training's
        # policy.pt with "PytorchStreamReader failed locating file constants.pkl".
        import car_policy
        import evaluate
        import torch
        import train_ppo

        with tempfile.TemporaryDirectory() as d:
            policy, car = os.path.join(d, "policy.pt"), os.path.join(d, "car.pt")
            torch.save({"state_dict": train_ppo.Policy(84, 84).state_dict(), "task": "simgui/KS0223Corridor-v0",
                        "frame": 84, "pool": 2, "actions": 2, "action_names": ["throttle", "steer"],
                        "train_seeds": [], "randomize": True, "randomization": {}, "scenario_text": None,
                        "scenario_path": None}, policy)
            car_policy.export_policy(policy, car)
            with self.assertRaisesRegex(ValueError, r"not a car_policy.py export.*car_policy.py export"):
                car_policy.CarPolicy(policy)
            with self.assertRaisesRegex(ValueError, r"not a policy.pt of train_ppo.py"):
                evaluate.load(car)
            junk = os.path.join(d, "junk.pt")
            with open(junk, "wb") as f:
                f.write(b"not a model")
            with self.assertRaisesRegex(ValueError, "not a car_policy.py export"):
                car_policy.CarPolicy(junk)
            with self.assertRaisesRegex(ValueError, "not a policy.pt of train_ppo.py"):
                evaluate.load(junk)


if __name__ == "__main__":
    unittest.main()
