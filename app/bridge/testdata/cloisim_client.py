"""A CLOiSim client written from the wire description, with pyzmq and Python protobuf.

Usage: cloisim_client.py PROTO_DIR MODEL DEVICE_LIST_JSON

It compiles simgui's .proto files with protoc, computes every hashKey's tag itself
(libstdc++'s std::hash, MurmurHash64A), finds the nodes in the device list as cloisim_ros
does (hashKey = model + parts + key), then:
  - subscribes to the world clock and decodes WorldStatistics;
  - asks the lidar's Info port (REQ with REQ_CORRELATE and REQ_RELAXED, as cloisim_ros) for
    ros2, transform and output type, subscribes to its Data port and decodes a LaserScan;
  - subscribes to the micom's Tx and sends Twist commands on its Rx until the odometry says
    the robot has moved 0.3 m.
It prints one JSON object with what it saw; the Go test checks it.
"""

import json
import math
import sys
import time

import zmq

from cloisim_wire import compile_protos, tag  # beside this script

proto_dir, model, device_list = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])

compile_protos(proto_dir)
from gz.msgs import geometry_pb2, micom_pb2, param_pb2, sensors_pb2, world_pb2  # noqa: E402

ctx = zmq.Context()


def node(dev_type: str):
    """Returns (parts, {key: port}) of the model's first node of dev_type."""
    parts = device_list[model][dev_type]
    name = sorted(parts)[0]
    return name, parts[name]


def sub(port: int, key: str):
    s = ctx.socket(zmq.SUB)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.SUBSCRIBE, tag(key))
    s.setsockopt(zmq.RCVTIMEO, 5000)
    s.connect("tcp://127.0.0.1:%d" % port)
    return s


def recv(s, key: str) -> bytes:
    m = s.recv()
    assert m[:8] == tag(key), (m[:8].hex(), key)
    return m[8:]


def request(port: int, key: str, name: str, value=None):
    """One Info request as cloisim_ros sends it: REQ with correlation, 5 tries of 500 ms."""
    p = param_pb2.Param()
    a = p.params[name]
    if value is not None:
        a.type = param_pb2.Any.STRING
        a.string_value = value
    for _ in range(5):
        r = ctx.socket(zmq.REQ)
        r.setsockopt(zmq.LINGER, 0)
        r.setsockopt(zmq.REQ_CORRELATE, 1)
        r.setsockopt(zmq.REQ_RELAXED, 1)
        r.setsockopt(zmq.RCVTIMEO, 500)
        r.connect("tcp://127.0.0.1:%d" % port)
        try:
            r.send(tag(key) + p.SerializeToString())
            rep = r.recv()
        except zmq.Again:
            continue
        finally:
            r.close()
        assert rep[:8] == tag(key), (rep[:8].hex(), key)
        return rep[8:]
    raise SystemExit("no reply to %s on %s" % (name, key))


result = {}

# World clock.
clock_key = "World" + "SimulationWorld" + "Clock"
clock_port = device_list["World"]["WORLD"]["SimulationWorld"]["Clock"]
clock = sub(clock_port, clock_key)
times = []
for _ in range(3):
    ws = world_pb2.WorldStatistics()
    ws.ParseFromString(recv(clock, clock_key))
    times.append(ws.sim_time.sec + ws.sim_time.nsec * 1e-9)
result["clock"] = times

# Lidar: Info requests in cloisim_ros's order, then one scan.
parts, ports = node("LASER")
info_key = model + parts + "Info"
ros2 = param_pb2.Param()
ros2.ParseFromString(request(ports["Info"], info_key, "request_ros2"))
frame_ids = [c.params["frame_id"].string_value for c in ros2.children if "frame_id" in c.params]
tr = param_pb2.Param()
tr.ParseFromString(request(ports["Info"], info_key, "request_transform"))
pose = tr.params["transform"].pose3d_value
ot = param_pb2.Param()
ot.ParseFromString(request(ports["Info"], info_key, "request_output_type"))
data_key = model + parts + "Data"
scan_sub = sub(ports["Data"], data_key)
scan = sensors_pb2.LaserScan()
scan.ParseFromString(recv(scan_sub, data_key))
result["lidar"] = {
    "parts": parts,
    "frame_id": frame_ids[-1] if frame_ids else "",
    "z": pose.position.z,
    "output_type": ot.params["output_type"].string_value,
    "count": scan.count,
    "vertical_count": scan.vertical_count,
    "ranges": len(scan.ranges),
    "intensities": len(scan.intensities),
    "nan": sum(1 for r in scan.ranges if math.isnan(r)),
    "frame": scan.frame,
}

# Micom: drive forward with Twist on Rx until Tx odometry says 0.3 m.
_, mports = node("MICOM")
micom = "Micom"
tx_key, rx_key = model + micom + "Tx", model + micom + "Rx"
tx = sub(mports["Tx"], tx_key)
rx = ctx.socket(zmq.PUB)
rx.setsockopt(zmq.LINGER, 0)
rx.connect("tcp://127.0.0.1:%d" % mports["Rx"])
twist = geometry_pb2.Twist()
twist.linear.x = 0.5
odom = micom_pb2.Micom()
odom.ParseFromString(recv(tx, tx_key))
start_x, start_t = odom.odom.pose.x, odom.time.sec + odom.time.nsec * 1e-9
deadline = time.time() + 15
while odom.odom.pose.x - start_x < 0.3:
    if time.time() > deadline:
        raise SystemExit("robot did not move: odometry x %.3f" % odom.odom.pose.x)
    rx.send(tag(rx_key) + twist.SerializeToString())
    odom.ParseFromString(recv(tx, tx_key))
rx.send(tag(rx_key) + geometry_pb2.Twist().SerializeToString())
# The clock subscription kept queueing while we drove: drop what is queued, take a fresh one.
while True:
    try:
        clock.recv(zmq.NOBLOCK)
    except zmq.Again:
        break
ws = world_pb2.WorldStatistics()
ws.ParseFromString(recv(clock, clock_key))
result["micom"] = {
    "start_x": start_x,
    "end_x": odom.odom.pose.x,
    "speed": odom.odom.twist.linear.x,
    "start_time": start_t,
    "end_time": odom.time.sec + odom.time.nsec * 1e-9,
    "clock_after": ws.sim_time.sec + ws.sim_time.nsec * 1e-9,
}
print(json.dumps(result))
