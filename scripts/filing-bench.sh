#!/usr/bin/env bash
# How long a review pass takes to file N edits (docs/reliability.md, "Filing is
# linear in the items of a turn"): a document of N sentences, a fake Claude Code
# that answers each part of the review with an edit of every sentence it was
# shown, `cowriting --json review`, the whole process timed.
#
#   scripts/filing-bench.sh [COWRITING_BINARY] [N...]   (default: the debug build; 1000 2000 4000)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$here/target}/debug/cowriting}
shift || true
[ $# -gt 0 ] || set -- 1000 2000 4000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/fake" <<PY
#!/usr/bin/env python3
import sys, re, json, subprocess, tempfile, os
prompt = sys.stdin.read()
ks = sorted(set(re.findall(r"Sentence number (\d+) is here\.", prompt)), key=int)
fd, path = tempfile.mkstemp(dir="$tmp")
with os.fdopen(fd, "w") as f:
    for k in ks:
        f.write(json.dumps({"kind": "edit", "quote": f"Sentence number {k} is here.",
                            "replacement": f"Sentence number {k} is there."}) + "\n")
p = subprocess.run(["$here/tests/fixtures/claude/fake-claude"] + sys.argv[1:],
                   input=prompt + f"\n[[answer:{path}]]\n", text=True)
sys.exit(p.returncode)
PY
chmod +x "$tmp/fake"
for n in "$@"; do
  ws=$(mktemp -d "$tmp/ws.XXXX") home=$(mktemp -d "$tmp/home.XXXX")
  mkdir -p "$home/.config/cowriting"
  printf '[claude]\ncommand = "%s"\ntimeout_secs = 600\n' "$tmp/fake" > "$home/.config/cowriting/config.toml"
  python3 -c "import sys; open(sys.argv[1], 'w').write('# Long\n\n' + ''.join(f'Sentence number {k} is here.\n\n' for k in range(int(sys.argv[2]))))" "$ws/essay.md" "$n"
  git -C "$ws" init -q .
  s=$(date +%s.%N)
  HOME=$home "$bin" -w "$ws" --json review essay.md --instruction edit > "$home/out.json"
  e=$(date +%s.%N)
  python3 -c "import json, sys; o = json.load(open(sys.argv[1])); print(f'{sys.argv[2]:>6} edits: {float(sys.argv[3]):6.1f} s, {len(o[\"proposals\"])} filed in {o[\"parts\"]} parts')" "$home/out.json" "$n" "$(echo "$e - $s" | bc)"
done
