#!/usr/bin/env bash
# On the H200 machine, in one call: build (sm_90, all cores), run the CUDA op tests of a filter under two
# seeds and compute-sanitizer memcheck, then librednn-bench --vs NVIDIA's cuDNN over sets. Logs and
# results go to the folder given ($OUT on the device tool).
#   scripts/gpu-check-and-bench.sh OUT 'BatchNorm*:Dropout*' 'BatchNorm.Training*' \
#       "bench/sets/resnet50-bn.tsv half nhwc inference,fwd,bwd" ...
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1 filter=$2 memcheck_filter=$3
shift 3
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nv=${NVIDIA_CUDNN:-/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git rev-parse HEAD 2>/dev/null; } >"$out/machine.txt" 2>&1
if ! LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    exit 1
fi
tests=build-gpu/tests/librednn_op_tests
for seed in 1 2; do
    LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda $tests --gtest_filter="$filter" 2>&1 | grep -a -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|error|^\[==========\]" | head -40
done >"$out/cuda-tests.txt"
cat "$out/cuda-tests.txt"
LIBREDNN_TEST_SEED=5 LIBREDNN_OP_TEST_BACKEND=cuda compute-sanitizer --tool memcheck $tests \
    --gtest_filter="$memcheck_filter" >"$out/memcheck.log" 2>&1
tail -3 "$out/memcheck.log" | tee "$out/memcheck.txt"
rm -f "$out/build.log" "$out/memcheck.log"  # the device tool brings back at most 8 files
bench=build-gpu/tools/bench/librednn-bench
for spec in "$@"; do
    read -r set dtype layout dirs <<<"$spec"
    name=$(basename "$set" .tsv)-$dtype-$layout
    $bench --lib build-gpu/src/libcudnn.so.8 --vs "$nv" --set "$set" --n 256 --dir "$dirs" --runs 15 --dtype "$dtype" \
        --layout "$layout" --problem "op=copy dtype=$dtype dims=256x256x56x56" --json "$out/$name.json" \
        --markdown "$out/$name.md" >"/tmp/$name.txt" 2>&1
    echo "== $name"
    grep -a -v "^problem\|^lib:\|^vs:\|^device\|^timing\|^librednn-bench\|^summary" "/tmp/$name.txt" | grep -a -v "^\s*$"
done
