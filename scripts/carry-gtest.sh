#!/usr/bin/env bash
# Copies GoogleTest's sources into third_party/googletest (ignored by git), for machines without a
# package registry (the GPU machine): tests/CMakeLists.txt builds it from there.
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/src/googletest
[ -d "$src" ] || { echo "carry-gtest: $src not found (apt-get install libgtest-dev)"; exit 1; }
rm -rf third_party/googletest
mkdir -p third_party
cp -r "$src" third_party/googletest
echo "carry-gtest: third_party/googletest ready"
