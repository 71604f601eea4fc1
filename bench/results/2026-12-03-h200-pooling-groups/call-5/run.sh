#!/usr/bin/env bash
# Call 5 (the session's last device time, about 3 minutes of command): the 2 x 2 groups over float NCHW with the
# image count fixed (N x C one-channel images; call 4 wrote only the first N planes); cluster sums read by eight
# threads a sum at once (a warp had read them one after another); the NHWC batch-norm clusters only where one
# wave holds them. Op tests on CUDA first, then the benches; no tarball (what is under $OUT comes back even if
# the time runs out).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_TEST_SEED=51 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops.txt 2>&1; echo "rc $?" >> $OUT/ops.txt
echo "ops 51: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|got " $OUT/ops.txt | head -6 | tee -a $OUT/summary.txt
t tests
bench() { # name set dirs vs, then env assignments
  local name=$1 set=$2 dirs=$3 vs=$4; shift 4
  env "$@" timeout 60 $b --lib build/src/libcudnn.so.8 $vs --set bench/sets/$set.tsv --n 256 --dir $dirs --runs 20 --dtype $DT --layout $LY --json $OUT/$name.json > $OUT/b.txt 2>&1
  echo "$name rc $?" | tee -a $OUT/summary.txt; grep -a -E "^(fwd|bwd) +l[34]" $OUT/b.txt | head -20 | tee -a $OUT/summary.txt; }
DT=half LY=nhwc bench bn-half-nhwc resnet50-bn fwd "--vs $nv" X=1
DT=half LY=nhwc bench bn-half-nhwc-off resnet50-bn fwd "" LIBREDNN_BN_CLUSTER=0
DT=float LY=nchw bench bn-float-nchw resnet50-bn fwd,bwd "--vs $nv" X=1
rm -f $OUT/b.txt
t bench
LIBREDNN_BN_CLUSTER=8 LIBREDNN_TEST_SEED=52 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops8.txt 2>&1; echo "rc $?" >> $OUT/ops8.txt
echo "ops 8 blocks forced: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops8.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
t tests8
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc " $OUT/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
