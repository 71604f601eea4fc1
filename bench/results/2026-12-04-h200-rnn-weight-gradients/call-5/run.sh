#!/usr/bin/env bash
# Call 5: the RNN backward comparisons with dropout between layers (c4d3266) on CUDA: Rnn* under two seeds, one
# with TF32 operands at every length.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
for s in 1241 1242; do e=""; [ $s = 1242 ] && e="LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed" /tmp/ops-$s.txt | head -6 | cut -c1-300
done | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ops-1241.txt ops-1242.txt 2>/dev/null
