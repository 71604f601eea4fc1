#!/usr/bin/env bash
# Re-runs this measurement: LibreDNN's host backend (librednn-bench --host), oneDNN called directly and the
# naive reference (librednn-conv-baseline) on ResNet-50's convolutions at N=1, float NCHW, three directions.
# Usage: [THREADS=n] [RUNS=r] run.sh BUILD_DIR OUT_DIR [ROUNDS]. Each round measures LibreDNN then oneDNN;
# ratios.py takes the fastest run of each problem over all rounds. THREADS sets both LibreDNN's
# (LIBREDNN_HOST_THREADS) and oneDNN's (OMP_NUM_THREADS) thread count; unset, both use every core.
set -euo pipefail
build=$1 out=$2 rounds=${3:-3}
if [ -n "${THREADS:-}" ]; then export LIBREDNN_HOST_THREADS=$THREADS OMP_NUM_THREADS=$THREADS; fi
root=$(cd "$(dirname "$0")/../../.." && pwd)
set_file=$root/bench/sets/resnet50-conv.tsv
common=(--set "$set_file" --n 1 --dtype float --layout nchw --dir fwd,bwd_data,bwd_filter --runs ${RUNS:-10} --warmup 2)
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
    "$build/tools/bench/librednn-bench" --host --lib "$build/src/libcudnn.so.8" "${common[@]}" \
        --csv "$out/librednn-$round.csv" >"$out/librednn-$round.txt"
    "$build/tools/bench/librednn-conv-baseline" --onednn "${common[@]}" >"$out/onednn-$round.tsv"
done
# LibreDNN's own solvers (oneDNN switched off), once, and the reference, once (it is slow and steady).
LIBREDNN_ONEDNN=0 "$build/tools/bench/librednn-bench" --host --lib "$build/src/libcudnn.so.8" "${common[@]}" \
    --runs 3 --warmup 1 --csv "$out/own.csv" >"$out/own.txt"
"$build/tools/bench/librednn-conv-baseline" --reference "${common[@]}" --runs 1 --warmup 0 >"$out/reference.tsv"
