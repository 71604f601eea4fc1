#!/usr/bin/env bash
# Call 2: the 2 x 2 groups' window positions as constants (3 x 3 windows, the padding's parity a template
# argument); head pooling: NHWC forward four threads an output vector, NHWC backward a thread a run of 7
# positions, NCHW backward one dy load a plane. gpu lane; Pooling* op tests on CUDA; memcheck over the global
# and paired tests; pooling bench against NVIDIA (groups on and off); ncu of the changed kernels.
set -u
export PATH=$PATH:/usr/local/cuda/bin
cp gpu-bn-head.cu src/cuda/batch_norm/training_cluster.cu  # main's batch-norm kernel (a helper's edit is in the tree)
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 43 44; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Pooling*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  echo "ops $seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$seed.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$seed.txt | head -4
done
t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='Pooling.PairedMax*:Pooling.Global*:Pooling.ThreeBy*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-2 timeout 100 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -4
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
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/pool-float-nchw.json > $OUT/pool-float-nchw.txt 2>&1
echo "pool float nchw rc $?"; grep -a -E "^(fwd|bwd) " $OUT/pool-float-nchw.txt | head -4
t bench
P="--runs 1 --warmup 1"
ncu_full() { timeout 100 ncu --clock-control none --set full -k regex:"$2" --launch-skip $3 --launch-count $4 $b --lib build/src/libcudnn.so.8 --problem "$5" $P > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Executed Ipc A|Issue Slots Busy|Executed Instructions  " $OUT/ncu-$1.txt | head -20; }
ncu_full stem-bwd-half 'argmax_pairs|groups' 2 2 "op=pool dir=bwd mode=max nan=not_propagate dtype=half dims=256x64x112x112 ydims=256x64x56x56 ystrides=200704x1x3584x64 dydims=256x64x56x56 dystrides=200704x1x3584x64 xstrides=802816x1x7168x64 dxstrides=802816x1x7168x64 window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0"
ncu_full head-fwd-half 'global' 1 1 "op=pool dir=fwd mode=avg_incl nan=not_propagate dtype=half dims=256x2048x7x7 xstrides=100352x1x14336x2048 ydims=256x2048x1x1 ystrides=2048x1x1x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-bwd-half 'global' 1 1 "op=pool dir=bwd mode=avg_incl nan=not_propagate dtype=half dims=256x2048x7x7 ydims=256x2048x1x1 ystrides=2048x1x1x1 dydims=256x2048x1x1 dystrides=2048x1x1x1 xstrides=100352x1x14336x2048 dxstrides=100352x1x14336x2048 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-bwd-float 'global' 1 1 "op=pool dir=bwd mode=avg_incl nan=not_propagate dtype=float dims=256x2048x7x7 ydims=256x2048x1x1 ystrides=2048x1x1x1 dydims=256x2048x1x1 dystrides=2048x1x1x1 xstrides=100352x49x7x1 dxstrides=100352x49x7x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-fwd-float 'global' 1 1 "op=pool dir=fwd mode=avg_incl nan=not_propagate dtype=float dims=256x2048x7x7 xstrides=100352x49x7x1 ydims=256x2048x1x1 ystrides=2048x1x1x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
t ncu
cd $OUT && tar czf logs.tgz build.txt ops-*.txt sanitize.txt pool-*.txt gpu-lane.txt ncu-*.txt && rm -f build.txt ops-*.txt sanitize.txt pool-*.txt gpu-lane.txt ncu-*.txt
