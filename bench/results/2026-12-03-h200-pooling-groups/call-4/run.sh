#!/usr/bin/env bash
# Call 4: the paired kernels' taps as 16-byte loads (they were four 4-byte loads); the 2 x 2 groups over float
# NCHW too (measured with the strips off); batch-norm training forward over half NHWC with a cluster a tile of 16
# channels (training_cluster_nhwc); head pooling variants: NHWC forward 8 threads an output vector and backward
# runs of 49 positions (build 1) against 4 and 7 (build 2, sed). gpu lane, Pooling* and BatchNorm* op tests on
# CUDA, memcheck and racecheck, pooling and batch-norm benches against NVIDIA; ncu of the new kernels.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for run in 48 strips-off bn8; do
  seed=$run; unset LIBREDNN_POOLING_STRIPS LIBREDNN_BN_CLUSTER; filter='Pooling*:BatchNorm*'
  case $run in strips-off) export LIBREDNN_POOLING_STRIPS=0; seed=49; filter='Pooling*';; bn8) export LIBREDNN_BN_CLUSTER=8; seed=50; filter='BatchNorm*';; esac
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter="$filter" > $OUT/ops-$run.txt 2>&1; echo "rc $?" >> $OUT/ops-$run.txt
  echo "ops $run: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$run.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$run.txt | head -4
done
unset LIBREDNN_POOLING_STRIPS LIBREDNN_BN_CLUSTER
LIBREDNN_POOLING_STRIPS=0 LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='Pooling.ThreeBy*:Pooling.Global*:Pooling.PairedMax*:BatchNorm.*Packed*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-4 timeout 150 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -6
t tests
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
bench() { # name set dirs, then env assignments
  local name=$1 set=$2 dirs=$3; shift 3
  env "$@" timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/$set.tsv --n 256 --dir $dirs --runs 20 --dtype $DT --layout $LY --json $OUT/$name.json > $OUT/$name.txt 2>&1
  echo "$name rc $?"; grep -a -E "^(fwd|bwd|inference) " $OUT/$name.txt | head -10; }
DT=half LY=nhwc bench pool-half-nhwc-parts8-run49 resnet50-pool fwd,bwd X=1
DT=float LY=nchw bench pool-float-nchw resnet50-pool fwd,bwd X=1
DT=float LY=nchw bench pool-float-nchw-strips-off resnet50-pool bwd LIBREDNN_POOLING_STRIPS=0
DT=half LY=nhwc bench bn-half-nhwc resnet50-bn fwd X=1
DT=half LY=nhwc bench bn-half-nhwc-cluster-off resnet50-bn fwd LIBREDNN_BN_CLUSTER=0
DT=float LY=nchw bench bn-float-nchw resnet50-bn fwd,bwd X=1
t bench
sed -i 's/^constexpr int kParts = 8; /constexpr int kParts = 4; /; s/^constexpr int kRun = 49; /constexpr int kRun = 7;  /' src/cuda/pooling/pooling_global.cu
grep -E "^constexpr int k(Parts|Run) " src/cuda/pooling/pooling_global.cu
(cd build && ninja > $OUT/rebuild.txt 2>&1) || { tail -20 $OUT/rebuild.txt; exit 1; }
t rebuild
DT=half LY=nhwc bench pool-half-nhwc-parts4-run7 resnet50-pool fwd,bwd X=1
P="--runs 1 --warmup 1"
ncu_full() { timeout 100 ncu --clock-control none --set full -k regex:"$2" --launch-skip $3 --launch-count $4 env $5 $b --lib build/src/libcudnn.so.8 --problem "$6" $P > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Issue Slots Busy|Executed Instructions  " $OUT/ncu-$1.txt | head -20; }
ncu_full stem-bwd-float-groups 'forward_kernel|groups' 2 2 LIBREDNN_POOLING_STRIPS=0 "op=pool dir=bwd mode=max nan=not_propagate dtype=float dims=256x64x112x112 ydims=256x64x56x56 ystrides=200704x3136x56x1 dydims=256x64x56x56 dystrides=200704x3136x56x1 xstrides=802816x12544x112x1 dxstrides=802816x12544x112x1 window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0"
ncu_full bn-l4-half-nhwc 'nhwc_cluster' 1 1 X=1 "op=bn mode=spatial phase=train_fwd dtype=half dims=256x512x7x7 xstrides=25088x1x3584x512 ystrides=25088x1x3584x512 eps=1e-05 factor=0.1 alpha=1 beta=0"
t ncu
cd $OUT && tar czf logs.tgz build.txt rebuild.txt ops-*.txt sanitize.txt gpu-lane.txt pool-*.txt bn-*.txt ncu-*.txt && rm -f build.txt rebuild.txt ops-*.txt sanitize.txt gpu-lane.txt pool-*.txt bn-*.txt ncu-*.txt
