#!/usr/bin/env python3
"""Regenerates every file derived from api/*.tsv and src/api/support.tsv.

  python3 tools/gen/generate.py          writes the files
  python3 tools/gen/generate.py --check  exits 1 and names each file that is out of date
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_code  # noqa: E402
import gen_headers  # noqa: E402
from api_tables import ROOT  # noqa: E402


def main():
    check = "--check" in sys.argv[1:]
    files = {}
    files.update(gen_headers.outputs())
    files.update(gen_code.outputs())
    stale = []
    for rel, text in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            print("wrote", rel)
    if stale:
        print("out of date (run python3 tools/gen/generate.py):\n  " + "\n  ".join(stale))
        return 1
    if check:
        print("%d generated files are up to date" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
