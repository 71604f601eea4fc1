#!/usr/bin/env bash
# Call 3: the walk as one add a unit (and one at a plane's end), loads without branches (units past the block's
# share load the channel's first unit and count for nothing); the forward back to two rounds of plain sums.
# BN tests on CUDA (default and forced 8 blocks), the float NCHW BN layers, ncu on the l4 forward.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 34 8; do
  if [ $seed = 8 ]; then export LIBREDNN_BN_CLUSTER=8; fi
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  echo "ops seed=$seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$seed.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$seed.txt | head -4
done
unset LIBREDNN_BN_CLUSTER
t tests
for v in default 0; do
  if [ $v = default ]; then unset LIBREDNN_BN_CLUSTER; else export LIBREDNN_BN_CLUSTER=$v; fi
  timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $OUT/bn-float-nchw-$v.json > $OUT/bn-float-nchw-$v.txt 2>&1
  echo "bn cluster=$v rc $?"
done
unset LIBREDNN_BN_CLUSTER
python3 - <<'PY'
import json,os
out=os.environ['OUT']
rows={}
for v in ['default','0']:
    d=json.load(open(f'{out}/bn-float-nchw-{v}.json'))
    for r in d['results']:
        k=(r['group'],r['name']); rows.setdefault(k,{})[v]=r['lib'].get('median_ms',0)*1000; rows[k]['nv']=r['vs'].get('median_ms',0)*1000
for k,v in rows.items():
    if k[1].startswith(('l3','l4')): print('%-4s %-12s' % k + ''.join('%9.1f' % v.get(x,0) for x in ['default','0','nv']))
PY
t bench
for l in "fwd train_fwd 256x512x7x7 ystrides"; do set -- $l
  case $3 in 256x512x7x7) s=25088x49x7x1;; *) s=200704x196x14x1;; esac
  extra=""; [ $2 = bwd ] && extra="dxstrides=$s"
  f=""; [ $2 = train_fwd ] && f="factor=0.1"
  timeout 100 ncu --clock-control none --set full -k regex:cluster_training --launch-skip 2 --launch-count 1 $b --lib build/src/libcudnn.so.8 \
    --problem "op=bn mode=spatial phase=$2 dtype=float dims=$3 xstrides=$s $4=$s $extra eps=1e-05 $f alpha=1 beta=0" --runs 1 --warmup 2 > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"; grep -E "^    (Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Executed Instructions  |Issued Warp Per|One or More)" $OUT/ncu-$1.txt | head -12
done
t ncu
cd $OUT && tar czf logs.tgz build.txt ops-*.txt bn-*.txt ncu-*.txt && rm -f build.txt ops-*.txt bn-*.txt ncu-*.txt
