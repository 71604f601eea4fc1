#!/usr/bin/env bash
# Call 3: the 2 x 2 groups with the argmax as words (no byte array); batch-norm clusters with predicated loads
# and stores, alpha folded into gain and shift, beta tested once (a helper's patch). gpu lane; Pooling* and
# BatchNorm* op tests on CUDA; memcheck and racecheck; the cluster kernels' outputs old against new bit for bit
# (gpu-bnw: static builds of the two kernels); pooling and batch-norm benches against NVIDIA; ncu of the groups.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for run in 45 46 8; do
  seed=$run; unset LIBREDNN_BN_CLUSTER; filter='Pooling*:BatchNorm*'
  case $run in 8) export LIBREDNN_BN_CLUSTER=8; seed=47; filter='BatchNorm*';; esac
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter="$filter" > $OUT/ops-$run.txt 2>&1; echo "rc $?" >> $OUT/ops-$run.txt
  echo "ops $run: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$run.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$run.txt | head -4
done
unset LIBREDNN_BN_CLUSTER
t tests
chmod +x gpu-bnw/h_old gpu-bnw/h_new
gpu-bnw/h_old $OUT/old.bin > $OUT/bits.txt 2>&1; gpu-bnw/h_new $OUT/new.bin >> $OUT/bits.txt 2>&1
py=python3; $py -c "import numpy" 2>/dev/null || py=/opt/torch/.venv/bin/python3
$py gpu-bnw/compare.py $OUT/old.bin $OUT/new.bin >> $OUT/bits.txt 2>&1; echo "bits rc $?"
grep -c identical $OUT/bits.txt; grep -v identical $OUT/bits.txt | head -40; rm -f $OUT/old.bin $OUT/new.bin
t bits
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='BatchNorm.*Packed*:Pooling.PairedMax*:Pooling.ThreeBy*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-3 timeout 150 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -6
t sanitize
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for v in default groups-off; do
  unset LIBREDNN_POOLING_GROUPS; vs="--vs $nv"
  case $v in groups-off) export LIBREDNN_POOLING_GROUPS=0; vs=;; esac
  timeout 60 $b --lib build/src/libcudnn.so.8 $vs --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype half --layout nhwc --json $OUT/pool-half-nhwc-$v.json > $OUT/pool-half-nhwc-$v.txt 2>&1
  echo "pool half nhwc $v rc $?"; grep -a -E "^(fwd|bwd) " $OUT/pool-half-nhwc-$v.txt | head -4
done
unset LIBREDNN_POOLING_GROUPS
for l in "float nchw" "half nchw"; do set -- $l
  timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/bn-$1-$2.json > $OUT/bn-$1-$2.txt 2>&1
  echo "bn $1 $2 rc $?"; grep -a -E "^(fwd|bwd) +l[34]" $OUT/bn-$1-$2.txt
done
t bench
timeout 100 ncu --clock-control none --set full -k regex:'groups|cluster_training' --launch-skip 0 --launch-count 1 $b --lib build/src/libcudnn.so.8 --runs 1 --warmup 1 \
  --problem "op=pool dir=bwd mode=max nan=not_propagate dtype=half dims=256x64x112x112 ydims=256x64x56x56 ystrides=200704x1x3584x64 dydims=256x64x56x56 dystrides=200704x1x3584x64 xstrides=802816x1x7168x64 dxstrides=802816x1x7168x64 window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0" > $OUT/ncu-groups.txt 2>&1
echo "ncu rc $?"; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Issue Slots Busy|Executed Instructions  " $OUT/ncu-groups.txt | head
t ncu
cd $OUT && tar czf logs.tgz build.txt ops-*.txt bits.txt sanitize.txt pool-*.txt bn-*.txt gpu-lane.txt ncu-*.txt && rm -f build.txt ops-*.txt bits.txt sanitize.txt pool-*.txt bn-*.txt gpu-lane.txt ncu-*.txt
