#!/usr/bin/env bash
# Install what `make run` / `make test` need and is missing. Idempotent; quiet when
# everything is there. Debian 12 (apt) is the supported platform.
set -euo pipefail

need_apt=()
command -v cargo >/dev/null 2>&1 || {
  echo "cargo (Rust) is required: install it with rustup (https://rustup.rs) and re-run." >&2
  exit 1
}
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)

if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing: ${need_apt[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi
