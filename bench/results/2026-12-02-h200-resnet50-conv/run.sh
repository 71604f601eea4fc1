#!/usr/bin/env bash
set -uo pipefail
out=$OUT
export PATH=/usr/local/cuda/bin:$PATH
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
t0=$(date +%s)
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
b=build-gpu/tools/bench/librednn-bench
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-conv.tsv --n 32 --dtype half --layout nhwc --math tensor_op --dir fwd,bwd_data,bwd_filter --runs 15 --json $out/resnet50-conv-n32.json --markdown $out/resnet50-conv-n32.md > $out/resnet50-conv-n32.txt 2>&1
grep -a -A5 "^summary per direction" $out/resnet50-conv-n32.txt | tail -4
echo "total $(( $(date +%s)-t0 )) s"
