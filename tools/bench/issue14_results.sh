#!/usr/bin/env bash
# Issue 14's result run, on a GPU machine with LibreDNN built (BUILD, default build): ResNet-50's batch-norm and
# pooling layers (bench/sets/resnet50-bn.tsv with the tensor-ops-large shape, bench/sets/resnet50-pool.tsv) at
# N=256, half NHWC and float NCHW, forward and backward (batch norm's inference too), against NVIDIA's cuDNN in the
# same librednn-bench processes; then op=copy's rate on the machine (the large copy, and a copy of each layer's x),
# and tools/bench/issue14_bars.py's table of the bars (bars.md). Writes into OUTDIR: bn-*.json and pool-*.json (with
# .txt), copy.txt, copy.json, copies.json (.txt), bars.md and bars-measured-copy.md (the bar at 80% of copy.json's
# rate, not the H200's 4150 GB/s).
#
#   tools/bench/issue14_results.sh OUTDIR [NVIDIA_LIBCUDNN]
#
# NVIDIA_LIBCUDNN defaults to the cuDNN 9 of the project's H200 machine (../shared/GPU.md). RUNS (default 20) sets
# the timed runs per problem. Exits non-zero when a librednn-bench run fails.
set -uo pipefail
if [ $# -lt 1 ]; then
    awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"
    exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=$1
vs=${2:-/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9}
build=${BUILD:-build}
runs=${RUNS:-20}
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"
bench=$build/tools/bench/librednn-bench
lib=$build/src/libcudnn.so.8
for f in "$bench" "$lib" "$vs"; do
    [ -e "$f" ] || { echo "issue14_results: $f is missing"; exit 2; }
done
status=0
run() {  # name set dirs dtype layout [extra options]
    local name=$1 set=$2 dirs=$3 dtype=$4 layout=$5
    shift 5
    "$bench" --lib "$lib" --vs "$vs" --set "$set" --n 256 --dir "$dirs" --runs "$runs" --dtype "$dtype" \
        --layout "$layout" --json "$out/$name.json" "$@" > "$out/$name.txt" 2>&1 || { echo "$name failed"; status=1; }
}
for config in "half nhwc" "float nchw"; do
    set -- $config
    run "bn-$1-$2" bench/sets/resnet50-bn.tsv inference,fwd,bwd "$1" "$2"
    run "pool-$1-$2" bench/sets/resnet50-pool.tsv fwd,bwd "$1" "$2"
done
"$bench" --lib "$lib" --problem "op=copy dtype=float dims=128x256x56x56" --runs "$runs" --json "$out/copy.json" \
    > "$out/copy.txt" 2>&1 || status=1
# A copy of each layer's x (its dtype and dims), LibreDNN's copy on this machine: the table's same-size column.
copies=()
while read -r problem; do copies+=(--problem "$problem"); done < <(python3 tools/bench/issue14_bars.py --copy-problems \
    "$out"/bn-*.json "$out"/pool-*.json)
"$bench" --lib "$lib" "${copies[@]}" --runs "$runs" --json "$out/copies.json" > "$out/copies.txt" 2>&1 || status=1
with_copies=()
[ -s "$out/copies.json" ] && with_copies=(--copies "$out/copies.json")  # the table without that column otherwise
python3 tools/bench/issue14_bars.py "$out"/bn-*.json "$out"/pool-*.json "${with_copies[@]}" > "$out/bars.md" || status=1
# The same bar against the large copy this call measured (on a GPU other than the H200, the issue's bar there).
python3 tools/bench/issue14_bars.py "$out"/bn-*.json "$out"/pool-*.json "${with_copies[@]}" --copy-from "$out/copy.json" \
    > "$out/bars-measured-copy.md" || status=1
cat "$out/bars.md"
tail -1 "$out/bars-measured-copy.md"
exit $status
