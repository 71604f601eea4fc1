#!/usr/bin/env bash
# Call 2 (session 12): the GRU's W^T dG on the TMA kernel too (its cells write the W gate gradients rounded to TF32
# into a workspace piece of their own), and backward weights' last pass four elements a thread. Full build, the gpu
# lane, the A/B against main (51a2b2a: the tree without gpu-2-main.patch), and NVIDIA in the same runs three ways to
# see how much its step times move between runs (call 1's NVIDIA steps were 1.2-1.6x those of the previous session's
# call 5).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-input-gradient-tma/call-2
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
(cd /tmp/base && patch -p1 -R -s < $R/gpu-2-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs" LIBREDNN_JOBS=5 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 320 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/gpu-lane.txt | tail -30 | tee -a $OUT/summary.txt
t lane
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 60 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data,bwd_filter,step --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir fwd,step --runs 8 --markdown $OUT/vs-nvidia-1.md > /tmp/nv1.txt 2>&1; echo "vs NVIDIA 1 rc $?" | tee -a $OUT/summary.txt
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter,step --runs 8 --markdown $OUT/vs-nvidia-2.md > /tmp/nv2.txt 2>&1; echo "vs NVIDIA 2 rc $?" | tee -a $OUT/summary.txt
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir fwd,step --runs 8 --markdown $OUT/vs-nvidia-3.md > /tmp/nv3.txt 2>&1; echo "vs NVIDIA 3 rc $?" | tee -a $OUT/summary.txt
for f in 1 2 3; do grep -h "^| [a-z]" $OUT/vs-nvidia-$f.md | grep -E "step|problems" | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt; done
t nvidia
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_data,bwd_filter --check --runs 3 --markdown $OUT/check.md > $OUT/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^bwd" $OUT/check.txt | tee -a $OUT/summary.txt
t check
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ab.txt base-build.txt nv1.txt nv2.txt nv3.txt 2>/dev/null
