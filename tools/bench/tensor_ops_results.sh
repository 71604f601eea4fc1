#!/usr/bin/env bash
# Issue 4's result run, on a GPU machine: builds LibreDNN (sm_90, into build-gpu), runs the tests labelled
# gpu, then bench/sets/tensor-ops-large.problems with LibreDNN against NVIDIA's cuDNN in the same run
# (perf, then check). Writes into OUTDIR what bench/results/*-tensor-ops*/ hold: machine.txt,
# build.log, ctest-gpu.log, tensor-ops-large.{txt,json,md}, tensor-ops-large-check.txt and copy.txt (the
# machine's own device-to-device copy rate, measured right after the set; the README is written by
# hand). Exits non-zero when the build, a gpu test or either librednn-bench run fails.
#
#   tools/bench/tensor_ops_results.sh OUTDIR [NVIDIA_LIBCUDNN]
#
# NVIDIA_LIBCUDNN defaults to the cuDNN 9 of the project's H200 machine (../shared/GPU.md); the folders
# next to its own (nvidia/*/lib of the same Python environment) join LD_LIBRARY_PATH, for its CUDA
# libraries. RUNS (default 15) sets the timed runs per problem; PROBLEMS another problem file (the
# outputs are then named after it).
set -uo pipefail
if [ $# -lt 1 ]; then
    awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"
    exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=$1
vs=${2:-/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ ! -f "$vs" ]; then
    echo "tensor_ops_results: no NVIDIA cuDNN at $vs (give its libcudnn.so.9 as the second argument)"
    exit 2
fi
for lib in "$(dirname "$(dirname "$(dirname "$vs")")")"/*/lib; do
    [ -d "$lib" ] && LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64"
export PATH=/usr/local/cuda/bin:$PATH
cd "$root"
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv,noheader
    nvcc --version | tail -1
    git rev-parse HEAD 2>/dev/null || echo "(no git)"
    # A copied working tree (the device machine) can carry a .git whose HEAD is not what was built.
    git diff --quiet HEAD 2>/dev/null && echo "tree: as committed" || echo "tree: differs from HEAD (or no git)"
    echo "vs: $vs"
} >"$out/machine.txt" 2>&1

start=$SECONDS
# libcudnn.so.8 loads its sub-libraries (cudnn_ops_infer ... cudnn_adv_train) on first use: built by name.
LIBREDNN_BUILD_DIR=build-gpu LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train
    cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests librednn_gpu_tests" \
    scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1 || {
    tail -30 "$out/build.log"
    echo "tensor_ops_results: build failed"
    exit 1
}
echo "build: $((SECONDS - start)) s"
ctest --test-dir build-gpu -L gpu -j 6 --output-on-failure >"$out/ctest-gpu.log" 2>&1
gpu_rc=$?
grep -E "tests passed|tests failed" "$out/ctest-gpu.log"
problems=${PROBLEMS:-bench/sets/tensor-ops-large.problems}
name=$(basename "$problems" .problems)
RUNS=${RUNS:-15} tools/bench/compare_problems.sh build-gpu/tools/bench/librednn-bench build-gpu/src/libcudnn.so.8 \
    "$vs" "$problems" "$out" "$name"
compare_rc=$?
sed -n '/^dir  name/,/^$/p' "$out/$name.txt"
# The machine's own copy ceiling at the time of the run (op=copy: cudaMemcpyAsync of 411 MB, no library
# call), next to the fixed 4150 GB/s of ../shared/GPU.md.
build-gpu/tools/bench/librednn-bench --lib build-gpu/src/libcudnn.so.8 --runs "${RUNS:-15}" \
    --problem "op=copy dtype=float dims=128x256x56x56" >"$out/copy.txt" 2>&1
grep -E "^fwd +problem" "$out/copy.txt" | awk '{print "copy (this machine, now): " $6 " GB/s"}'
echo "tensor_ops_results: gpu tests rc=$gpu_rc, compare rc=$compare_rc, $((SECONDS - start)) s"
[ $gpu_rc -eq 0 ] && [ $compare_rc -eq 0 ]
