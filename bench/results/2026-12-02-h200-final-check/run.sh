#!/usr/bin/env bash
# Call 9 (the session's last): main's head on the GPU — the GPU lane, the pooling and batch-norm op tests on
# CUDA — then three deliberate mistakes in the new kernels (this copy only), rebuilt, to show the new tests
# catch them on CUDA: the strips' maximum keeps the last of equal values (>= for >), the global NCHW forward
# skips each plane's first value, the small-plane statistics shrink each plane's squared deviations by 1%.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 150 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
LIBREDNN_TEST_SEED=16 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops.txt 2>&1; echo "rc $?" >> $OUT/ops.txt
grep -E "FAILED|PASSED|rc |Failure" $OUT/ops.txt | head -8
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
sed -i 's/if (m.where < 0 || v != v || v > m.best) {/if (m.where < 0 || v != v || v >= m.best) {/' src/cuda/pooling/pooling_strips.cu
sed -i 's/    for (int k = 0; k < S; ++k) {/    for (int k = 1; k < S; ++k) {/' src/cuda/pooling/pooling_global.cu
sed -i 's/                d2 += d \* d;/                d2 += 0.99f * d * d;/' src/cuda/batch_norm/training_packed.cu
git diff --stat
ninja -C build librednn_op_tests > $OUT/mutant-build.txt 2>&1 || { tail -20 $OUT/mutant-build.txt; exit 1; }
t mutant-build
for f in Pooling.ThreeByThreeWindowsAtStrideTwoMatchReference Pooling.GlobalWindowsMatchReference BatchNorm.TrainingAndBackwardOnPackedLayoutsMatchReference; do
  LIBREDNN_TEST_SEED=16 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter=$f > $OUT/mutant-$f.txt 2>&1
  echo "$f under its mutation: rc $? $(grep -c Failure $OUT/mutant-$f.txt) failures; $(grep -E '^\[  (PASSED|FAILED)' $OUT/mutant-$f.txt | head -1)"
done
t mutants
cd $OUT && tar czf logs.tgz build.txt ops.txt mutant-*.txt && rm -f build.txt ops.txt mutant-*.txt
