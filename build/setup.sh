#!/usr/bin/env bash
# setup.sh installs the Debian packages simgui needs to build, test and run.
# It is idempotent and quiet when everything is already present.
#   build/setup.sh          everything (build, window tests, client tests)
set -euo pipefail

pkgs=(
  # the window (Ebiten/GLFW) and the text fields' clipboard (libX11)
  pkg-config libx11-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev
  libxxf86vm-dev libgl1-mesa-dev
  # the native file dialog: GTK 3, loaded at run time (purego) when a dialog first opens
  libgtk-3-0
  # window tests: virtual display, key input, screenshots
  xvfb libgl1-mesa-dri xdotool imagemagick
  # protobuf code generation (go generate builds protoc-gen-go from go.mod); libprotobuf-dev
  # has the well-known types Foxglove's schemas import (google/protobuf/timestamp.proto)
  protobuf-compiler libprotobuf-dev
  # fast JPEG for camera frames (loaded at run time through purego)
  libturbojpeg0
  # the Chipmunk 7 C peer of the physics benchmark (simgui bench builds it with cc at run time)
  libchipmunk-dev gcc libc6-dev
  # real outside clients used by the tests (run with /usr/bin/python3); OpenCV is the
  # reference for the renderer's lens distortion (render/lens_test.go)
  python3-websockets python3-zmq python3-protobuf python3-requests python3-numpy python3-pil
  python3-opencv
  # the training example and its tests: PPO in PyTorch on the CPU, learning curves; venv for
  # the offline install test of python/
  python3-torch python3-matplotlib python3-venv
)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${#missing[@]} Debian package(s): ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine often has apt busy (unattended upgrades): wait for its locks, not fail.
# DPkg::Lock::Timeout waits for dpkg's; the package lists' and the download cache's locks are
# waited for here: a refusal that names a lock is retried every 10 s for up to 10 minutes.
errs=$(mktemp)
trap 'rm -f "$errs"' EXIT
said=""
apt_wait() {
  local try
  for try in $(seq 60); do
    if $sudo apt-get -o DPkg::Lock::Timeout=600 "$@" >/dev/null 2>"$errs"; then
      return 0
    fi
    if [ "$try" -eq 60 ] || ! grep -qi "lock" "$errs"; then
      cat "$errs" >&2
      return 1
    fi
    if [ -z "$said" ]; then
      echo "setup: apt is busy (another install or unattended upgrades); waiting for it" >&2
      said=1
    fi
    sleep 10
  done
}
apt_wait update -qq
apt_wait install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done" >&2
