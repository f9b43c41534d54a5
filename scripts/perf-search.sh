#!/usr/bin/env bash
# Search on a workspace of 40,000 pages, measured (not asserted): the layout of
# tests/e2e/perf-workspace.mjs (400 folders, two of them 5,000 wide, a comment
# on every tenth folder's second page), then `cowriting search` for a word
# nowhere beside `rg` (when installed) and `grep -r` over the same files, each
# the median of three. Usage: scripts/perf-search.sh [path/to/cowriting]
# (default: $CARGO_TARGET_DIR or target, debug build). COWRITING_PERF_WS=DIR
# measures that folder instead of a generated one (kept; a generated one is removed).
set -euo pipefail
CLI=${1:-${CARGO_TARGET_DIR:-target}/debug/cowriting}
ws=${COWRITING_PERF_WS:-}
if [ -z "$ws" ]; then
  ws=$(mktemp -d -t cowriting-perf-search-XXXXXX)
  trap 'rm -rf "$ws"' EXIT
  python3 - "$ws" <<'PY'
import os, sys
ws = sys.argv[1]
n = 0
for d in range(400):
    if n >= 40000:
        break
    width = 5000 if d < 2 else 75
    folder = os.path.join(ws, f"section-{d:03}", f"part-{d % 7}")
    os.makedirs(folder, exist_ok=True)
    for i in range(width):
        if n >= 40000:
            break
        with open(os.path.join(folder, f"page-{i:05}.md"), "w") as f:
            f.write(f"# Page {i} of section {d}\n\nSome prose about systemctl and journald, page {i}.\n")
        n += 1
PY
  git -C "$ws" init -q
  for d in $(seq 0 10 399); do
    "$CLI" -w "$ws" thread new "section-$(printf %03d "$d")/part-$((d % 7))/page-00001.md" \
      --find prose --body "Is this right?" >/dev/null
  done
fi
median() { sort -n | sed -n 2p; }
time3() {
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
  done | median
}
echo "files: $(find "$ws" -name '*.md' -not -path '*/.*' | wc -l)"
echo "cowriting search, no hit: $(time3 "$CLI" -w "$ws" search zzqqxnowhere) s"
command -v rg >/dev/null && echo "rg, no hit: $(time3 rg -l zzqqxnowhere "$ws") s"
echo "grep -r, no hit: $(time3 grep -r -l zzqqxnowhere "$ws") s"
echo "cowriting search, 40,000 hits (1,000 kept): $(time3 "$CLI" -w "$ws" search journald) s"
command -v rg >/dev/null && echo "rg, 40,000 hits: $(time3 rg journald "$ws") s"
