#!/usr/bin/env bash
# Call 4: main after the persistent kernels and the persistent-plan API. The legacy RNN tests on CUDA, Nsight
# Compute over one launch of each persistent kernel (where the batch-64 fused steps and the batch-1 kernels spend
# their time), the gpu lane.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
LIBREDNN_TEST_SEED=91 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='RnnLegacy*' > $OUT/legacy.txt 2>&1; echo "rc $?" >> $OUT/legacy.txt
echo "legacy rnn ops: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/legacy.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
t tests
(grep "^name" bench/sets/rnn.tsv; grep -E "^lstm\.h1024\.b64\.half|^lstm\.h512\.b1\.half" bench/sets/rnn.tsv) > /tmp/p.tsv
prof() { # name kernel-regex dirs
  timeout 120 ncu --clock-control none --set full -k regex:$2 --launch-skip 3 --launch-count 1 $b --lib build/src/libcudnn.so.8 --set /tmp/p.tsv --dir $3 --runs 1 --warmup 1 > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?" | tee -a $OUT/summary.txt
  grep -E "^  [a-z_]+kernel|Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|One or More Eligible|Stall|L1/TEX Hit|Shared Memory Configuration Size" $OUT/ncu-$1.txt | head -24 | tee -a $OUT/summary.txt
}
prof fused-b64 fused_step_tf32 inference
prof forward-b1 persistent_forward inference
prof backward-b1 persistent_backward step
t ncu
(cd build && timeout 150 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc " $OUT/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
