#!/usr/bin/python3
"""Scores a policy saved by train_ppo.py on held-out seeds: episodes whose seeds the training
never drew, domain randomization on (as in training), the policy's mean action.

    /usr/bin/python3 examples/python/evaluate.py out/ppo/policy.pt --episodes 100 --gif out/ppo/eval.gif
    /usr/bin/python3 examples/python/evaluate.py --random --task simgui/KS0223Corridor-v0   # baseline

Prints a JSON line: success rate, mean return and length, and the seeds used. --gif writes a few
episodes as an animated GIF: the car's camera (left) beside a map of the track from above with
the route, the walls and the path driven so far (right).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
import simgui  # noqa: E402

#: Held-out seeds start here; training draws its episode seeds from its generators, and any
#: seed it used is skipped.
HELD_OUT_BASE = 1_000_000_000


def load(path):
    import torch

    from train_ppo import Policy

    try:
        with warnings.catch_warnings():
            # A TorchScript file (a car.pt) makes torch.load warn before it fails; the error
            # below says what the file is and what reads it.
            warnings.filterwarnings("ignore", message=".*TorchScript.*")
            ck = torch.load(path, map_location="cpu")
    except (RuntimeError, pickle.UnpicklingError, EOFError) as e:  # a TorchScript file: NotImplementedError()
        ck, why = None, f" ({type(e).__name__}: {e})" if str(e) else ""
    else:
        why = ""
    if not isinstance(ck, dict) or "state_dict" not in ck:
        raise ValueError(f"{path} is not a policy.pt of train_ppo.py{why}; a car_policy.py export (car.pt) is "
                         "driven by `car_policy.py check`, the policy.pt it was made from is scored here")
    net = Policy(ck["frame"], ck["frame"], pool=ck["pool"], actions=ck.get("actions", 2))
    net.load_state_dict(ck["state_dict"])
    net.eval()
    return net, ck


def held_out_seeds(n, used):
    out, s = [], HELD_OUT_BASE
    while len(out) < n:
        if s not in used:
            out.append(s)
        s += 1
    return out


def evaluate(policy=None, *, task=None, episodes=100, num_envs=16, gif=None, gif_episodes=3, randomize=True,
             frame=84, seed_base=None, randomization=None, scenario=None):
    """Runs `episodes` episodes (one per held-out seed) and returns the scores: in the
    conditions the policy was trained in (its randomization and scenario), with
    `randomization` on top. A random policy runs in `scenario` (a file) when given."""
    net, used, trained, scenario_text, scenario_path, period = None, set(), {}, None, None, None
    if scenario is not None:
        scenario_path = os.path.abspath(scenario)
        scenario_text = Path(scenario_path).read_text()
    if policy is not None:
        net, ck = load(policy)
        task, frame, randomize = ck["task"], ck["frame"], ck.get("randomize", True)
        trained, scenario_text = ck.get("randomization") or {}, ck.get("scenario_text")
        scenario_path = ck.get("scenario_path")
        # The step's length it was trained at (train_ppo.py --action-period; None: the task's).
        period = ck.get("action_period")
        used = set(ck["train_seeds"])
    with tempfile.TemporaryDirectory() as d:
        scenario = None
        if scenario_text is not None:
            # The file trained on while it is unchanged (its relative paths still resolve),
            # else its text as it was.
            if scenario_path and os.path.isfile(scenario_path) and Path(scenario_path).read_text() == scenario_text:
                scenario = scenario_path
            else:
                scenario = os.path.join(d, "scenario.yaml")
                Path(scenario).write_text(scenario_text)
        make = {"frame_size": (frame, frame), "randomize": randomize,
                "randomization": {**trained, **(randomization or {})}, "scenario": scenario, "action_period": period}
        return _evaluate(net, used, task, episodes, num_envs, gif, gif_episodes, seed_base, policy, make)


def _evaluate(net, used, task, episodes, num_envs, gif, gif_episodes, seed_base, policy, make):
    rng = np.random.default_rng(0)
    seeds = held_out_seeds(episodes, used) if seed_base is None else list(range(seed_base, seed_base + episodes))
    results = []
    period = make["action_period"]
    if episodes > 0:
        n = min(num_envs, episodes)
        env = simgui.make_vec(task, num_envs=n, **make)
        period = env.action_period  # as simgui runs it: the task's when none was given
        for b in range(0, len(seeds), n):
            batch = seeds[b:b + n]
            batch += [batch[-1]] * (n - len(batch))  # pad; extra envs are not counted
            obs, _ = env.reset(seed=batch)
            live = np.ones(n, bool)
            live[len(seeds[b:b + n]):] = False
            ret, length = np.zeros(n), np.zeros(n, int)
            while live.any():
                a = net.act(obs, deterministic=True) if net is not None else rng.uniform(-1, 1, env.action_space.shape)
                obs, r, term, trunc, info = env.step(np.clip(a, -1, 1))
                ret += np.where(live, r, 0)
                length += live
                for i in np.flatnonzero(live & (term | trunc)):
                    results.append({"seed": batch[i], "return": float(ret[i]), "length": int(length[i]),
                                    "success": bool(info["success"][i]), "crash": bool(info["crash"][i])})
                    live[i] = False
        env.close()
    out = {
        "task": task, "policy": str(policy) if policy else "random", "episodes": len(results),
        "success_rate": float(np.mean([r["success"] for r in results])) if results else None,
        "crash_rate": float(np.mean([r["crash"] for r in results])) if results else None,
        "mean_return": float(np.mean([r["return"] for r in results])) if results else None,
        "mean_length": float(np.mean([r["length"] for r in results])) if results else None,
        "seeds": [seeds[0], seeds[-1]] if seeds else [], "held_out": not (set(seeds) & used),
        "randomization": make["randomization"], "action_period": period,
    }
    if gif:
        out["gif"] = write_gif(net, task, make, held_out_seeds(gif_episodes, used | set(seeds)), gif, rng)
    return out


def write_gif(net, task, make, seeds, path, rng):
    """Plays one episode per seed and writes camera and map side by side as a GIF."""
    from PIL import Image, ImageDraw

    env = simgui.make(task, layout=True, **make)
    frames, summary = [], []
    cam_px, map_px = 252, 252
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        ep = info["reset"]
        elems = ep.get("elements") or []
        pts = [(e[0], e[1]) for e in elems] + [tuple(w) for w in (ep.get("route") or {}).get("waypoints", [])]
        xs, ys = [p[0] for p in pts] + [info["x"]], [p[1] for p in pts] + [info["y"]]
        lo_x, hi_x, lo_y, hi_y = min(xs) - 0.3, max(xs) + 0.3, min(ys) - 0.3, max(ys) + 0.3
        scale = (map_px - 10) / max(hi_x - lo_x, hi_y - lo_y)

        def to_px(x, y):
            return 5 + (x - lo_x) * scale, map_px - 5 - (y - lo_y) * scale

        trail, done, ret, k = [(info["x"], info["y"])], False, 0.0, 0
        while True:
            img = Image.new("RGB", (cam_px + map_px, max(cam_px, map_px) + 22), (30, 30, 30))
            img.paste(Image.fromarray(obs["image"]).resize((cam_px, cam_px), Image.NEAREST), (0, 0))
            d = ImageDraw.Draw(img)
            ox = cam_px
            d.rectangle([ox, 0, ox + map_px, map_px], fill=(201, 165, 107))
            for x, y, length, width, yaw in elems:
                c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
                corners = [(x + c * u - s * v, y + s * u + c * v) for u, v in
                           [(-length / 2, -width / 2), (length / 2, -width / 2), (length / 2, width / 2), (-length / 2, width / 2)]]
                d.polygon([(ox + px, py) for px, py in (to_px(*q) for q in corners)], fill=(90, 60, 30))
            for wx, wy in (ep.get("route") or {}).get("waypoints", []):
                px, py = to_px(wx, wy)
                d.ellipse([ox + px - 3, py - 3, ox + px + 3, py + 3], outline=(0, 90, 200))
            if len(trail) > 1:
                d.line([(ox + a, b) for a, b in (to_px(*p) for p in trail)], fill=(220, 30, 30), width=2)
            px, py = to_px(info["x"], info["y"])
            hx, hy = to_px(info["x"] + 0.15 * math.cos(info["yaw"]), info["y"] + 0.15 * math.sin(info["yaw"]))
            d.ellipse([ox + px - 4, py - 4, ox + px + 4, py + 4], fill=(255, 255, 255))
            d.line([(ox + px, py), (ox + hx, hy)], fill=(255, 255, 255), width=2)
            status = "success" if done and info.get("success") else ("crash" if done and info.get("crash") else "")
            d.text((4, max(cam_px, map_px) + 4), f"seed {seed}  step {k}  return {ret:.1f}  {status}", fill=(255, 255, 255))
            frames.append(img)
            if done:
                frames.extend([img] * 8)  # hold the last frame
                break
            a = net.act({"image": obs["image"][None], "ultrasonic": obs["ultrasonic"][None]}, deterministic=True)[0] \
                if net is not None else rng.uniform(-1, 1, env.action_space.shape)
            obs, r, term, trunc, info = env.step(np.clip(a, -1, 1))
            ret += r
            k += 1
            trail.append((info["x"], info["y"]))
            done = term or trunc
        summary.append({"seed": seed, "steps": k, "return": round(ret, 2), "success": bool(info["success"])})
    env.close()
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    return {"path": str(path), "episodes": summary}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("policy", nargs="?", help="policy.pt from train_ppo.py")
    p.add_argument("--random", action="store_true", help="score a uniformly random policy instead")
    p.add_argument("--task", default="simgui/KS0223Corridor-v0", help="task of --random")
    p.add_argument("--scenario", help="scenario file of --random (a policy runs in the one it was trained in)")
    p.add_argument("--episodes", type=int, default=100)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--gif", help="write a few episodes as a GIF here")
    p.add_argument("--gif-episodes", type=int, default=3)
    p.add_argument("--seed-base", type=int, help="use seeds seed-base.. instead of the held-out ones")
    p.add_argument("--randomization", action="append", default=[], metavar="KEY=VALUE",
                   help="draw this too, over what the policy was trained with (repeatable)")
    args = p.parse_args(argv)
    if not args.policy and not args.random:
        p.error("give a policy or --random")
    try:  # an unknown id was a KeyError traceback
        simgui.spec(args.task)
    except KeyError as e:
        p.error(f"--task: {e.args[0]}")
    for flag, v in (("--episodes", args.episodes), ("--gif-episodes", args.gif_episodes)):
        if v < 0:  # -3 episodes scored nothing without a word
            p.error(f"{flag} {v}: want a whole number, at least 0")
    if args.scenario and not args.random:
        p.error("--scenario is for --random: a policy runs in the scenario it was trained in")
    try:
        extra = simgui.parse_randomization(args.randomization)
    except ValueError as e:
        p.error(f"--{e}")
    res = evaluate(None if args.random else args.policy, task=args.task, episodes=args.episodes,
                   num_envs=args.num_envs, gif=args.gif, gif_episodes=args.gif_episodes, seed_base=args.seed_base,
                   randomization=extra, scenario=args.scenario)
    print(json.dumps(res))
    return res


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        main()
    except (ValueError, OSError, RuntimeError) as e:  # a bad argument, file or simgui: one line, no traceback
        sys.exit(f"evaluate: {e}")
