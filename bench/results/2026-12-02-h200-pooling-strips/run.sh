#!/usr/bin/env bash
# Call 6: the pooling strips, 8 output rows a thread both ways (the final form): the pooling op tests on CUDA,
# ResNet-50's pooling layers at N=256, float NCHW, against NVIDIA, in two processes.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 10 11; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='Pooling*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/ops-$seed.txt | head -8
done
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=60 LIBREDNN_SANITIZE_OPS='Pooling.ThreeByThree*:Pooling.Global*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-pool timeout 90 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-pool.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=" $OUT/sanitize-pool.txt | head -6
for i in 1 2; do
  timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/pool-float-nchw-$i.json > $OUT/pool-$i.txt 2>&1
  grep -a -E "^(fwd|bwd) " $OUT/pool-$i.txt | head -6
done
t bench
cd $OUT && tar czf logs.tgz build.txt ops-*.txt pool-*.txt sanitize-pool.txt && rm -f build.txt ops-*.txt pool-*.txt sanitize-pool.txt
