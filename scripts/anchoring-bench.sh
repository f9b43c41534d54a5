#!/usr/bin/env bash
# The anchoring figures of docs/anchoring.md: accuracy on real Markdown histories
# and the speed of `cowriting resolve --batch` against a Python exact-search
# baseline, on the same anchors in the same run.
#
#   scripts/anchoring-bench.sh REPO...     (git repositories with Markdown history)
#
# Builds in release mode (CARGO_TARGET_DIR is honoured). Prints the accuracy
# table, then the time per anchor of each resolver (best of 3 runs each).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: $0 REPO..." >&2; exit 2; }
target=${CARGO_TARGET_DIR:-$here/target}
cargo build --quiet --release --manifest-path "$here/Cargo.toml" --example anchoring --bin cowriting
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$target/release/examples/anchoring" --emit "$work" "$@"
cd "$work"
n=$(wc -l < input.jsonl)
best() { # best wall time of 3 runs of "$@" < input.jsonl, in seconds
  local b=""
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N)
    "$@" < input.jsonl > /dev/null
    e=$(date +%s.%N)
    b=$(echo "$e $s $b" | awk '{t=$1-$2; if ($3=="" || t<$3) print t; else print $3}')
  done
  echo "$b"
}
# The answers must be answers: one line per anchor from each.
[ "$("$target/release/cowriting" resolve --batch < input.jsonl | wc -l)" -eq "$n" ]
[ "$(python3 "$here/scripts/anchoring_baseline.py" < input.jsonl | wc -l)" -eq "$n" ]
cw=$(best "$target/release/cowriting" resolve --batch)
py=$(best python3 "$here/scripts/anchoring_baseline.py")
echo
echo "resolve --batch, $n anchors over $(ls ./*.md | wc -l) texts (best of 3, whole process):"
awk -v n="$n" -v cw="$cw" -v py="$py" 'BEGIN {
  printf "  cowriting resolve --batch   %8.1f µs per anchor (%.2f s)\n", cw * 1e6 / n, cw;
  printf "  python exact-search         %8.1f µs per anchor (%.2f s)\n", py * 1e6 / n, py;
  printf "  cowriting / python          %8.2f\n", cw / py }'
