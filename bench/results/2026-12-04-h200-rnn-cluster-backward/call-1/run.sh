#!/usr/bin/env bash
# Call 1 (session 9): main (90e24df) — the first GPU run of 7ff81f7 (review mends) and 90e24df (shared sequence
# element / previous-h rules): the gpu lane; Rnn* on CUDA under two seeds (one with TF32 operands everywhere);
# the whole RNN set against NVIDIA (inference, step); the batch-64 rows pass by pass; a kernel-time summary of
# the lstm.h1024.b64.float training step (nsys) to see where the step's time goes.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && timeout 280 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
for s in 1301 1302; do e=""; [ $s = 1302 ] && e="LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed|radius" /tmp/ops-$s.txt | head -8 | cut -c1-400
done | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown $OUT/vs-nvidia.md > /tmp/bench.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2-6,8,11 | tee -a $OUT/summary.txt
t bench
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/passes.md | cut -d'|' -f2-6,8,11 | tee -a $OUT/summary.txt
t passes
which nsys | tee -a $OUT/summary.txt
for row in lstm.h1024.b64.float gru.h1024.b64.half; do
p=$(grep "^$row" bench/sets/rnn.tsv | cut -f3)
timeout 60 nsys profile -o /tmp/prof-$row --force-overwrite true $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_data --runs 3 > /tmp/nsys-$row.txt 2>&1
timeout 60 nsys stats --report cuda_gpu_kern_sum --format csv /tmp/prof-$row.nsys-rep 2>/dev/null | cut -c1-220 | head -30 > $OUT/kernels-$row.csv
done
t done
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ops-1301.txt ops-1302.txt bench.txt passes.txt 2>/dev/null
