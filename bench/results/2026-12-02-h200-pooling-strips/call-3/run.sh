#!/usr/bin/env bash
# Call 3: pooling strips for NCHW only (NHWC back on the packed kernels), global pooling, and the batch-norm
# NCHW-plane statistics with all of a lane's vectors loaded at once and one merge per 32 values: the GPU lane,
# the pooling and batch-norm op tests on CUDA (two seeds), ResNet-50's pooling and batch-norm layers at N=256
# against NVIDIA (float NCHW, half NHWC).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
for seed in 4 5; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/ops-$seed.txt | head -8
done; t op-tests
wait $lane; tail -5 $OUT/gpu-lane.txt | head -3; grep -E "Failed|\*\*\*" $OUT/gpu-lane.txt | head
t lane
for cfg in "float nchw" "half nhwc"; do set -- $cfg
  timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/pool-$1-$2.json > $OUT/pool-$1-$2.txt 2>&1
  echo "== pool $1 $2"; grep -a -E "^(fwd|bwd) " $OUT/pool-$1-$2.txt | head -8
  timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir inference,fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/bn-$1-$2.json > $OUT/bn-$1-$2.txt 2>&1
  echo "== bn $1 $2"; grep -a -E "^(inference|fwd|bwd) " $OUT/bn-$1-$2.txt | head -40
done
t bench
cd $OUT && tar czf logs.tgz build.txt ops-*.txt pool-*.txt bn-*.txt && rm -f build.txt ops-*.txt pool-*.txt bn-*.txt
