"""A CLOiSim-style /control client on Debian's python3-websockets (asyncio API, 10.x).

Usage: lockstep_client.py HOST:PORT STEPS ROUNDS

Asks device_list the way cloisim_ros does (single-quoted JSON), checks sim_version is at least
5.3.1 as cloisim_ros does, asks port_list, then steps the world ROUNDS times by STEPS in
lockstep. Prints one JSON object with what it saw.
"""
import asyncio
import json
import sys

import websockets


async def ask(ws, text):
    await ws.send(text)
    return json.loads(await asyncio.wait_for(ws.recv(), timeout=30))


async def main(addr, steps, rounds):
    out = {"websockets": websockets.__version__}
    async with websockets.connect("ws://%s/control" % addr, max_size=2**22) as ws:
        dl = await ask(ws, "{'command':'device_list', 'filter':''}")
        version = tuple(int(x) for x in dl["sim_version"].split("."))
        if version < (5, 3, 1):
            raise SystemExit("sim_version %s is below 5.3.1" % dl["sim_version"])
        out["sim_version"] = dl["sim_version"]
        out["device_list"] = dl["result"]
        pl = await ask(ws, json.dumps({"command": "port_list", "filter": ""}))
        out["port_list"] = pl["result"]
        out["steps"] = []
        for _ in range(rounds):
            r = await ask(ws, json.dumps({"command": "step", "steps": steps}))
            out["steps"].append(r["result"])
        bad = await ask(ws, "{'command':")
        out["bad"] = bad["result"]
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
