#!/usr/bin/env bash
# Call 5: the record at main's head. gpu lane; BN op tests on CUDA (seeds 35, 36; forced 8 blocks a channel;
# the three-pass kernels with LIBREDNN_BN_CLUSTER=0); memcheck, racecheck, synccheck over the packed BN test;
# float NCHW (default and =0) and half NCHW BN layers against NVIDIA; two planted mistakes in this copy's
# cluster kernel, each run against the packed BN test.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for run in 35 36 8 0; do
  seed=$run; unset LIBREDNN_BN_CLUSTER
  case $run in 8|0) export LIBREDNN_BN_CLUSTER=$run; seed=37;; esac
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$run.txt 2>&1; echo "rc $?" >> $OUT/ops-$run.txt
  echo "ops $run: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$run.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$run.txt | head -4
done
unset LIBREDNN_BN_CLUSTER
t tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=100 LIBREDNN_SANITIZE_OPS='BatchNorm.TrainingAndBackwardOnPacked*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-1 timeout 120 scripts/gpu_sanitize.sh memcheck racecheck synccheck > $OUT/sanitize.txt 2>&1
echo "sanitize rc $?"; grep -E "no errors|rc=|ERROR SUMMARY|hazard" $OUT/sanitize.txt | head -8
t sanitize
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for v in default 0; do
  if [ $v = default ]; then unset LIBREDNN_BN_CLUSTER; else export LIBREDNN_BN_CLUSTER=$v; fi
  timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw-$v.json > $OUT/bn-float-nchw-$v.txt 2>&1
  echo "bn float nchw cluster=$v rc $?"
done
unset LIBREDNN_BN_CLUSTER
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype half --layout nchw --json $OUT/bn-half-nchw.json > $OUT/bn-half-nchw.txt 2>&1
echo "bn half nchw rc $?"
python3 - <<'PY'
import json,os
out=os.environ['OUT']
rows={}
for v in ['default','0']:
    d=json.load(open(f'{out}/bn-float-nchw-{v}.json'))
    for r in d['results']:
        k=(r['group'],r['name']); rows.setdefault(k,{})[v]=r['lib'].get('median_ms',0)*1000; rows[k]['nv']=r['vs'].get('median_ms',0)*1000
for k,v in rows.items():
    print('%-4s %-12s' % k + ''.join('%9.1f' % v.get(x,0) for x in ['default','0','nv']) + '  %.2f' % (v['default']/v['nv']))
d=json.load(open(f'{out}/bn-half-nchw.json'))
for r in d['results']: print('half', r['group'], r['name'], round(r['lib'].get('median_ms',0)*1000,1), round(r['vs'].get('median_ms',0)*1000,1), r.get('ratio'))
PY
t bench
# Planted mistakes (this copy only): the cluster's sums skip its last block; the forward's squares about the
# thread's first value instead of the mean.
f=src/cuda/batch_norm/training_cluster.cu
cp $f /tmp/keep.cu
for m in last-block mean; do
  cp /tmp/keep.cu $f
  case $m in
    last-block) sed -i 's/const double mine = lane < blocks ?/const double mine = lane < blocks - 1 ?/' $f;;
    mean) sed -i 's/const float d = to_compute<float>(xv\[k\].lane\[l\]) - mean;/const float d = to_compute<float>(xv[k].lane[l]) - to_compute<float>(xv[0].lane[0]);/' $f;;
  esac
  cmp -s $f /tmp/keep.cu && echo "mutation $m: sed did not apply"
  (cd build && ninja tests/librednn_op_tests > $OUT/mut-$m-build.txt 2>&1) || { echo "mutation $m: build failed"; tail -5 $OUT/mut-$m-build.txt; }
  LIBREDNN_TEST_SEED=35 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm.TrainingAndBackwardOnPacked*' > $OUT/mut-$m.txt 2>&1
  echo "mutation $m: rc $? failures $(grep -c 'Failure' $OUT/mut-$m.txt)"
done
cp /tmp/keep.cu $f
t mutations
cd $OUT && tar czf logs.tgz build.txt ops-*.txt sanitize.txt bn-*.txt gpu-lane.txt mut-*.txt && rm -f build.txt ops-*.txt sanitize.txt bn-*.txt gpu-lane.txt mut-*.txt
