"""A cloisim_ros-style client of the world Control channel, the sonar and a pause.

Usage: cloisim_world_client.py PROTO_DIR CONTROL_ADDR MODEL PAUSE_SECONDS

Written from the wire description with pyzmq, python3-websockets and Python protobuf (simgui's
.proto files compiled with protoc, both through cloisim_wire.py):
  - asks ws://CONTROL_ADDR/control for device_list until it lists MODEL, as cloisim_ros does;
  - connects a REP socket to the world's Control port (as cloisim_ros's World node) and answers
    every request with Param{result: "OK(1/1)"}, the first one only when told to;
  - subscribes to the world clock, the micom's Tx and the sonar's Data;
  - sends {"command":"reset"}, then, holding the World node's answer, records whether the
    reset reply came, what the REP socket got (Param{reset_simulation: true}) and the sim time
    of the next clock messages; then answers and waits for the clock to restart;
  - sends {"command":"pause"} and for PAUSE_SECONDS records when clock and micom messages arrive.
It prints one JSON object with what it saw; the Go test checks it.
"""

import asyncio
import json
import sys
import threading
import time

import websockets
import zmq

from cloisim_wire import compile_protos, tag  # beside this script

proto_dir, control_addr, model, pause_seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
compile_protos(proto_dir)
from gz.msgs import micom_pb2, param_pb2, sensors_pb2, world_pb2  # noqa: E402


async def ask(ws, req: dict) -> dict:
    # cloisim_ros sends single-quoted JSON; simgui accepts it as CLOiSim does.
    await ws.send(json.dumps(req).replace('"', "'"))
    return json.loads(await ws.recv())


async def main():
    result = {}
    ctx = zmq.Context()
    async with websockets.connect("ws://%s/control" % control_addr) as ws:
        deadline = time.time() + 20
        while True:
            devices = (await ask(ws, {"command": "device_list", "filter": ""}))["result"]
            if model in devices:
                break
            if time.time() > deadline:
                raise SystemExit("device_list never listed %s: %s" % (model, devices))
            await asyncio.sleep(0.3)
        world = devices["World"]["WORLD"]["SimulationWorld"]
        result["world_keys"] = sorted(world)

        # The World node: a REP socket on the Control port, answering in a thread.
        control_key = "World" + "SimulationWorld" + "Control"
        rep = ctx.socket(zmq.REP)
        rep.setsockopt(zmq.LINGER, 0)
        rep.setsockopt(zmq.RCVTIMEO, 200)
        rep.connect("tcp://127.0.0.1:%d" % world["Control"])
        requests = []
        stop = threading.Event()
        release = threading.Event()  # the first answer waits for it

        def answer():
            while not stop.is_set():
                try:
                    m = rep.recv()
                except zmq.Again:
                    continue
                p = param_pb2.Param()
                p.ParseFromString(m[8:])
                a = p.params.get("reset_simulation")
                requests.append({"tag_ok": m[:8] == tag(control_key), "reset_simulation": bool(a and a.bool_value),
                                 "type": a.type if a else -1})
                while not release.wait(0.1) and not stop.is_set():
                    pass
                out = param_pb2.Param()
                out.params["result"].type = param_pb2.Any.STRING
                out.params["result"].string_value = "OK(1/1)"
                rep.send(tag(control_key) + out.SerializeToString())

        t = threading.Thread(target=answer, daemon=True)
        t.start()

        def sub(port, key):
            s = ctx.socket(zmq.SUB)
            s.setsockopt(zmq.LINGER, 0)
            s.setsockopt(zmq.SUBSCRIBE, tag(key))
            s.connect("tcp://127.0.0.1:%d" % port)
            return s

        clock_key = "WorldSimulationWorldClock"
        clock = sub(world["Clock"], clock_key)
        micom = devices[model]["MICOM"]["Micom"]
        tx_key = model + "Micom" + "Tx"
        tx = sub(micom["Tx"], tx_key)
        sonar_parts = sorted(devices[model]["SONAR"])[0]
        sonar_key = model + sonar_parts + "Data"
        sonar = sub(devices[model]["SONAR"][sonar_parts]["Data"], sonar_key)

        def recv(s, timeout_ms=5000):
            if not s.poll(timeout_ms):
                raise SystemExit("no message within %d ms" % timeout_ms)
            return s.recv()[8:]

        sn = sensors_pb2.Sonar()
        sn.ParseFromString(recv(sonar))
        wp = sn.world_pose
        result["sonar"] = {"frame": sn.frame, "range": sn.range, "range_min": sn.range_min,
                           "range_max": sn.range_max, "radius": sn.radius, "stamped": sn.header.HasField("stamp"),
                           "world_pose": [wp.position.x, wp.position.y, wp.position.z, wp.orientation.z, wp.orientation.w]
                           if sn.HasField("world_pose") else None}
        result["model_info"] = (await ask(ws, {"command": "get_model_info", "target_model": model}))["result"]
        # The micom's Tx, until one carries the battery (the powertrain's first reading).
        deadline = time.time() + 10
        while True:
            mc = micom_pb2.Micom()
            mc.ParseFromString(recv(tx))
            if mc.HasField("battery") or time.time() > deadline:
                break
        result["micom_uss"] = [u.distance for u in mc.uss]
        result["micom_uss_pose"] = [u.state.HasField("world_pose") for u in mc.uss]
        result["micom_battery"] = {"name": mc.battery.name, "voltage": mc.battery.voltage} if mc.HasField("battery") else None
        def sim_time():
            w = world_pb2.WorldStatistics()
            w.ParseFromString(recv(clock))
            return w.sim_time.sec + w.sim_time.nsec * 1e-9

        before = sim_time()

        # Reset: /control answers at once; the World node is asked, and until it answers the
        # world runs on; after its answer the clock restarts.
        rep_reset = await ask(ws, {"command": "reset"})
        result["reset"] = {"result": rep_reset.get("result"), "keys": sorted(rep_reset)}
        deadline = time.time() + 20
        while not requests and time.time() < deadline:
            await asyncio.sleep(0.05)
        result["requests_held"] = list(requests)
        result["before_reset"] = before
        result["while_held"] = [sim_time() for _ in range(10)]
        release.set()
        restart, deadline = None, time.time() + 20
        while restart is None and time.time() < deadline:
            t_ = sim_time()
            if t_ < before:
                restart = t_
        result["restarted_at"] = restart
        result["after_restart"] = [sim_time() for _ in range(10)]
        result["requests"] = list(requests)

        # Pause, then record when clock and micom messages arrive.
        result["pause"] = (await ask(ws, {"command": "pause"}))["result"]
        for s in (clock, tx):
            while s.poll(0):
                s.recv()
        arrivals = {"clock": [], "micom": []}
        clocks = []
        start = time.time()
        poller = zmq.Poller()
        poller.register(clock, zmq.POLLIN)
        poller.register(tx, zmq.POLLIN)
        while time.time() - start < pause_seconds:
            for s, _ in poller.poll(200):
                data = s.recv()[8:]
                now = time.time() - start
                if s is clock:
                    arrivals["clock"].append(now)
                    ws_ = world_pb2.WorldStatistics()
                    ws_.ParseFromString(data)
                    clocks.append({"sim": ws_.sim_time.sec + ws_.sim_time.nsec * 1e-9,
                                   "real": ws_.real_time.sec + ws_.real_time.nsec * 1e-9, "paused": ws_.paused})
                else:
                    arrivals["micom"].append(now)
        result["arrivals"] = arrivals
        result["clocks"] = clocks
        stop.set()
        t.join()
    print(json.dumps(result))


asyncio.run(main())
