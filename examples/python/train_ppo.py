#!/usr/bin/python3
"""PPO from pixels on simgui: a small CNN over the 84×84 camera frame plus the sonar, on the fast
path's vector env, in PyTorch on the CPU.

    /usr/bin/python3 examples/python/train_ppo.py --out out/ppo            # KS0223Corridor-v0
    /usr/bin/python3 examples/python/evaluate.py out/ppo/policy.pt          # held-out seeds

Writes into --out: policy.pt (weights, settings and the episode seeds trained on),
curve.png (return and success rate against env steps), curve.csv, eval.gif (a few
evaluation episodes: the car's camera beside a map of the track with its path) and
train.json (a summary). With --window the simgui window opens on the first env; pick any
other env with [ and ] or the World… list.

The budget on a 2-core machine: a forward pass of the network costs about 0.1 ms per sample
and a PPO update about 0.3 ms per sample and epoch, so the defaults (3 epochs, 42×42 inside
the net) cost about 1 ms per env step; the simulator adds about 0.1 ms.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))  # the checkout's package
import simgui  # noqa: E402


class Policy(nn.Module):
    """Actor-critic over {image uint8 (H, W, 3), ultrasonic (1,)}: the image is averaged down by
    `pool` (84 → 42), three convolutions, one hidden layer with the sonar, a Gaussian policy
    over the env's actions — (throttle, steer), and vertical for a vehicle that flies — and a
    value head."""

    def __init__(self, height=84, width=84, pool=2, hidden=128, actions=2):
        super().__init__()
        self.pool, self.actions = pool, actions
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 4, stride=2), nn.ReLU(),
            nn.Conv2d(16, 32, 4, stride=2), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2), nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            n = self.conv(torch.zeros(1, 3, height // pool, width // pool)).shape[1]
        self.fc = nn.Sequential(nn.Linear(n + 1, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        self.log_std = nn.Parameter(torch.full((actions,), -1.0))
        nn.init.orthogonal_(self.mu.weight, 0.01)
        nn.init.zeros_(self.mu.bias)
        nn.init.orthogonal_(self.value.weight, 1.0)

    def features(self, image, sonar):
        x = image.permute(0, 3, 1, 2).float().div_(255.0)
        if self.pool > 1:
            x = F.avg_pool2d(x, self.pool)
        return self.fc(torch.cat([self.conv(x), sonar], dim=1))

    def forward(self, image, sonar):
        h = self.features(image, sonar)
        return self.mu(h), self.log_std.expand(h.shape[0], self.actions), self.value(h).squeeze(1)

    def act(self, obs, deterministic=False):
        """Actions for a batch of observations (numpy in, numpy out)."""
        with torch.no_grad():
            mu, log_std, _ = self(torch.from_numpy(obs["image"]), torch.from_numpy(obs["ultrasonic"]))
            a = mu if deterministic else mu + log_std.exp() * torch.randn_like(mu)
        return a.numpy()


def log_prob(mu, log_std, a):
    return (-0.5 * ((a - mu) / log_std.exp()) ** 2 - log_std - 0.5 * np.log(2 * np.pi)).sum(1)


def conditions(args) -> dict:
    """The randomization the envs draw on top of the task's: --visual's preset, then each
    --randomization KEY=VALUE."""
    out = dict(simgui.VISUAL_RANDOMIZATION) if args.visual else {}
    try:
        out.update(simgui.parse_randomization(args.randomization))
    except ValueError as e:
        raise SystemExit(f"--{e}") from None
    return out


def train(args) -> dict:
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    randomization = conditions(args)
    scenario_text = Path(args.scenario).read_text() if args.scenario else None
    check_frame(args.frame, args.pool)
    envs = simgui.make_vec(args.task, num_envs=args.num_envs, frame_size=(args.frame, args.frame),
                           randomize=not args.no_randomize, window=args.window, randomization=randomization,
                           scenario=args.scenario, action_period=args.action_period)
    n, t = args.num_envs, args.n_steps
    actions = envs.single_action_space.shape[0]  # 3 for a vehicle that flies
    net = Policy(args.frame, args.frame, pool=args.pool, actions=actions)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    h = w = args.frame
    buf_img = torch.zeros((t, n, h, w, 3), dtype=torch.uint8)
    buf_son = torch.zeros((t, n, 1))
    buf_act = torch.zeros((t, n, actions))
    buf_logp = torch.zeros((t, n))
    buf_val = torch.zeros((t, n))
    buf_rew = torch.zeros((t, n))
    buf_done = torch.zeros((t, n))  # the step ended the episode (its next obs is a reset)
    buf_valid = torch.ones((t, n))  # 0 for autoreset steps (the action was ignored)

    obs, _ = envs.reset(seed=args.seed)
    ep_ret, ep_len = np.zeros(n), np.zeros(n, int)
    episodes = []  # (env steps so far, return, length, success)
    train_seeds = set(int(s) for s in envs._s.episode_seed)
    curve = []
    steps, start = 0, time.time()
    updates = max(1, args.total_steps // (n * t))
    last_done = np.zeros(n, bool)
    sim_time = 0.0
    interrupted, failure = False, None
    try:
        for update in range(updates):
            frac = 1.0 - update / updates
            for g in opt.param_groups:
                g["lr"] = args.lr * frac
            for k in range(t):
                img, son = torch.from_numpy(obs["image"]), torch.from_numpy(obs["ultrasonic"])
                with torch.no_grad():
                    mu, log_std, v = net(img, son)
                    a = mu + log_std.exp() * torch.randn_like(mu)
                    buf_logp[k], buf_val[k] = log_prob(mu, log_std, a), v
                buf_img[k], buf_son[k], buf_act[k] = img, son, a
                buf_valid[k] = torch.from_numpy((~last_done).astype(np.float32))
                t0 = time.time()
                obs, r, term, trunc, info = envs.step(np.clip(a.numpy(), -1.0, 1.0))
                sim_time += time.time() - t0
                steps += n
                done = term | trunc
                buf_rew[k] = torch.from_numpy((r * args.reward_scale).astype(np.float32))
                # A truncated episode is bootstrapped from its last observation's value.
                if trunc.any():
                    with torch.no_grad():
                        _, _, v_last = net(torch.from_numpy(obs["image"]), torch.from_numpy(obs["ultrasonic"]))
                    buf_rew[k] += args.gamma * v_last * torch.from_numpy(trunc.astype(np.float32))
                buf_done[k] = torch.from_numpy(done.astype(np.float32))
                ep_ret += np.where(last_done, 0, r)
                ep_len += ~last_done
                for i in np.flatnonzero(done):
                    episodes.append((steps, float(ep_ret[i]), int(ep_len[i]), bool(info["success"][i])))
                    ep_ret[i], ep_len[i] = 0, 0
                for i in np.flatnonzero(info["_reset"]):
                    train_seeds.add(int(info["episode_seed"][i]))
                last_done = done
            with torch.no_grad():
                _, _, next_v = net(torch.from_numpy(obs["image"]), torch.from_numpy(obs["ultrasonic"]))
            # GAE over the rollout; an autoreset step (invalid) carries no transition.
            adv = torch.zeros((t, n))
            gae = torch.zeros(n)
            for k in reversed(range(t)):
                nv = next_v if k == t - 1 else buf_val[k + 1]
                nonterm = 1.0 - buf_done[k]
                delta = buf_rew[k] + args.gamma * nv * nonterm - buf_val[k]
                gae = delta + args.gamma * args.gae_lambda * nonterm * gae
                gae = gae * buf_valid[k]
                adv[k] = gae
            ret = adv + buf_val
            idx = torch.nonzero(buf_valid.reshape(-1) > 0).squeeze(1)
            f_img, f_son = buf_img.reshape(-1, h, w, 3), buf_son.reshape(-1, 1)
            f_act, f_logp, f_adv, f_ret = buf_act.reshape(-1, actions), buf_logp.reshape(-1), adv.reshape(-1), ret.reshape(-1)
            f_val = buf_val.reshape(-1)
            mb = max(1, len(idx) // args.minibatches)
            f_adv = f_adv.clone()
            f_adv[idx] = (f_adv[idx] - f_adv[idx].mean()) / (f_adv[idx].std() + 1e-8)
            for _ in range(args.epochs):
                perm = idx[torch.randperm(len(idx))]
                for s in range(0, len(perm), mb):
                    j = perm[s:s + mb]
                    mu, log_std, v = net(f_img[j], f_son[j])
                    lp = log_prob(mu, log_std, f_act[j])
                    ratio = (lp - f_logp[j]).exp()
                    a_ = f_adv[j]
                    pg = torch.max(-a_ * ratio, -a_ * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                    v_clip = f_val[j] + (v - f_val[j]).clamp(-args.clip, args.clip)
                    vl = 0.5 * torch.max((v - f_ret[j]) ** 2, (v_clip - f_ret[j]) ** 2).mean()
                    ent = (log_std + 0.5 * np.log(2 * np.pi * np.e)).sum(1).mean()
                    loss = pg + args.vf_coef * vl - args.ent_coef * ent
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
                    opt.step()
            recent = episodes[-args.curve_episodes:]
            row = {"update": update + 1, "env_steps": steps, "wall_s": round(time.time() - start, 1),
                   "episodes": len(episodes),
                   "return": float(np.mean([e[1] for e in recent])) if recent else float("nan"),
                   "success": float(np.mean([e[3] for e in recent])) if recent else float("nan"),
                   "length": float(np.mean([e[2] for e in recent])) if recent else float("nan"),
                   "std": [round(x, 3) for x in net.log_std.exp().tolist()]}
            curve.append(row)
            if not args.quiet and (update % args.log_every == 0 or update == updates - 1):
                print(f"update {row['update']}/{updates} steps {steps} return {row['return']:.2f} "
                      f"success {row['success']:.2f} len {row['length']:.1f} std {row['std']} "
                      f"{steps / (time.time() - start):.0f} steps/s (sim {sim_time:.0f} s)", flush=True)
    except KeyboardInterrupt:
        # Ctrl-C: keep what was learnt so far (simgui has had the signal too and is ending).
        interrupted = True
        print(f"interrupted after {steps} env steps: saving the policy so far", file=sys.stderr, flush=True)
    except simgui.fastpath.FastPathError as e:
        # simgui ended or broke (killed, out of memory): keep what was learnt so far too, then fail.
        interrupted, failure = True, e
        print(f"simgui failed after {steps} env steps: saving the policy so far", file=sys.stderr, flush=True)
    wall = time.time() - start
    try:
        envs.close()
    except Exception as e:  # an interrupted simgui may be gone already
        if not interrupted:
            raise
        print(f"closing the envs: {e}", file=sys.stderr)
    torch.save({"state_dict": net.state_dict(), "task": args.task, "frame": args.frame, "pool": args.pool,
                "actions": actions, "action_names": list(envs.action_names),
                "train_seeds": sorted(train_seeds), "randomize": not args.no_randomize,
                "randomization": randomization, "scenario_text": scenario_text,
                # The step's length simgui ran (the task's or the scenario's when not given):
                # evaluate.py and the car's export run the policy at it.
                "action_period": envs.action_period,
                "scenario_path": str(Path(args.scenario).resolve()) if args.scenario else None}, out / "policy.pt")
    summary = {"task": args.task, "env_steps": steps, "wall_s": round(wall, 1), "sim_wall_s": round(sim_time, 1),
               "episodes": len(episodes), "final": curve[-1] if curve else None}
    if interrupted:
        summary["interrupted"] = True
    if failure is not None:
        summary["error"] = str(failure)
    if curve:
        with open(out / "curve.csv", "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(curve[0]))
            wr.writeheader()
            wr.writerows(curve)
        plot_curve(curve, out / "curve.png", args.task)
    (out / "train.json").write_text(dumps(summary, indent=2))
    if failure is not None:
        raise RuntimeError(f"{failure}\nthe policy so far is in {out / 'policy.pt'}; evaluate.py scores it") from failure
    return summary


def dumps(obj, **kw):
    """JSON text of obj with NaN written as null (a mean over no episodes yet): strict JSON
    readers refuse a bare NaN."""
    def clean(x):
        if isinstance(x, float) and x != x:
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        return x
    return json.dumps(clean(obj), **kw)


def check_frame(frame, pool):
    """Refuses a frame side the network cannot take, naming the smallest it can, before
    simgui starts."""
    if frame <= 0:
        raise ValueError(f"--frame {frame}: give the frame's side in pixels (the network takes square frames)")

    def fits(side):
        # Its own random stream: the trained network's initial weights stay the seed's.
        with torch.random.fork_rng(devices=[]), torch.no_grad():
            try:
                Policy(side, side, pool=pool)(torch.zeros(1, side, side, 3, dtype=torch.uint8), torch.zeros(1, 1))
                return True
            except RuntimeError:
                return False

    if not fits(frame):
        least = next((s for s in range(frame + 1, 1025) if fits(s)), None)
        hint = f"; the least it takes with --pool {pool} is {least}" if least else ""
        raise ValueError(f"--frame {frame} is too small for the network's convolutions{hint}")


def plot_curve(curve, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["env_steps"] for r in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(x, [r["return"] for r in curve], color="tab:blue")
    ax.set_xlabel("env steps")
    ax.set_ylabel("episode return (mean of recent)", color="tab:blue")
    ax2 = ax.twinx()
    ax2.plot(x, [r["success"] for r in curve], color="tab:green")
    ax2.set_ylabel("success rate", color="tab:green")
    ax2.set_ylim(-0.02, 1.02)
    ax.set_title(f"PPO on {title}")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", default="simgui/KS0223Corridor-v0")
    p.add_argument("--out", default="out/ppo")
    p.add_argument("--total-steps", type=int, default=200_000)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--reward-scale", type=float, default=0.1)
    p.add_argument("--frame", type=int, default=84, help="camera frame side, pixels")
    p.add_argument("--pool", type=int, default=2, help="average the frame down by this inside the net")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-randomize", action="store_true", help="turn domain randomization off")
    p.add_argument("--visual", action="store_true",
                   help="visual domain randomization (simgui.VISUAL_RANDOMIZATION): textures, sun, distractors, "
                        "lens and film, in the realistic look; resets cost about 20 ms more")
    p.add_argument("--randomization", action="append", default=[], metavar="KEY=VALUE",
                   help="draw this too, as simgui's randomization flags take it (repeatable), "
                        "e.g. sensors.image_noise=0,4")
    p.add_argument("--scenario", help="a scenario file of your own for the task (its track, vehicle and route)")
    p.add_argument("--action-period", type=float, metavar="SECONDS",
                   help="sim time per step, a whole number of physics steps (the real KS0223's control loop: "
                        "0.14); default the task's (0.1) or the scenario's runtime.actionPeriod")
    p.add_argument("--window", action="store_true", help="start simgui with its window to watch the envs")
    # --window-episodes, its first name, read as if it were about --window.
    p.add_argument("--curve-episodes", "--window-episodes", dest="curve_episodes", type=int, default=100,
                   help="episodes averaged in each point of the curve")
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--eval-episodes", type=int, default=100, help="held-out episodes after training (0: none)")
    p.add_argument("--gif-episodes", type=int, default=3)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    try:  # an unknown id was a KeyError traceback once simgui had started
        simgui.spec(args.task)
    except KeyError as e:
        p.error(f"--task: {e.args[0]}")
    # A 0 here divided by zero deep in the update (a traceback), and a negative one misread.
    for name, least in (("total_steps", 1), ("num_envs", 1), ("n_steps", 1), ("epochs", 1), ("minibatches", 1),
                        ("frame", 1), ("pool", 1), ("threads", 1), ("curve_episodes", 1), ("log_every", 1),
                        ("eval_episodes", 0), ("gif_episodes", 0)):
        if getattr(args, name) < least:
            p.error(f"--{name.replace('_', '-')} {getattr(args, name)}: want a whole number, at least {least}")
    if args.minibatches > args.num_envs * args.n_steps:
        p.error(f"--minibatches {args.minibatches}: at most --num-envs × --n-steps ({args.num_envs * args.n_steps}) samples")
    for names, ok, want in ((("lr", "clip", "max_grad_norm", "reward_scale"), lambda v: v > 0, "above 0"),
                            (("vf_coef", "ent_coef"), lambda v: v >= 0, "at least 0"),
                            (("gamma", "gae_lambda"), lambda v: 0 <= v <= 1, "from 0 to 1")):
        for name in names:
            v = getattr(args, name)
            if not (math.isfinite(v) and ok(v)):
                p.error(f"--{name.replace('_', '-')} {v}: want a finite number {want}")
    if args.action_period is not None and not (math.isfinite(args.action_period) and args.action_period > 0):
        p.error(f"--action-period {args.action_period}: want seconds of sim time per step, above 0")
    return args


def main(argv=None):
    args = parse(argv)
    summary = train(args)
    print(dumps(summary))
    if summary.get("interrupted"):
        print(f"the policy so far is in {os.path.join(args.out, 'policy.pt')}; evaluate.py scores it", file=sys.stderr)
        return summary
    if args.eval_episodes > 0 or args.gif_episodes > 0:
        import evaluate

        res = evaluate.evaluate(os.path.join(args.out, "policy.pt"), episodes=args.eval_episodes,
                                gif=os.path.join(args.out, "eval.gif") if args.gif_episodes else None,
                                gif_episodes=args.gif_episodes)
        summary["eval"] = res
        (Path(args.out) / "train.json").write_text(dumps(summary, indent=2))
        print(dumps(res))
    return summary


#: The exit status of a run Ctrl-C stopped, as shells report a command SIGINT ended (128 + 2).
INTERRUPTED_STATUS = 130


def cli(argv=None) -> int:
    """main() as a command: its exit status. A run Ctrl-C stopped has saved the policy so far
    but did not finish, and says so with INTERRUPTED_STATUS: with 0, `train_ppo.py && ...` in a
    script carried on with the half-trained policy as if the run had finished."""
    try:
        summary = main(argv)
    except (ValueError, OSError, RuntimeError) as e:  # a bad argument, file or simgui: one line, no traceback
        sys.exit(f"train_ppo: {e}")
    return INTERRUPTED_STATUS if summary.get("interrupted") else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(cli())
