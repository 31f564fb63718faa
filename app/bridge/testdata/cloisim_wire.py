"""What the cloisim-style test clients share: CLOiSim's port tag hash and simgui's .proto files
compiled for Python with protoc."""

import atexit
import glob
import os
import shutil
import subprocess
import sys
import tempfile

MASK = (1 << 64) - 1


def std_hash(key: str) -> int:
    """libstdc++ std::hash<std::string> on 64-bit: _Hash_bytes with seed 0xc70f6907."""
    data = key.encode()
    m = 0xC6A4A7935BD1E995
    mix = lambda v: v ^ (v >> 47)
    h = 0xC70F6907 ^ ((len(data) * m) & MASK)
    n8 = len(data) // 8 * 8
    for i in range(0, n8, 8):
        k = int.from_bytes(data[i:i + 8], "little")
        h ^= (mix((k * m) & MASK) * m) & MASK
        h = (h * m) & MASK
    if len(data) > n8:
        h ^= int.from_bytes(data[n8:], "little")
        h = (h * m) & MASK
    h = (mix(h) * m) & MASK
    return mix(h)


def tag(key: str) -> bytes:
    return std_hash(key).to_bytes(8, "little")


# The reference vectors (from CLOiSim's tag hash, computed with g++).
assert std_hash("") == 0x553E93901E462A6E
assert std_hash("WorldSimulationWorldClock") == 0x74B772C3E891192C
assert tag("WorldSimulationWorldClock") == bytes.fromhex("2c1991e8c372b774")
assert std_hash("ks0223micomRx") == 0x976C9A320CFC810B
assert std_hash("cloi0lidarData") == 0x08728AB0C4C42F5F


def compile_protos(proto_dir: str) -> None:
    """Compiles proto_dir's gz/msgs/*.proto into a temporary folder put on sys.path, so that
    `from gz.msgs import ...` works; the folder goes when Python exits."""
    out_dir = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, out_dir, True)
    protos = sorted(glob.glob(os.path.join(proto_dir, "gz", "msgs", "*.proto")))
    subprocess.run(["protoc", "-I", proto_dir, "--python_out=" + out_dir] + protos, check=True)
    sys.path.insert(0, out_dir)
