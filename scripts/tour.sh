#!/usr/bin/env bash
# The README's tour of the CLI ("A tour of the CLI": its ```sh tour blocks, one
# after the other), run as written with the given cowriting first on PATH. The
# tour writes the sample workspace into a new temporary folder; the repository's
# own files are never touched. tests/tour.rs runs this too.
# Usage: scripts/tour.sh [path/to/cowriting]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/debug/cowriting}
if [ ! -x "$bin" ]; then
  echo "tour: no cowriting at $bin (make cli builds it)" >&2
  exit 1
fi
PATH="$(cd "$(dirname "$bin")" && pwd):$PATH"
export PATH
script=$(mktemp "${TMPDIR:-/tmp}/cowriting-tour.XXXXXX")
trap 'rm -f "$script"' EXIT
awk '/^```sh tour$/ { on = 1; next } /^```/ { on = 0 } on' "$here/README.md" > "$script"
if [ ! -s "$script" ]; then
  echo "tour: README.md has no \`\`\`sh tour block" >&2
  exit 1
fi
# -v: each line of the tour is echoed (to stderr) before it runs.
bash -euo pipefail -v "$script"
