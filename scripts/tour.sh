#!/usr/bin/env bash
# The README's tour of the CLI ("A tour of the CLI": its ```sh tour blocks, one
# after the other), run as written with the given cowriting first on PATH. The
# tour writes the sample workspace into a new temporary folder; the repository's
# own files are never touched. tests/tour.rs runs this too.
#
# It cleans up after itself: the tour runs with TMPDIR and XDG_DATA_HOME inside one
# scratch folder of its own, so its workspace (`mktemp -d`) and the system trash its
# `cowriting delete` moves a document to ($XDG_DATA_HOME/Trash, on the same file
# system) are both in there, never in your ~/.local/share/Trash; the folder is
# removed at the end. COWRITING_TOUR_KEEP=1 keeps it (and says where).
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
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cowriting-tour.XXXXXX")
cleanup() {
  if [ -n "${COWRITING_TOUR_KEEP:-}" ]; then
    echo "tour: kept its workspace and trash in $scratch" >&2
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
mkdir "$scratch/tmp" "$scratch/data"
script="$scratch/tour.sh"
awk '/^```sh tour$/ { on = 1; next } /^```/ { on = 0 } on' "$here/README.md" > "$script"
if [ ! -s "$script" ]; then
  echo "tour: README.md has no \`\`\`sh tour block" >&2
  exit 1
fi
# -v: each line of the tour is echoed (to stderr) before it runs. Not exec: the
# scratch folder is removed when it ends, whether it succeeded or not.
TMPDIR="$scratch/tmp" XDG_DATA_HOME="$scratch/data" bash -euo pipefail -v "$script"
