#!/usr/bin/env bash
# Call 5: three planted mistakes in this session's kernels (this copy only), each against its test on CUDA:
# the paired maximum becomes a minimum, the staged channels start one late (NCHW ranges), the two-pass merge
# drops each part's distance from the mean.
set -u
export PATH=$PATH:/usr/local/cuda/bin
sed -i 's/return propagate ? __hmax2_nan(a, b) : __hmax2(a, b);/return propagate ? __hmax2_nan(a, b) : __hmin2(a, b);/' src/cuda/pooling/pooling_pairs.cu
sed -i 's/    return r.first + j < channels ? r.first + j : r.first + j - channels;/    return r.first + j + 1 < channels ? r.first + j + 1 : r.first + j + 1 - channels;/' src/cuda/batch_norm/channel_constants.cuh
sed -i 's/        m2 += p2\[p\] + p0\[p\] \* d \* d;/        m2 += p2[p] + 0.0 * d * d;/' src/cuda/batch_norm/training_packed.cu
git diff --stat
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
for f in Pooling.PairedMaximaOverHalfNhwcMatchReference BatchNorm.InferenceOnPackedLayoutsMatchesReference BatchNorm.TrainingAndBackwardOnPackedLayoutsMatchReference; do
  LIBREDNN_TEST_SEED=25 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter=$f > $OUT/mutant-$f.txt 2>&1
  echo "$f under its mutation: rc $? $(grep -c Failure $OUT/mutant-$f.txt) failures; $(grep -E '^\[  (PASSED|FAILED)' $OUT/mutant-$f.txt | head -1)"
done
cd $OUT && tar czf logs.tgz build.txt mutant-*.txt && rm -f build.txt mutant-*.txt
