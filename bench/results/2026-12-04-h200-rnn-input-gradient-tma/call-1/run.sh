#!/usr/bin/env bash
# Call 1 (session 12): the previous session's not-run patch (backward data's W^T dG from gr rounded to TF32 on the
# tensor memory accelerator's kernel, the cells other than the GRU; both biases from gw once), with backward weights
# reading gw wherever the cells' gradients are shared. Full build, the gpu lane (also the first run of the previous
# session's review commits), the A/B against main (the tree without gpu-1-main.patch).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-input-gradient-tma/call-1
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
(cd /tmp/base && patch -p1 -R -s < $R/gpu-1-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs" LIBREDNN_JOBS=5 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 320 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/gpu-lane.txt | tail -30 | tee -a $OUT/summary.txt
t lane
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
left=$((585 - (SECONDS - start)))
timeout $left $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data,bwd_filter,step --runs 6 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ab.txt base-build.txt 2>/dev/null
