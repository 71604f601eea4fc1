#!/usr/bin/env bash
# Call 6: the RNN forward tests with element-by-element bounds (the reference run over intervals,
# tests/ops/rnn_error_bound.hpp; the tree of this call): Rnn* on CUDA under three seeds (one with the persistent
# kernels, the split product and wgmma off, as OpsCuda.RnnWithoutPersistentKernels runs them); and the same tree
# with gpu-6-mutation.patch (the fused TF32 step's A fragments with two k of a row swapped) built beside it, whose
# fused-step forward test must now fail.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/mut && tar --exclude=./build -cf - . | tar -xf - -C /tmp/mut
(cd /tmp/mut && patch -p1 -s < gpu-6-mutation.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mbuild.txt 2>&1; echo "mutated build rc $?" >> /tmp/mbuild.txt) &
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
for s in 1101 1102 1103; do e=""; [ $s = 1102 ] && e="LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_RNN_SPLIT_STEP=0 LIBREDNN_GEMM_TF32_WGMMA=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|is .*, the reference|allowed" /tmp/ops-$s.txt | head -6 | cut -c1-300
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/mbuild.txt | tee -a $OUT/summary.txt
for s in 1101 1102 1103; do
  LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 /tmp/mut/build/tests/librednn_op_tests --gtest_filter='Rnn.ForwardOfFusedStepsMatchesReference' > /tmp/mut-$s.txt 2>&1; echo "rc $?" >> /tmp/mut-$s.txt
  echo "mutated, seed $s: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/mut-$s.txt | tr '\n' ' ')"; grep -E "the reference" /tmp/mut-$s.txt | head -2 | cut -c1-300
done | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ops-1101.txt ops-1102.txt ops-1103.txt mut-1101.txt mut-1102.txt mut-1103.txt mbuild.txt 2>/dev/null
