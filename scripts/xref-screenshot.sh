#!/usr/bin/env bash
# Makes docs/images/xref.png: `kernel-lab xref --html` opened in headless Chromium, the first
# screen photographed. Needs Debian's chromium (installed here when missing, as root); not part
# of the build or the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
./kernel-lab xref --html "$work/xref.html" >/dev/null
mkdir -p docs/images
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,900 \
  --screenshot="$PWD/docs/images/xref.png" "file://$work/xref.html" >/dev/null 2>&1
echo "docs/images/xref.png"
