#!/usr/bin/env bash
# Call 1: max pooling backward over half NHWC from paired maxima (the argmax pass) and a thread a 2 x 2 group
# of inputs (stride 2); also confirms the batch-norm review (d592522) on the GPU. gpu lane; Pooling* and
# BatchNorm* op tests on CUDA; memcheck over the new pooling test; pooling and BN benches against NVIDIA with
# same-call A/B switches; ncu full sections of the head pooling kernels and the stem backward kernels.
set -u
export PATH=$PATH:/usr/local/cuda/bin
# This call measures main's batch-norm cluster kernel (a helper's edit of it was in the working tree).
cp gpu-bn-head.cu src/cuda/batch_norm/training_cluster.cu
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for run in 41 groups-off; do
  seed=$run; unset LIBREDNN_POOLING_GROUPS
  case $run in groups-off) export LIBREDNN_POOLING_GROUPS=0; seed=42;; esac
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Pooling*:BatchNorm*' > $OUT/ops-$run.txt 2>&1; echo "rc $?" >> $OUT/ops-$run.txt
  echo "ops $run: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$run.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$run.txt | head -4
done
unset LIBREDNN_POOLING_GROUPS
t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=80 LIBREDNN_SANITIZE_OPS='Pooling.PairedMax*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-1 timeout 100 scripts/gpu_sanitize.sh memcheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -4
t sanitize
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for v in default pairs-off groups-off; do
  unset LIBREDNN_POOLING_PAIRS LIBREDNN_POOLING_GROUPS; vs="--vs $nv"
  case $v in pairs-off) export LIBREDNN_POOLING_PAIRS=0; vs=;; groups-off) export LIBREDNN_POOLING_GROUPS=0; vs=;; esac
  timeout 60 $b --lib build/src/libcudnn.so.8 $vs --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype half --layout nhwc --json $OUT/pool-half-nhwc-$v.json > $OUT/pool-half-nhwc-$v.txt 2>&1
  echo "pool half nhwc $v rc $?"; grep -a -E "^(fwd|bwd) " $OUT/pool-half-nhwc-$v.txt | head -4
done
unset LIBREDNN_POOLING_PAIRS LIBREDNN_POOLING_GROUPS
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/pool-float-nchw.json > $OUT/pool-float-nchw.txt 2>&1
echo "pool float nchw rc $?"; grep -a -E "^(fwd|bwd) " $OUT/pool-float-nchw.txt | head -4
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir inference,fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw.json > $OUT/bn-float-nchw.txt 2>&1
echo "bn float nchw rc $?"
python3 - <<'PY'
import json,os
out=os.environ['OUT']
for f in ['pool-half-nhwc-default','pool-half-nhwc-pairs-off','pool-half-nhwc-groups-off','pool-float-nchw','bn-float-nchw']:
    d=json.load(open(f'{out}/{f}.json'))
    for r in d['results']:
        vs=r.get('vs') or {}
        print('%-26s %-9s %-10s %9.1f %9.1f %s' % (f, r['group'], r['name'], r['lib'].get('median_ms',0)*1000, vs.get('median_ms',0)*1000, r.get('ratio','')))
PY
t bench
P="--runs 1 --warmup 1"
ncu_full() { timeout 100 ncu --clock-control none --set full -k regex:"$2" --launch-skip $3 --launch-count $4 $b --lib build/src/libcudnn.so.8 --problem "$5" $P > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Executed Ipc A|Issue Slots Busy" $OUT/ncu-$1.txt | head -20; }
ncu_full stem-bwd-half 'argmax_pairs|groups' 2 2 "op=pool dir=bwd mode=max nan=not_propagate dtype=half dims=256x64x112x112 ydims=256x64x56x56 ystrides=200704x1x3584x64 dydims=256x64x56x56 dystrides=200704x1x3584x64 xstrides=802816x1x7168x64 dxstrides=802816x1x7168x64 window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0"
ncu_full stem-bwd-float 'strips' 1 1 "op=pool dir=bwd mode=max nan=not_propagate dtype=float dims=256x64x112x112 ydims=256x64x56x56 ystrides=200704x3136x56x1 dydims=256x64x56x56 dystrides=200704x3136x56x1 xstrides=802816x12544x112x1 dxstrides=802816x12544x112x1 window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0"
ncu_full head-fwd-half 'global' 1 1 "op=pool dir=fwd mode=avg_incl nan=not_propagate dtype=half dims=256x2048x7x7 xstrides=100352x1x14336x2048 ydims=256x2048x1x1 ystrides=2048x1x1x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-bwd-half 'global' 1 1 "op=pool dir=bwd mode=avg_incl nan=not_propagate dtype=half dims=256x2048x7x7 ydims=256x2048x1x1 ystrides=2048x1x1x1 dydims=256x2048x1x1 dystrides=2048x1x1x1 xstrides=100352x1x14336x2048 dxstrides=100352x1x14336x2048 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-fwd-float 'global' 1 1 "op=pool dir=fwd mode=avg_incl nan=not_propagate dtype=float dims=256x2048x7x7 xstrides=100352x49x7x1 ydims=256x2048x1x1 ystrides=2048x1x1x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
ncu_full head-bwd-float 'global' 1 1 "op=pool dir=bwd mode=avg_incl nan=not_propagate dtype=float dims=256x2048x7x7 ydims=256x2048x1x1 ystrides=2048x1x1x1 dydims=256x2048x1x1 dystrides=2048x1x1x1 xstrides=100352x49x7x1 dxstrides=100352x49x7x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0"
t ncu
cd $OUT && tar czf logs.tgz build.txt ops-*.txt sanitize.txt pool-*.txt bn-*.txt gpu-lane.txt ncu-*.txt && rm -f build.txt ops-*.txt sanitize.txt pool-*.txt bn-*.txt gpu-lane.txt ncu-*.txt
