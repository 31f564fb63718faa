"""Runs a trained policy on the real car: export it once, then feed it camera frames and sonar
readings and get motor commands back.

Export (on the training machine, where train_ppo.py is):

    /usr/bin/python3 examples/python/car_policy.py export out/train-demo/policy.pt car.pt

writes car.pt, a TorchScript file that needs only torch to load — not this repository, not the
Policy class. On the car (Python with torch, numpy and OpenCV; copy this file there):

    from car_policy import CarPolicy
    policy = CarPolicy("car.pt")
    left, right = policy.motors(frame_rgb, sonar_m)   # each -1..1, scale to your PWM range
    # once every policy.action_period seconds, the step it was trained at

``frame_rgb`` is the camera's frame as an (H, W, 3) uint8 array in RGB order (OpenCV gives
BGR: ``frame[..., ::-1]``); ``sonar_m`` the ultrasonic reading in metres (None for no echo).
The frame is cropped to its centre square and resized to the policy's frame, as the
simulator's square frame is the centre square of the camera's view; the sonar is scaled as the
envs scale it (metres / 5), with no echo and readings past 3.5 m read as 3.5 m, as the
simulated sonar reports them.

Check an export against the simulator's frames, and the mixing, with:

    /usr/bin/python3 examples/python/car_policy.py check car.pt [--episodes 16] [--visual]

(the flat look, or with --visual the visual randomization a --visual policy trained in).
"""

import argparse
import sys
from pathlib import Path

import numpy as np

#: The envs' sonar scale: metres / SONAR_RANGE_M, clipped to 0..1.
SONAR_RANGE_M = 5.0
#: The simulated KS0223 sonar's range (its descriptor's rangeMax): with no echo it reads this,
#: so the envs never observed more than SONAR_MAX_M / SONAR_RANGE_M (0.7). A real reading of
#: no echo, or of farther, is given to the policy as this.
SONAR_MAX_M = 3.5


def export_policy(src, dst):
    """Writes dst, a TorchScript module (image uint8 (N, S, S, 3), sonar float32 (N, 1)) ->
    actions float32 (N, 2): throttle and steer in -1..1, steer > 0 turning right. The frame side
    S is in the file's extra "frame" entry."""
    import torch

    from evaluate import load

    class Mean(torch.nn.Module):
        """The network's mean action: what evaluate.py drives with (deterministic)."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, image, sonar):
            mu, _, _ = self.net(image, sonar)
            return mu.clamp(-1.0, 1.0)

    net, ck = load(src)
    if ck.get("actions", 2) != 2:
        names = ", ".join(ck.get("action_names") or ())
        raise ValueError(f"{src} drives ({names}): a car policy takes (throttle, steer), as the KS0223 does")
    frame = int(ck["frame"])
    mean = Mean(net).eval()
    example = (torch.zeros(1, frame, frame, 3, dtype=torch.uint8), torch.zeros(1, 1))
    with torch.no_grad():
        traced = torch.jit.trace(mean, example)
    # The step's length it was trained at (train_ppo.py --action-period, else its task's or
    # scenario's; "" for a policy.pt from before train_ppo.py kept it): the car's loop should run
    # at it, and `check` drives at it.
    period = ck.get("action_period")
    torch.jit.save(traced, dst, _extra_files={"frame": str(frame), "action_period": "" if period is None else repr(period)})
    return frame


def centre_square(frame, side):
    """The centre square of an (H, W, 3) frame, resized to side × side (area averaging when
    shrinking, as the simulator's smaller frames are drawn)."""
    import cv2

    h, w = frame.shape[:2]
    s = min(h, w)
    y, x = (h - s) // 2, (w - s) // 2
    sq = np.ascontiguousarray(frame[y:y + s, x:x + s])
    if s == side:
        return sq
    return cv2.resize(sq, (side, side), interpolation=cv2.INTER_AREA if s > side else cv2.INTER_LINEAR)


def sonar_feature(metres):
    """The envs' sonar observation of a reading in metres (None: no echo): no echo, or a
    reading past the simulated sonar's range, reads as that range, as in training."""
    if metres is None or not np.isfinite(metres):
        metres = SONAR_MAX_M
    return float(np.clip(min(metres, SONAR_MAX_M) / SONAR_RANGE_M, 0.0, 1.0))


def mix(throttle, steer):
    """The KS0223's motor commands (left, right), each -1..1, for a throttle and a steer (> 0
    turns right), as the simulator's differential drive mixes them."""
    left = float(np.clip(throttle + steer, -1.0, 1.0))
    right = float(np.clip(throttle - steer, -1.0, 1.0))
    return left, right


class CarPolicy:
    """An exported policy (export_policy), for the car."""

    def __init__(self, path):
        import torch

        extra = {"frame": "", "action_period": ""}
        hint = "make one from a train_ppo.py policy.pt with `car_policy.py export policy.pt car.pt`"
        try:
            self.module = torch.jit.load(path, map_location="cpu", _extra_files=extra)
        except RuntimeError as e:  # a policy.pt (no constants.pkl), not a model at all
            raise ValueError(f"{path} is not a car_policy.py export (TorchScript): {hint} ({e})") from None
        if not extra["frame"].isdigit():
            raise ValueError(f"{path} is not a car_policy.py export: it names no frame size; {hint}")
        self.module.eval()
        self.frame = int(extra["frame"])
        #: Seconds between actions the policy was trained at; None for an export of a policy.pt
        #: from before train_ppo.py kept it (the task's 0.1 s).
        self.action_period = float(extra["action_period"]) if extra["action_period"] else None
        self._torch = torch

    def act(self, frame_rgb, sonar_m):
        """(throttle, steer) for one camera frame and sonar reading."""
        torch = self._torch
        frame = np.asarray(frame_rgb)
        if frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) == 0:
            raise ValueError(f"frame_rgb: want an (H, W, 3) RGB frame, got shape {frame.shape}")
        if frame.dtype != np.uint8:
            # A 0..1 float frame cast to uint8 is black: say so rather than drive blind.
            raise ValueError(f"frame_rgb: want uint8 values 0..255, got {frame.dtype} "
                             "(a 0..1 frame: (frame * 255).astype(np.uint8))")
        img = centre_square(frame, self.frame)
        with torch.no_grad():
            a = self.module(torch.from_numpy(img)[None], torch.tensor([[sonar_feature(sonar_m)]], dtype=torch.float32))
        return float(a[0, 0]), float(a[0, 1])

    def motors(self, frame_rgb, sonar_m):
        """(left, right) motor commands, each -1..1, for one camera frame and sonar reading."""
        return mix(*self.act(frame_rgb, sonar_m))


