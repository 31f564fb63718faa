"""Finds ArUco markers (DICT_4X4_50) with OpenCV, as the render tests' reference for markers.

Reads PNG file paths from the arguments and writes, for each, the markers OpenCV finds:
{"frames": [[{"id": n, "corners": [[u, v] x 4]}, ...], ...], "opencv": version}, the corners
clockwise from the marker's top left, as cv2.aruco.detectMarkers gives them.
"""
import json
import sys

import cv2

dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
if hasattr(cv2.aruco, "ArucoDetector"):  # OpenCV 4.7 and later
    detect = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters()).detectMarkers
else:
    params = cv2.aruco.DetectorParameters_create()
    def detect(gray):
        return cv2.aruco.detectMarkers(gray, dictionary, parameters=params)

frames = []
for path in sys.argv[1:]:
    gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if gray is None:
        sys.exit("cannot read " + path)
    corners, ids, _ = detect(gray)
    found = []
    if ids is not None:
        for c, i in zip(corners, ids.flatten()):
            found.append({"id": int(i), "corners": c.reshape(4, 2).tolist()})
    frames.append(found)
json.dump({"frames": frames, "opencv": cv2.__version__}, sys.stdout)
