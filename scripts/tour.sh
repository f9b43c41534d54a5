#!/usr/bin/env bash
# A tour of the cowriting CLI on a copy of the bundled sample workspace.
# Usage: scripts/tour.sh [path/to/cowriting]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/debug/cowriting}
ws=$(mktemp -d "${TMPDIR:-/tmp}/cowriting-tour.XXXXXX")
cp -R "$here/examples/workspace/." "$ws/"
cw() { echo; echo "\$ cowriting $*"; "$bin" -w "$ws" "$@"; }

echo "Sample workspace copied to $ws (the original stays untouched)."
cw status
cw check
cw proposals essay.md
cw threads essay.md
cw spans essay.md

first=$("$bin" -w "$ws" --json proposals essay.md | python3 -c 'import json,sys; print(next(p["id"] for p in json.load(sys.stdin)["proposals"] if p["state"] == "pending"))')
cw accept essay.md "$first"
stale=$("$bin" -w "$ws" --json proposals essay.md | python3 -c 'import json,sys; print(next(p["id"] for p in json.load(sys.stdin)["proposals"] if p["state"] == "stale"))')
echo; echo "# accepting a stale proposal is refused (exit 3); rejecting it always works:"
cw accept essay.md "$stale" || echo "(exit $?)"
cw reject essay.md "$stale"
id=$("$bin" -w "$ws" propose story.md --find "the great lamp" --replace "the great lantern" --instruction "Vary the noun" --turn turn-tour --model claude-sonnet-4-5)
echo; echo "\$ cowriting propose story.md --find 'the great lamp' --replace 'the great lantern' …"; echo "$id"
cw thread new story.md --find "the fog" --body "Lovely image — keep it."
cw status
echo; echo "Done. Inspect $ws/.threads/ to see the sidecars the VS Code extension reads."
