#!/usr/bin/env bash
# Install what `make run` / `make test` need and is missing. Idempotent; quiet when
# everything is there. Debian 12 (apt) is the supported platform.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

command -v cargo >/dev/null 2>&1 || {
  echo "cargo (Rust) is required: install it with rustup (https://rustup.rs) and re-run." >&2
  exit 1
}

# Debian packages: a C toolchain, WebKitGTK for Tauri, Xvfb and WebKitWebDriver for
# the real-app tests (xdotool answers the native dialogs and reads the title
# bar, pdftotext from poppler-utils reads the exported PDF; the PDF font test
# embeds fonts-dejavu-core), ImageMagick for
# screenshots, Node.js for the UI.
# hunspell-en-us and -en-gb are the dictionaries spelling as you type checks against.
# at-spi2-core and python3-pyatspi let the accessibility test read the tree a screen
# reader (Orca) reads (tests/e2e/a11y.test.mjs; skipped, said so, without them).
# dbus-x11 gives the app's GTK a session bus under Xvfb (without it every settings
# write logs a dconf warning, thousands in an e2e run).
pkgs=(build-essential pkg-config libwebkit2gtk-4.1-dev libssl-dev librsvg2-dev
      libayatana-appindicator3-dev xvfb xauth webkit2gtk-driver xdotool poppler-utils
      imagemagick python3 nodejs npm dbus-x11 hunspell-en-us hunspell-en-gb
      at-spi2-core python3-pyatspi fonts-dejavu-core)
# apt_get: apt-get that waits for another apt's locks (scripts/apt.sh).
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A Node.js that did not come from apt (e.g. the machine's own) is fine too.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  filtered=()
  for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing Debian packages: ${missing[*]}"
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages, exactly as locked.
for dir in ui tests/e2e; do
  if [ ! -d "$here/$dir/node_modules" ] || [ "$here/$dir/package-lock.json" -nt "$here/$dir/node_modules/.package-lock.json" ]; then
    echo "Installing npm packages in $dir"
    (cd "$here/$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done

# tauri-driver: the WebDriver bridge for the real-app tests.
if ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "Installing tauri-driver"
  cargo install tauri-driver --version '^2' --locked --quiet
fi
