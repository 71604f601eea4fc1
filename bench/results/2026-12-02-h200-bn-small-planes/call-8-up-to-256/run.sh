#!/usr/bin/env bash
# Call 8: batch-norm forward statistics over NCHW planes of up to 256 values (14x14 too) staged in dynamic
# shared memory: the batch-norm op tests on CUDA (two seeds), memcheck/racecheck over the packed-layout test,
# ResNet-50 batch-norm layers at N=256, float NCHW forward, with the kernel on and off (each its own process).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 14 15; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/ops-$seed.txt | head -8
done; t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='BatchNorm.TrainingAndBackwardOnPackedLayouts*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-bn timeout 100 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize-bn.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=" $OUT/sanitize-bn.txt | head -6
t sanitize
for run in on off; do
  [ $run = off ] && export LIBREDNN_BN_SMALL_PLANES=0
  timeout 90 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd --runs 20 --dtype float --layout nchw --json $OUT/bn-fwd-$run.json > $OUT/bn-$run.txt 2>&1
  echo "== $run"; grep -a -E "^fwd " $OUT/bn-$run.txt | head -12
done
t bench
cd $OUT && tar czf logs.tgz build.txt ops-*.txt bn-*.txt sanitize-bn.txt && rm -f build.txt ops-*.txt bn-*.txt sanitize-bn.txt