def check(path, episodes=8, seed_base=2_000_000_000, visual=False):
    """Drives the corridor task with the exported policy fed 640×480 frames (cropped and resized
    here, as on the car) and returns how many of the episodes it finished: in the flat look, or
    with visual randomization (the realistic look, as --visual trains in)."""
    import simgui

    policy = CarPolicy(path)
    done_ok = 0
    kw = {"randomization": simgui.VISUAL_RANDOMIZATION} if visual else {}
    if policy.action_period is not None:
        kw["action_period"] = policy.action_period
    env = simgui.make("simgui/KS0223Corridor-v0", frame_size=(640, 480), **kw)
    try:
        for k in range(episodes):
            obs, _ = env.reset(seed=seed_base + k)
            while True:
                sonar = float(obs["ultrasonic"][0]) * SONAR_RANGE_M
                obs, _, term, trunc, info = env.step(np.array(policy.act(obs["image"], sonar), np.float32))
                if term or trunc:
                    done_ok += bool(info["success"])
                    break
    finally:
        env.close()
    return done_ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="write a TorchScript file of a trained policy.pt")
    ex.add_argument("policy", help="policy.pt from train_ppo.py")
    ex.add_argument("out", help="the TorchScript file to write (car.pt)")
    ck = sub.add_parser("check", help="drive the corridor task in simgui with an exported policy on 640×480 frames")
    ck.add_argument("exported")
    ck.add_argument("--episodes", type=int, default=8)
    ck.add_argument("--visual", action="store_true", help="with visual randomization (the realistic look)")
    args = ap.parse_args(argv)
    if args.cmd == "check" and args.episodes < 1:
        ap.error(f"--episodes {args.episodes}: want a whole number, at least 1")
    # This checkout's simgui package and evaluate.py, as the other examples find them (on the
    # car, where this file is alone, neither is needed).
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parents[1] / "python")]
    try:
        if args.cmd == "export":
            frame = export_policy(args.policy, args.out)
            print(f"{args.out}: the policy on {frame}×{frame} frames; load it with CarPolicy({args.out!r})")
        else:
            n = check(args.exported, args.episodes, visual=args.visual)
            look = "with visual randomization" if args.visual else "in the flat look"
            print(f"{args.exported}: finished {n} of {args.episodes} held-out corridor episodes on 640×480 frames {look}")
    except (OSError, ValueError, RuntimeError, KeyError) as e:
        sys.exit(f"car_policy {args.cmd}: {e}")


if __name__ == "__main__":
    main()
