#!/usr/bin/env bash
# Call 2: the 3x3/2 pooling strips (src/cuda/pooling/pooling_strips.cu) and global pooling (pooling_global.cu): the pooling op tests on CUDA (three
# seeds), memcheck/racecheck/initcheck over the new test, ResNet-50's pooling layers at N=256 against NVIDIA
# (float NCHW, half NHWC), and the same with the strips switched off (the packed kernels) in its own process.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 1 2 3; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='Pooling*' > $OUT/pool-ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/pool-ops-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/pool-ops-$seed.txt | head -8
done; t op-tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=60 LIBREDNN_SANITIZE_OPS='Pooling.ThreeByThree*:Pooling.Global*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-pool timeout 90 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-pool.txt 2>&1
echo "sanitize rc $?"; grep -v "matches no test" $OUT/sanitize-pool.txt | grep -E "rc=|no errors|error" | head -8
t sanitize
for run in strips packed; do
  [ $run = packed ] && export LIBREDNN_POOLING_STRIPS=0 LIBREDNN_POOLING_GLOBAL=0
  for cfg in "float nchw" "half nhwc"; do set -- $cfg
    timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/pool-$run-$1-$2.json > $OUT/pool-$run-$1-$2.txt 2>&1
    echo "== $run $1 $2"; grep -a -E "^(fwd|bwd) " $OUT/pool-$run-$1-$2.txt | head -8
  done
done
t bench
unset LIBREDNN_POOLING_STRIPS LIBREDNN_POOLING_GLOBAL
# Where batch-norm training's time goes on the small planes (14x14, 7x7): each kernel's duration under ncu.
(head -1 bench/sets/resnet50-bn.tsv; grep -E "^bn\s+l(3|4)\." bench/sets/resnet50-bn.tsv) > /tmp/bn-small.tsv
for cfg in "float nchw" "half nhwc"; do set -- $cfg
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv $b --lib build/src/libcudnn.so.8 --set /tmp/bn-small.tsv --n 256 --dir fwd,bwd --runs 1 --warmup 1 --dtype $1 --layout $2 > $OUT/ncu-bn-$1-$2.csv 2> $OUT/ncu-bn-$1-$2.err
  echo "ncu $1 $2 rc $? lines $(wc -l < $OUT/ncu-bn-$1-$2.csv)"
done
t ncu
cd $OUT && tar czf logs.tgz build.txt pool-ops-*.txt sanitize-pool.txt pool-*.txt ncu-bn-*.err && rm -f build.txt pool-ops-*.txt sanitize-pool.txt pool-*.txt ncu-bn-*.err
