#!/usr/bin/env bash
# The real-app end-to-end tests: the built app under tauri-driver + WebKitWebDriver,
# under Xvfb when there is no display.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"
cd "$here/tests/e2e"
run=(node --test --test-concurrency=1 --test-timeout=600000 .)
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}"
fi
exec "${run[@]}"
