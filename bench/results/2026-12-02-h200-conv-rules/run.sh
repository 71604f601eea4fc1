#!/usr/bin/env bash
set -uo pipefail
out=$OUT
export PATH=/usr/local/cuda/bin:$PATH
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
t0=$(date +%s)
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
args=(); while IFS= read -r p; do args+=(--problem "$p"); done < <(grep -v '^#' bench/sets/conv-rules.problems)
timeout 200 build-gpu/tools/bench/librednn-bench --check --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" > $out/conv-rules-check.txt 2>&1
echo "rc=$? $(( $(date +%s)-t0 )) s"
grep -a -c -E "^(fwd|bwd)" $out/conv-rules-check.txt
grep -a -E "^(fwd|bwd)" $out/conv-rules-check.txt | awk '{print $1, $5, $6}' | sort | uniq -c
