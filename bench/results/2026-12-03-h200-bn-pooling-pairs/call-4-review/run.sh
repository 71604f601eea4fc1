#!/usr/bin/env bash
# Call 4 (review mend 2007b99): build, the gpu lane, the batch-norm and pooling op tests on CUDA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build $((SECONDS-start)) s"
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
LIBREDNN_TEST_SEED=25 LIBREDNN_OP_TEST_BACKEND=cuda timeout 90 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops-25.txt 2>&1; echo "rc $?" >> $OUT/ops-25.txt
grep -E "FAILED|PASSED|rc |Failure" $OUT/ops-25.txt | head -8
echo "done $((SECONDS-start)) s"
cd $OUT && tar czf logs.tgz build.txt gpu-lane.txt ops-25.txt && rm -f build.txt gpu-lane.txt ops-25.txt
