#!/usr/bin/env bash
# Call 5 (session 11): the gate gradients' largest magnitudes recorded by the bias gradients' pass (which reads them
# anyway), no scan at all of outputs that stay within half's range (LSTM without projection, GRU, tanh cells, no dropout
# between layers). The gpu lane; the A/B against main (backward weights, the training step); against NVIDIA on the
# batch-64 rows.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-5
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd /tmp/base && patch -p1 -R -s < $R/gpu-5-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=4 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 330 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/gpu-lane.txt | tail -30 | tee -a $OUT/summary.txt
t lane
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 90 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter,step --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
left=$((585 - (SECONDS - start)))
timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter,step --runs 8 --markdown $OUT/vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t nvidia
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ab.txt nv.txt base-build.txt 2>/dev/null
