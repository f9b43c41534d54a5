#!/usr/bin/env bash
# Open the app (on the bundled sample workspace unless a folder is given). With no
# display, run it under Xvfb for a few seconds and save a screenshot instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
app="$here/target/debug/cowriting-desktop"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$app" "$@"
fi
shot="$here/target/run-screenshot.png"
echo "No display here: running the app under Xvfb for 8 s; screenshot → $shot"
xvfb-run -a -s "-screen 0 1280x800x24" bash -c "\"$app\" $* & pid=\$!; sleep 8; import -window root \"$shot\"; kill \$pid"
echo "Saved $shot"
