#!/usr/bin/env bash
# Call 3: the fused TF32 step persistent (all the steps of a pseudo-layer in one cooperative launch, from batch 32),
# and a persistent backward-data kernel for small batches. RNN op tests on CUDA with and without the persistent
# launches, compute-sanitizer over the persistent tests, the whole RNN set against NVIDIA, the set with the
# persistent launches off.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_TEST_SEED=83 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/ops-off.txt 2>&1; echo "rc $?" >> $OUT/ops-off.txt
echo "rnn ops persistent off: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-off.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
rm -f $OUT/ops-off.txt
for seed in 81 82; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  echo "rnn ops $seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$seed.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED \]|got |Which is|allowed" $OUT/ops-$seed.txt | head -8 | tee -a $OUT/summary.txt
done
rm -f $OUT/ops-82.txt
t tests
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown /tmp/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" /tmp/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
LIBREDNN_RNN_PERSISTENT=0 timeout 150 $b --lib build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown /tmp/rnn-off.md > /tmp/rnn-off.txt 2>&1; echo "rnn off rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" /tmp/rnn-off.md | cut -c1-100 | tee -a $OUT/summary.txt
cp /tmp/rnn.md /tmp/rnn-off.md $OUT/
t bench
LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfFusedSteps*:Rnn.ForwardOfPersistent*:RnnBackward.FloatAndHalfMatchDoubleOnPersistent*' LIBREDNN_SANITIZE_GPU_STEPS="" LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_STEP_SECONDS=100 LIBREDNN_TEST_SEED=84 timeout 230 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1; echo "rc $?" >> $OUT/sanitize.txt
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc |PASSED|FAILED" $OUT/sanitize.txt | head -10 | tee -a $OUT/summary.txt
t sanitize
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc |RnnWithout" $OUT/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
