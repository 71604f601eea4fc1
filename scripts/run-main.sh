#!/usr/bin/env bash
# The main job: builds LibreDNN, installs it under build/install and runs the drop-in smoke program
# (a C99 program built with plain cc against the installed headers and -lcudnn) against it.
# cudnn-doctor and its self-test replace the smoke program when the doctor lands.
set -euo pipefail
cd "$(dirname "$0")/.."
LIBREDNN_BUILD_DIR=build scripts/build.sh
prefix=$PWD/build/install
cmake --install build --prefix "$prefix" >/dev/null
cc -std=c99 -Wall examples/smoke.c -I "$prefix/include" -L "$prefix/lib" -lcudnn -o build/smoke-installed
LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" build/smoke-installed
