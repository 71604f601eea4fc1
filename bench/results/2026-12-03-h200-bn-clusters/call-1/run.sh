#!/usr/bin/env bash
# Call 1: channel clusters for NCHW batch-norm training and backward (training_cluster.cu). Correctness on
# CUDA (default, LIBREDNN_BN_CLUSTER=0 for the three-pass kernels, =8 forcing empty blocks), sanitizers,
# gpu lane, and the float NCHW BN layers: default, =0 (same-call A/B), forced 2/4/8 blocks a channel.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for v in default 0 8; do
  for seed in 31 32; do
    if [ $v = default ]; then unset LIBREDNN_BN_CLUSTER; else export LIBREDNN_BN_CLUSTER=$v; fi
    LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$v-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$v-$seed.txt
    echo "ops cluster=$v seed=$seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$v-$seed.txt | tr '\n' ' ')"
    grep -E "Failure|FAILED \]" $OUT/ops-$v-$seed.txt | head -4
  done
done
unset LIBREDNN_BN_CLUSTER
t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=100 LIBREDNN_SANITIZE_OPS='BatchNorm.TrainingAndBackwardOnPacked*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-1 timeout 120 scripts/gpu_sanitize.sh memcheck racecheck synccheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -8
t sanitize
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for v in default 0 2 4 8; do
  if [ $v = default ]; then unset LIBREDNN_BN_CLUSTER; else export LIBREDNN_BN_CLUSTER=$v; fi
  timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw-$v.json > $OUT/bn-float-nchw-$v.txt 2>&1
  echo "bn cluster=$v rc $?"
done
unset LIBREDNN_BN_CLUSTER
python3 - <<'PY'
import json,os
out=os.environ['OUT']
rows={}
for v in ['default','0','2','4','8']:
    try: d=json.load(open(f'{out}/bn-float-nchw-{v}.json'))
    except Exception as e: print(v,e); continue
    for r in d['results']:
        k=(r['group'],r['name']); rows.setdefault(k,{})[v]=r['lib'].get('median_ms',0)*1000; rows[k]['nv']=r['vs'].get('median_ms',0)*1000
print('%-4s %-12s' % ('dir','layer') + ''.join('%9s' % v for v in ['default','0','2','4','8','nv']))
for k,v in rows.items():
    print('%-4s %-12s' % k + ''.join('%9.1f' % v.get(x,0) for x in ['default','0','2','4','8','nv']))
PY
t bench
cd $OUT && tar czf logs.tgz build.txt ops-*.txt sanitize.txt bn-*.txt gpu-lane.txt && rm -f build.txt ops-*.txt sanitize.txt bn-*.txt gpu-lane.txt
