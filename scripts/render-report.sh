#!/usr/bin/env bash
# Renders a kernel-lab report.html with headless Chromium to a PNG, to see the report as a
# browser shows it. Not part of the test run. Installs Debian's chromium when it is missing.
#
#   scripts/render-report.sh [REPORT_DIR] [OUT.png]
#
# With no REPORT_DIR it first runs `./kernel-lab compare --duration 10s --out target/report`.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${1:-}"
if [[ -z "$dir" ]]; then
  dir=target/report
  ./kernel-lab compare --duration 10s --quiet --out "$dir"
fi
out="${2:-$dir/report-rendered.png}"
[[ -f "$dir/report.html" ]] || { echo "render-report: no report.html in $dir" >&2; exit 2; }

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [[ -z "$browser" ]]; then
  echo "render-report: installing Debian's chromium" >&2
  sudo_cmd=""
  [[ "$(id -u)" -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
  browser=chromium
fi

# --no-sandbox: the sandbox needs user namespaces that containers and CI runners often lack
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,2600 \
  --screenshot="$(realpath -m "$out")" "file://$(realpath "$dir/report.html")" 2>/dev/null
echo "rendered $dir/report.html to $out"
