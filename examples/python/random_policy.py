#!/usr/bin/python3
"""A random policy over simgui's training HTTP API (rusim's runtime API).

It does what rusim's Gymnasium env does each step -- send throttle and steer, decode the
frame into an 84x84 RGB observation, read the ultrasonic range -- with random actions, then
prints the rate in steps per second and saves a few observations as PNG files.

Start simgui first (it serves the API on 127.0.0.1:8000):

    simgui run --headless --time-scale 1 &
    /usr/bin/python3 examples/python/random_policy.py --steps 2000

Only Debian's python3-requests, python3-numpy and python3-pil are needed (run it with
/usr/bin/python3: the pyenv python3 on PATH does not see them).
"""

import argparse
import base64
import io
import os
import sys
import time

import numpy as np
import requests
from PIL import Image

OBS_SIZE = 84


def default_url():
    host = os.environ.get("UAVSIM_API_HOST", "127.0.0.1")
    port = os.environ.get("UAVSIM_API_PORT", "8000")
    return "http://%s:%s" % (host, port)


class Client:
    """A keep-alive session, as rusim's SimClient."""

    def __init__(self, url, timeout=30.0):
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()

    def get(self, path):
        r = self.session.get(self.url + path, timeout=self.timeout)
        return self._json(r)

    def post(self, path, body):
        r = self.session.post(self.url + path, json=body, timeout=self.timeout)
        return self._json(r)

    @staticmethod
    def _json(r):
        data = r.json()
        if r.status_code != 200:
            raise RuntimeError("%s %s: %s" % (r.status_code, r.url, data.get("error")))
        return data

    def wait_for_ready(self, seconds=30.0):
        deadline = time.monotonic() + seconds
        while True:
            try:
                if self.get("/health").get("status") == "ok":
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("no simulator answers at %s" % self.url)
            time.sleep(0.5)


def observation(result):
    """The frame as an 84x84x3 uint8 array (zeros when there is none) and sonar/5 in 0..1."""
    frame = result["frame"]
    if frame["dataBase64"]:
        img = Image.open(io.BytesIO(base64.b64decode(frame["dataBase64"]))).convert("RGB")
        if img.size != (OBS_SIZE, OBS_SIZE):
            img = img.resize((OBS_SIZE, OBS_SIZE), Image.BILINEAR)
        image = np.asarray(img, dtype=np.uint8)
    else:
        image = np.zeros((OBS_SIZE, OBS_SIZE, 3), dtype=np.uint8)
    sonar = 0.0
    for kv in result["state"]["telemetry"]:
        if kv["key"] == "sensor.ultrasonic.front.m":
            sonar = min(max(float(kv["value"]) / 5.0, 0.0), 1.0)
    return image, np.array([sonar], dtype=np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default=default_url(), help="API base URL (default %(default)s)")
    ap.add_argument("--steps", type=int, default=1000, help="steps to run (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="episode seed; each new episode adds 1")
    ap.add_argument("--track", default="", help="selectedTrackId (default: the scenario's)")
    ap.add_argument("--vehicle", default="", help="selectedVehicleId (default: the scenario's)")
    ap.add_argument("--episode-steps", type=int, default=400, help="reset after this many steps")
    ap.add_argument("--save", type=int, default=4, help="observations to save as PNG")
    ap.add_argument("--out", default="observations", help="directory for the PNG files")
    args = ap.parse_args()
    for flag, v, least in (("--steps", args.steps, 1), ("--episode-steps", args.episode_steps, 1), ("--save", args.save, 0)):
        if v < least:  # --steps 0 ended in a NameError after the run
            ap.error(f"{flag} {v}: want a whole number, at least {least}")

    client = Client(args.url)
    client.wait_for_ready()
    version = client.get("/contract")["contractVersion"]
    if version.split(".")[0] != "0":
        sys.exit("unsupported contractVersion %s" % version)

    rng = np.random.default_rng(args.seed)
    seed = args.seed

    def reset():
        return client.post("/reset", {
            "seed": seed, "timeScale": 2.0,
            "selectedTrackId": args.track, "selectedVehicleId": args.vehicle,
            "trackParams": [],
            # simgui renders the observation size directly; rusim would send a camera.profile.
            "vehicleParams": [{"key": "camera.width", "value": str(OBS_SIZE)},
                              {"key": "camera.height", "value": str(OBS_SIZE)}],
            "flags": [], "agents": [],
        })

    result = reset()
    os.makedirs(args.out, exist_ok=True)
    save_every = max(1, args.steps // max(1, args.save))
    saved, episode_steps, episodes = [], 0, 1
    start = time.perf_counter()
    for step in range(args.steps):
        throttle, steer = rng.uniform(-1.0, 1.0, size=2)
        result = client.post("/step", {
            "throttle": float(throttle), "steer": float(steer), "brake": 0.0,
            "targetAgentId": "ego", "timestamp": 0, "timeBase": "unix_ms", "extensions": [],
        })
        image, sonar = observation(result)
        if len(saved) < args.save and step % save_every == 0:
            path = os.path.join(args.out, "obs_%05d.png" % step)
            Image.fromarray(image).save(path)
            saved.append(path)
        episode_steps += 1
        if result["done"] or episode_steps >= args.episode_steps:
            seed += 1
            episodes += 1
            episode_steps = 0
            result = reset()
    elapsed = time.perf_counter() - start
    print("%d steps in %.2f s: %.1f steps/s (%d episodes, last sonar %.3f)"
          % (args.steps, elapsed, args.steps / elapsed, episodes, float(sonar[0])))
    for path in saved:
        print("saved", path)


if __name__ == "__main__":
    main()
