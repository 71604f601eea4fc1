#!/usr/bin/env bash
# The backends never run the reference: a host or CUDA solver that calls it makes every test of that
# solver compare the reference with itself (docs/NUMERICS.md, "How the tests bound errors").
set -euo pipefail
cd "$1"
found=$(grep -rlE '#include "reference/|reference::' src/host src/cuda 2>/dev/null || true)
if [ -n "$found" ]; then
    echo "these backend files use the reference (src/reference), which only tests and tools may call:"
    echo "$found"
    exit 1
fi
echo "layering check: src/host and src/cuda do not use src/reference"
