"""The fast path and the HTTP path (rusim's API) give the same observations, states and rewards
for the same seed and actions; the frames differ only by the API's JPEG."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import simgui  # noqa: E402

ID = "simgui/KS0223Corridor-v0"


def stopped_all_threads(pid, timeout=10.0):
    """Waits until every thread of process pid is stopped (state T)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = []
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    states.append(f.read().rsplit(")", 1)[1].split()[0])
            except OSError:
                pass
        if states and all(st in ("T", "t") for st in states):
            return
        time.sleep(0.005)
    raise AssertionError(f"process {pid} did not stop")


class FastVersusHTTP(unittest.TestCase):
    def test_same_observations(self):
        # JPEG at quality 100 (the fast path's raw frames do not use the setting).
        task = simgui.TASKS[ID].with_options(vehicle_params={"camera.jpeg_quality": 100})
        with task.scenario_path() as scenario:
            proc = simgui.SimguiProcess(http=True, scenario=str(scenario))
        try:
            fast = simgui.make(ID, task=task, simgui=proc)
            slow = simgui.make(ID, task=task, transport="http", simgui=proc.http_url)
            try:
                self._compare(fast, slow)
            finally:
                fast.close()
                slow.close()
        finally:
            proc.close()

    def test_http_refuses_another_tasks_simgui(self):
        # A simgui running the KS0223 corridor is not the A→B task's (the Prometeo on the
        # basic arena): making the env says so rather than training the wrong task.
        with simgui.TASKS[ID].scenario_path() as scenario:
            proc = simgui.SimguiProcess(http=True, scenario=str(scenario))
        try:
            with self.assertRaisesRegex(RuntimeError, r"runs track track.cardboard_corridor.v1, not the task's track.basic_arena.v1"):
                simgui.make("simgui/ABCorridor-v0", transport="http", simgui=proc.http_url)
            with simgui.make(ID, transport="http", simgui=proc.http_url) as env:
                env.reset(seed=1)  # its own task's simgui: no complaint
        finally:
            proc.close()
        # The task's track and vehicle, but another scenario (the default one, 0.05 s a step,
        # its own randomization): the steps would be half the task's length.
        proc = simgui.SimguiProcess(http=True)
        try:
            with self.assertRaisesRegex(RuntimeError, r"advances 0.05 s of sim time a step, not the task's 0.1 s"):
                simgui.make(ID, transport="http", simgui=proc.http_url)
        finally:
            proc.close()

    def test_a_refused_http_env_closes_its_socket(self):
        # An HTTP env refused while it is made (another task's simgui) left its connection to
        # the garbage collector: "ResourceWarning: unclosed <socket.socket ...>".
        import gc
        import warnings

        with simgui.TASKS[ID].scenario_path() as scenario:
            proc = simgui.SimguiProcess(http=True, scenario=str(scenario))
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ResourceWarning)
                try:
                    simgui.make("simgui/ABCorridor-v0", transport="http", simgui=proc.http_url)
                except RuntimeError:
                    pass
                gc.collect()
            self.assertEqual([str(w.message) for w in caught if issubclass(w.category, ResourceWarning)], [])
        finally:
            proc.close()

    def test_http_timeout_says_so_and_then_out_of_step(self):
        # A step that gets no reply within reply_timeout (a stopped simgui) says so, as the
        # fast path does; the env then says it is out of step at every use (reset too), not
        # that the connection broke (it raised a bare TimeoutError, then "the connection to
        # simgui ... broke (CannotSendRequest: Request-sent)").
        import signal
        import time

        env = simgui.make(ID, transport="http", reply_timeout=1)
        try:
            env.reset(seed=1)
            pid = env._s.proc.proc.pid
            os.kill(pid, signal.SIGSTOP)
            stopped_all_threads(pid)  # kill() returns before every thread has stopped
            try:
                with self.assertRaisesRegex(RuntimeError, r"^/step: simgui sent no reply within 1 s"):
                    env.step([0.5, 0.0])
            finally:
                os.kill(pid, signal.SIGCONT)
            time.sleep(0.2)
            with self.assertRaisesRegex(RuntimeError, "out of step: close the env and make a new one"):
                env.step([0.5, 0.0])
            with self.assertRaisesRegex(RuntimeError, "out of step: close the env and make a new one"):
                env.reset(seed=1)
        finally:
            env.close()

    def _compare(self, fast, slow):
        rng = np.random.default_rng(5)
        for seed in (7, 8):
            of, inf = fast.reset(seed=seed)
            oh, inh = slow.reset(seed=seed)
            self.assertEqual(inf["reset"]["draws"], inh["reset"]["draws"], "the same randomization draws")
            frames, worst = [of["image"]], 0.0
            for k in range(25):
                a = np.array([0.7, 0.25 * np.sin(k / 3) + rng.uniform(-0.05, 0.05)], np.float32)
                of, rf, tef, trf, inf = fast.step(a)
                oh, rh, teh, trh, inh = slow.step(a)
                where = f"seed {seed} step {k}"
                np.testing.assert_array_equal(of["ultrasonic"], oh["ultrasonic"], where)
                for key in ("x", "y", "route_index", "route_distance", "sim_time"):
                    self.assertEqual(inf[key], inh[key], f"{where}: {key}")
                self.assertAlmostEqual(inf["yaw"], inh["yaw"], places=12, msg=where)
                if not inf["crash"]:
                    self.assertEqual(rf, rh, where)
                    self.assertEqual((tef, trf), (teh, trh), where)
                worst = max(worst, np.abs(of["image"].astype(int) - oh["image"].astype(int)).mean())
                frames.append(of["image"])
                if tef or trf:
                    break
            motion = np.mean([np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(frames, frames[3:])])
            # JPEG at quality 100 costs about two levels on average; three steps of driving
            # change a frame by far more.
            self.assertLess(worst, 3.0, f"seed {seed}")
            self.assertGreater(motion, 3 * worst, f"seed {seed}: frames barely change, the comparison says little")


if __name__ == "__main__":
    unittest.main()
