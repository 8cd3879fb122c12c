#!/usr/bin/env bash
# Makes docs/images/kernelshark.png: `kernel-lab trace --dat` of preempt's worst sample under the
# stress load, opened in Debian's KernelShark on a virtual X display (Xvfb), the window
# photographed. Needs the Debian packages kernelshark, xvfb, x11-apps, imagemagick and xdotool
# (installed here when missing, as root); not part of the build or the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
for p in kernelshark:kernelshark Xvfb:xvfb xwd:x11-apps convert:imagemagick xdotool:xdotool; do
  command -v "${p%%:*}" >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${p##*:}" >/dev/null
done
work="$(mktemp -d)"
trap 'kill "${ks:-}" "${xvfb:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
./kernel-lab trace --config preempt --duration 10s --before 3ms --quiet -o "$work/trace.txt" --dat "$work/trace.dat"
Xvfb :97 -screen 0 1400x900x24 >/dev/null 2>&1 & xvfb=$!
export DISPLAY=:97 XDG_RUNTIME_DIR="$work"
sleep 2
kernelshark "$work/trace.dat" >/dev/null 2>&1 & ks=$!
sleep 10
xdotool key Return || true   # the "running with root privileges" notice, when run as root
sleep 2
for w in $(xdotool search --name Kernel); do
  xdotool windowsize "$w" 1400 900 2>/dev/null || true
  xdotool windowmove "$w" 0 0 2>/dev/null || true
done
sleep 3
mkdir -p docs/images
xwd -root -silent | convert xwd:- -crop 1400x900+0+0 docs/images/kernelshark.png
echo "docs/images/kernelshark.png"
