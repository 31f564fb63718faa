"""Projects 3-D points with OpenCV, as the render tests' reference for lens distortion.

Reads a JSON list on stdin, each item {"model": "plumb_bob" | "equidistant",
"K": [[fx,0,cx],[0,fy,cy],[0,0,1]], "dist": [...], "points": [[X, Y, Z], ...]} (OpenCV camera
frame: x right, y down, z forward), and writes {"pixels": [[[u, v], ...], ...], "opencv": version}
with OpenCV's projectPoints or fisheye.projectPoints, one list per item.
"""
import json
import sys

import cv2
import numpy as np

out = []
for req in json.load(sys.stdin):
    pts = np.array(req["points"], dtype=np.float64).reshape(-1, 1, 3)
    K = np.array(req["K"], dtype=np.float64)
    D = np.array(req["dist"], dtype=np.float64)
    rvec = np.zeros((3, 1))
    tvec = np.zeros((3, 1))
    if req["model"] == "equidistant":
        px, _ = cv2.fisheye.projectPoints(pts, rvec, tvec, K, D.reshape(4, 1))
    else:
        px, _ = cv2.projectPoints(pts, rvec, tvec, K, D)
    out.append(px.reshape(-1, 2).tolist())
json.dump({"pixels": out, "opencv": cv2.__version__}, sys.stdout)
