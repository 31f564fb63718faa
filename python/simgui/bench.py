"""Throughput of simgui's training transports, measured in Python with random actions, in one
run so that the cases share the machine's state:

    python3 -m simgui.bench --json

Cases: ``fast/16-envs`` (one vector env of 16 on the fast path), ``fast/1-env`` (one env on the
fast path) and ``http/1-env`` (one env over rusim's HTTP API, the baseline). Every case steps
the task's env with uniformly random actions, autoresetting as training does, on 84×84 RGB
observations, for --seconds after a warm-up. Each owns its simgui process. The report gives
agent-steps/s, the ratio to the HTTP baseline, the CPU seconds per step of simgui and of
Python, the load average before and after, and whether the targets (16 envs ≥ 20,000 steps/s,
1 env ≥ 3,000) were met. A case that fails is reported as failed (exit status 1); --strict also
fails the run on a missed target.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

TARGETS = {"fast/16-envs": 20000.0, "fast/1-env": 3000.0}


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _measure(step, proc_pid: int, per_call: int, seconds: float, warmup: int) -> dict:
    for _ in range(warmup):
        step()
    c0, p0, t0 = _cpu(proc_pid), time.process_time(), time.perf_counter()
    calls = 0
    while True:
        step()
        calls += 1
        if calls % 16 == 0 and time.perf_counter() - t0 >= seconds:
            break
    wall = time.perf_counter() - t0
    steps = calls * per_call
    return {"agent_steps": steps, "seconds": round(wall, 3), "steps_per_s": round(steps / wall, 1),
            "simgui_cpu_us_per_step": round(1e6 * (_cpu(proc_pid) - c0) / steps, 1),
            "python_cpu_us_per_step": round(1e6 * (time.process_time() - p0) / steps, 1)}


def run(task: str, seconds: float, frame: int, warmup: int) -> dict:
    import simgui

    rng = np.random.default_rng(0)
    cases = {}

    def actions(shape):
        # Drawn a block at a time: a policy's cost is not the env's, and neither is the
        # generator's per call.
        while True:
            yield from rng.uniform(-1, 1, (1024,) + shape)

    def fast_vec(n):
        env = simgui.make_vec(task, num_envs=n, frame_size=(frame, frame))
        try:
            env.reset(seed=0)
            pid = env._s.proc.proc.pid
            acts = actions((n, 2))
            return _measure(lambda: env.step(next(acts)), pid, n, seconds, warmup)
        finally:
            env.close()

    def single(transport):
        env = simgui.make(task, transport=transport, frame_size=(frame, frame))
        try:
            env.reset(seed=0)
            pid = env._s.proc.proc.pid
            acts = actions((2,))

            def step():
                _, _, te, tr, _ = env.step(next(acts))
                if te or tr:
                    env.reset()

            return _measure(step, pid, 1, seconds, warmup)
        finally:
            env.close()

    for name, fn in [("http/1-env", lambda: single("http")), ("fast/1-env", lambda: single("fast")),
                     ("fast/16-envs", lambda: fast_vec(16))]:
        try:
            cases[name] = fn()
        except Exception as e:  # a case that fails is reported, the others still run
            cases[name] = {"error": f"{type(e).__name__}: {e}"}
    base = cases.get("http/1-env", {}).get("steps_per_s")
    for c in cases.values():
        if base and "steps_per_s" in c:
            c["ratio_to_http"] = round(c["steps_per_s"] / base, 1)
    return cases


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--task", default="simgui/KS0223Corridor-v0")
    p.add_argument("--seconds", type=float, default=5.0, help="measured time per case")
    p.add_argument("--warmup", type=int, default=200, help="calls before measuring")
    p.add_argument("--frame", type=int, default=84)
    p.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    load0 = os.getloadavg()
    cases = run(args.task, args.seconds, args.frame, args.warmup)
    load1 = os.getloadavg()
    targets = {k: {"want": v, "got": cases.get(k, {}).get("steps_per_s"),
                   "met": (cases.get(k, {}).get("steps_per_s") or 0) >= v} for k, v in TARGETS.items()}
    report = {"task": args.task, "frame": [args.frame, args.frame, 3], "cpus": os.cpu_count(),
              "load_before": [round(x, 2) for x in load0], "load_after": [round(x, 2) for x in load1],
              "cases": cases, "targets": targets}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.task}, {args.frame}x{args.frame} RGB, {os.cpu_count()} CPUs, load {load0[0]:.1f} → {load1[0]:.1f}")
        for name, c in cases.items():
            if "error" in c:
                print(f"  {name:14s} FAILED: {c['error']}")
            else:
                print(f"  {name:14s} {c['steps_per_s']:>10.0f} agent-steps/s  ×{c.get('ratio_to_http', '?')} HTTP"
                      f"  simgui {c['simgui_cpu_us_per_step']} µs/step  python {c['python_cpu_us_per_step']} µs/step")
        for k, t in targets.items():
            print(f"  target {k}: ≥ {t['want']:.0f} steps/s: {'met' if t['met'] else 'missed'}")
    failed = any("error" in c for c in cases.values())
    missed = not all(t["met"] for t in targets.values())
    return 1 if failed or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
