#!/usr/bin/env bash
# Call 3: grids in whole waves of the blocks an SM holds (ResidentBlocks), NCHW constants interleaved over four
# waves where staging all is cheap, no prefetch in the plane statistics, warp merges up to 64 parts. BN tests, bench, ncu.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 24; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 90 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/ops-$seed.txt | head -8
done
t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='BatchNorm.*Packed*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-1 timeout 100 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -6
t sanitize
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for l in "float nchw" "half nhwc"; do set -- $l
  timeout 90 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir inference,fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/bn-$1-$2.json > $OUT/bn-$1-$2.txt 2>&1
  echo "bn $1 $2 rc $?"
done
for l in "half nhwc" "float nchw"; do set -- $l
  timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $1 --layout $2 --json $OUT/pool-$1-$2.json > $OUT/pool-$1-$2.txt 2>&1
  echo "pool $1 $2 rc $?"; grep -a -E "^(fwd|bwd) " $OUT/pool-$1-$2.txt | head -4
done
t bench
for l in "float nchw"; do set -- $l
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv $b --lib build/src/libcudnn.so.8 --set bench/sets/resnet50-bn.tsv --n 256 --dir inference,fwd,bwd --runs 1 --warmup 1 --dtype $1 --layout $2 > $OUT/ncu-bn-$1-$2.csv 2> $OUT/ncu-bn-$1-$2.err
  echo "ncu $1 $2 rc $? lines $(wc -l < $OUT/ncu-bn-$1-$2.csv)"
done
t ncu
# Where the small layers' time goes: ncu's full sections on l4.bn512 half NHWC training forward (one run).
timeout 120 ncu --clock-control none --set full -k regex:'stats|merge|apply' --launch-skip 3 --launch-count 3 $b --lib build/src/libcudnn.so.8 \
  --problem "op=bn mode=spatial phase=train_fwd dtype=half dims=256x512x7x7 xstrides=25088x1x3584x512 ystrides=25088x1x3584x512 eps=1e-05 factor=0.1 alpha=1 beta=0" \
  --runs 1 --warmup 1 > $OUT/ncu-full-l4-half.txt 2>&1
echo "ncu full rc $?"; grep -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Block Limit Reg|Waves Per SM" $OUT/ncu-full-l4-half.txt | head -30
cd $OUT && tar czf logs.tgz build.txt ops-*.txt sanitize.txt bn-*.txt pool-*.txt gpu-lane.txt ncu-bn-*.err ncu-full-l4-half.txt && rm -f build.txt ops-*.txt sanitize.txt bn-*.txt pool-*.txt gpu-lane.txt ncu-bn-*.err ncu-full-l4-half.txt
