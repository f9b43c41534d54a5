#!/usr/bin/env python3
"""The exact-search baseline for `cowriting resolve --batch` (docs/anchoring.md).

Reads the same JSON lines from stdin ({"id","fingerprint","textPath"}) and
answers each the simplest way an exact resolver can: the recorded context and
text together, else the text alone when it occurs once; each file read once.
Single process, standard library only.
"""
import json
import sys


def main() -> None:
    texts = {}
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        fp = item["fingerprint"]
        path = item["textPath"]
        text = texts.get(path)
        if text is None:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
            texts[path] = text
        t, before, after = fp["text"], fp.get("before", ""), fp.get("after", "")
        at = text.find(before + t + after)
        if at >= 0:
            start = at + len(before)
        else:
            start = text.find(t)
            if start >= 0 and text.find(t, start + 1) >= 0:
                start = -1
        if start < 0:
            result = {"id": item["id"], "orphaned": True}
        else:
            # Byte offsets, as cowriting answers.
            b = len(text[:start].encode("utf-8"))
            result = {"id": item["id"], "start": b, "end": b + len(t.encode("utf-8"))}
        out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
