#!/usr/bin/env bash
# The GPU lane, run on the H200 machine: builds with all cores (sm_90), runs the tests labelled gpu and
# then every other test, and writes the logs into the folder given (default: gpu-logs/).
#   scripts/gpu-lane.sh "$OUT"
# GoogleTest comes from the system or from third_party/googletest (scripts/carry-gtest.sh puts it there).
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${1:-gpu-logs}
mkdir -p "$logs"
export PATH=/usr/local/cuda/bin:$PATH
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    nvcc --version | tail -2
    cmake --version | head -1
    git rev-parse HEAD 2>/dev/null || echo "(no git)"
} >"$logs/machine.txt" 2>&1
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/build.log" 2>&1
build_rc=$?
if [ $build_rc -ne 0 ]; then
    tail -50 "$logs/build.log"
    echo "gpu-lane: build failed"
    exit $build_rc
fi
ctest --test-dir build-gpu -L gpu --output-on-failure >"$logs/ctest-gpu.log" 2>&1
gpu_rc=$?
ctest --test-dir build-gpu -j "$(nproc)" --output-on-failure -LE gpu >"$logs/ctest-all.log" 2>&1
all_rc=$?
tail -15 "$logs/ctest-gpu.log"
tail -8 "$logs/ctest-all.log"
echo "gpu-lane: gpu tests rc=$gpu_rc, other tests rc=$all_rc"
[ $gpu_rc -eq 0 ] && [ $all_rc -eq 0 ]
