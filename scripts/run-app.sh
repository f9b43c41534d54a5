#!/usr/bin/env bash
# Open the app (on the bundled sample workspace unless a folder is given). With no
# display, run it under Xvfb for a few seconds and save a screenshot instead. The
# build is looked for where cargo put it: $CARGO_TARGET_DIR, else target/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target="${CARGO_TARGET_DIR:-$here/target}"
case "$target" in /*) ;; *) target="$here/$target" ;; esac
app="$target/debug/cowriting-desktop"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$app" "$@"
fi
shot="$target/run-screenshot.png"
echo "No display here: running the app under Xvfb for 8 s; screenshot → $shot"
# The app and its arguments are passed as arguments, never pasted into the script.
SHOT="$shot" xvfb-run -a -s "-screen 0 1280x800x24" \
  bash -c '"$@" & pid=$!; sleep 8; import -window root "$SHOT"; kill "$pid"' run-app "$app" "$@"
echo "Saved $shot"
