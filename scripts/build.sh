#!/usr/bin/env bash
# Configures and builds LibreDNN into build/ (or $LIBREDNN_BUILD_DIR). Extra arguments go to cmake;
# LIBREDNN_TARGETS (space-separated) builds only those targets, LIBREDNN_JOBS sets the parallelism.
# The CUDA backend is built when nvcc is found (for sm_90 unless CMAKE_CUDA_ARCHITECTURES is given).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${LIBREDNN_BUILD_DIR:-build}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export CUDACXX=/usr/local/cuda/bin/nvcc
fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S . -B "$build_dir" "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release -DLIBREDNN_WERROR=ON "$@"
elif [ $# -gt 0 ]; then
    cmake "$build_dir" "$@"
fi
targets=()
for target in ${LIBREDNN_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "${LIBREDNN_JOBS:-$(nproc)}" "${targets[@]}"
