#!/usr/bin/env bash
# Layering rules a compiler does not check:
# - the backends never run the reference: a host or CUDA solver that calls it makes every test of that
#   solver compare the reference with itself (docs/NUMERICS.md, "How the tests bound errors");
# - the ops layer names no backend: backends register their solvers (src/ops/common/registry.hpp), and
#   only src/backends/ knows which backends a build has.
set -euo pipefail
cd "$1"
found=$(grep -rlE '#include "reference/|reference::' src/host src/cuda 2>/dev/null || true)
if [ -n "$found" ]; then
    echo "these backend files use the reference (src/reference), which only tests and tools may call:"
    echo "$found"
    exit 1
fi
named=$(grep -rlE '#include "(host|cuda)/' src/ops 2>/dev/null || true)
if [ -n "$named" ]; then
    echo "these ops-layer files include a backend (src/host or src/cuda); backends register themselves instead:"
    echo "$named"
    exit 1
fi
echo "layering check: src/host and src/cuda do not use src/reference; src/ops names no backend"
