#!/usr/bin/env bash
# Call 6: units of four 16-bit values where planes are a multiple of four (14 x 14 half: a warp a plane of 49
# units). gpu lane; BN op tests on CUDA (seed 38; forced 8 blocks); half NCHW BN layers, default against
# LIBREDNN_BN_CLUSTER=0, and float NCHW against NVIDIA (and with 4 blocks a channel forced).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 240 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for run in 38 8; do
  seed=$run; unset LIBREDNN_BN_CLUSTER
  case $run in 8) export LIBREDNN_BN_CLUSTER=$run; seed=39;; esac
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$run.txt 2>&1; echo "rc $?" >> $OUT/ops-$run.txt
  echo "ops $run: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$run.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$run.txt | head -4
done
unset LIBREDNN_BN_CLUSTER
t tests
wait $lane; grep -E "tests passed|rc " $OUT/gpu-lane.txt; grep -E "\*\*\*|Failed" $OUT/gpu-lane.txt | head
t lane
for v in default 0; do
  if [ $v = default ]; then unset LIBREDNN_BN_CLUSTER; else export LIBREDNN_BN_CLUSTER=$v; fi
  timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype half --layout nchw --json $OUT/bn-half-nchw-$v.json > $OUT/bn-half-nchw-$v.txt 2>&1
  echo "bn half nchw cluster=$v rc $?"
done
unset LIBREDNN_BN_CLUSTER
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw.json > $OUT/bn-float-nchw.txt 2>&1
echo "bn float nchw rc $?"
LIBREDNN_BN_CLUSTER=4 timeout 100 $b --lib build/src/libcudnn.so.8 --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw-4.json > $OUT/bn-float-nchw-4.txt 2>&1
echo "bn float nchw cluster=4 rc $?"
python3 - <<'PY'
import json,os
out=os.environ['OUT']
rows={}
for v in ['default','0']:
    d=json.load(open(f'{out}/bn-half-nchw-{v}.json'))
    for r in d['results']:
        k=(r['group'],r['name']); rows.setdefault(k,{})[v]=r['lib'].get('median_ms',0)*1000; rows[k]['nv']=r['vs'].get('median_ms',0)*1000
for k,v in rows.items():
    print('half %-4s %-12s' % k + ''.join('%9.1f' % v.get(x,0) for x in ['default','0','nv']) + '  %.2f' % (v['default']/v['nv']))
d=json.load(open(f'{out}/bn-float-nchw.json'))
for r in d['results']:
    if r['name'].startswith(('l3','l4')): print('float', r['group'], r['name'], round(r['lib'].get('median_ms',0)*1000,1), round(r['vs'].get('median_ms',0)*1000,1), r.get('ratio'))
d=json.load(open(f'{out}/bn-float-nchw-4.json'))
for r in d['results']:
    if r['name'].startswith(('l3','l4')): print('float G=4', r['group'], r['name'], round(r['lib'].get('median_ms',0)*1000,1))
PY
t bench
# The SASS of the plane-walk float forward kernel (7 x 7 float), for an instruction count by kind.
lib=$(ls build/src/libcudnn_ops_train.so.8* | head -1)
cuobjdump -sass $lib 2>/dev/null | awk '/Function : .*cluster_training_kernelIfLi1ELb0ELb1E/{p=1; print; next} p&&/Function :/{p=0} p' > $OUT/sass-fwd-planes.txt
echo "sass lines $(wc -l < $OUT/sass-fwd-planes.txt)"
cd $OUT && tar czf logs.tgz build.txt ops-*.txt bn-*.txt gpu-lane.txt sass-*.txt && rm -f build.txt ops-*.txt bn-*.txt gpu-lane.txt sass-*.txt
