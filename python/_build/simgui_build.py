"""A PEP 517 build backend in the standard library only, so that `pip install ./python` works
offline: pip's isolated build environment has no setuptools to download here. It builds a
pure-Python wheel of the simgui package (its .py files and scenarios) with the metadata of
pyproject.toml's [project] table, and an sdist of the folder."""

import base64
import csv
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist(p):
    return p["name"].replace("-", "_")


def _metadata(p):
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p.get('description', '')}", f"Requires-Python: {p.get('requires-python', '>=3.9')}"]
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    for extra, deps in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {d}; extra == \"{extra}\"" for d in deps]
    return "\n".join(lines) + "\n"


def _files():
    """The package's files: Python modules and scenario YAML, sorted."""
    out = []
    for base, dirs, files in os.walk(os.path.join(ROOT, "simgui")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".py", ".yaml")):
                full = os.path.join(base, f)
                out.append((os.path.relpath(full, ROOT).replace(os.sep, "/"), full))
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def _wheel(wheel_directory, editable=False):
    p = _project()
    name, ver = _dist(p), p["version"]
    info = f"{name}-{ver}.dist-info"
    whl = f"{name}-{ver}-py3-none-any.whl"
    records = []

    def add(zf, arc, data):
        zf.writestr(zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0)), data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        records.append((arc, f"sha256={digest}", str(len(data))))

    with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w", zipfile.ZIP_DEFLATED) as zf:
        if editable:
            add(zf, f"{name}.pth", (ROOT + "\n").encode())
        else:
            for arc, full in _files():
                with open(full, "rb") as f:
                    add(zf, arc, f.read())
        add(zf, f"{info}/METADATA", _metadata(p).encode())
        add(zf, f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: simgui_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerows(records)
        w.writerow((f"{info}/RECORD", "", ""))
        zf.writestr(zipfile.ZipInfo(f"{info}/RECORD", date_time=(2020, 1, 1, 0, 0, 0)), buf.getvalue())
    return whl


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = f"{_dist(p)}-{p['version']}"
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as tf:
        for rel in ["pyproject.toml", "_build/simgui_build.py"] + [a for a, _ in _files()]:
            tf.add(os.path.join(ROOT, rel), arcname=f"{base}/{rel}")
        data = ("Metadata-Version: 2.1\n" + _metadata(p).split("\n", 1)[1]).encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
    return os.path.basename(path)
