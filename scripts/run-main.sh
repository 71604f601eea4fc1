#!/usr/bin/env bash
# The main job: builds LibreDNN, installs it under build/install, and runs cudnn-doctor with its
# self-test against the freshly installed library (exit 0 when nothing FAILs; WARN lines, such as
# operations LibreDNN does not provide yet, do not fail it). Then the drop-in smoke program: a C99
# program built with plain cc against the installed headers and -lcudnn.
set -euo pipefail
cd "$(dirname "$0")/.."
LIBREDNN_BUILD_DIR=build scripts/build.sh
prefix=$PWD/build/install
cmake --install build --prefix "$prefix" >/dev/null
LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$prefix/bin/cudnn-doctor" --lib "$prefix/lib" --self-test
cc -std=c99 -Wall examples/smoke.c -I "$prefix/include" -L "$prefix/lib" -lcudnn -o build/smoke-installed
LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" build/smoke-installed
