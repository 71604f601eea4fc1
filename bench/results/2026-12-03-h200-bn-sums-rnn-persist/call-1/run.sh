#!/usr/bin/env bash
# Call 1: main with the cluster sums read eight threads a sum (the patch of 2026-12-03-h200-pooling-groups).
# Op tests on CUDA, the gpu lane, batch-norm benches (half NHWC fwd with the clusters on, off and forced on
# l4.bn2048; float NCHW fwd,bwd against NVIDIA), and the batch-1 RNN baseline (standard and persistent).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_TEST_SEED=61 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops.txt 2>&1; echo "rc $?" >> $OUT/ops.txt
echo "ops 61: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|got " $OUT/ops.txt | head -6 | tee -a $OUT/summary.txt
LIBREDNN_BN_CLUSTER=8 LIBREDNN_TEST_SEED=62 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops8.txt 2>&1; echo "rc $?" >> $OUT/ops8.txt
echo "ops 8 blocks forced: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops8.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
t tests
bench() { # name set dirs vs, then env assignments
  local name=$1 set=$2 dirs=$3 vs=$4; shift 4
  env "$@" timeout 60 $b --lib build/src/libcudnn.so.8 $vs --set bench/sets/$set.tsv --n 256 --dir $dirs --runs 20 --dtype $DT --layout $LY --json $OUT/$name.json > $OUT/b.txt 2>&1
  echo "$name rc $?" | tee -a $OUT/summary.txt; grep -a -E "^(fwd|bwd) +l[34]" $OUT/b.txt | head -20 | tee -a $OUT/summary.txt; }
DT=half LY=nhwc bench bn-half-nhwc resnet50-bn fwd "--vs $nv" X=1
DT=half LY=nhwc bench bn-half-nhwc-off resnet50-bn fwd "" LIBREDNN_BN_CLUSTER=0
DT=half LY=nhwc bench bn-half-nhwc-7 resnet50-bn fwd "" LIBREDNN_BN_CLUSTER=7
DT=float LY=nchw bench bn-float-nchw resnet50-bn fwd,bwd "--vs $nv" X=1
rm -f $OUT/b.txt
t bench
(grep "^name" bench/sets/rnn.tsv; grep "\.b1\." bench/sets/rnn.tsv) > /tmp/b1s.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b1s.tsv --dir inference,step --runs 10 --markdown $OUT/rnn-b1.md > $OUT/rnn-b1.txt 2>&1; echo "rnn-b1 rc $?" | tee -a $OUT/summary.txt
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 10 --markdown $OUT/rnn-persist.md > $OUT/rnn-persist.txt 2>&1; echo "rnn-persist rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn-b1.md $OUT/rnn-persist.md | cut -c1-160 | tee -a $OUT/summary.txt
rm -f $OUT/rnn-b1.txt $OUT/rnn-persist.txt
t rnn
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc " $OUT/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
