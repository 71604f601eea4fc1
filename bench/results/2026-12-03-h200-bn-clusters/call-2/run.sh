#!/usr/bin/env bash
# Call 2: one cluster round in the forward (each thread's count, mean and M2 merged by Chan's update), the
# parameters requested with the data; the fault test on a shape beyond a cluster. BN tests on CUDA,
# FaultsCuda, the float NCHW BN layers (default and LIBREDNN_BN_CLUSTER=0), ncu full on the cluster kernel.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(cd build && timeout 120 ctest -R FaultsCuda --output-on-failure > $OUT/faults.txt 2>&1; echo "rc $?" >> $OUT/faults.txt) 
grep -E "tests passed|rc |FAILED" $OUT/faults.txt | head -5
for seed in 33; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='BatchNorm*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  echo "ops seed=$seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$seed.txt | tr '\n' ' ')"
  grep -E "Failure|FAILED \]" $OUT/ops-$seed.txt | head -4
done
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
for l in "fwd train_fwd 256x512x7x7 ystrides" "bwd bwd 256x512x7x7 dystrides" "fwd3 train_fwd 256x1024x14x14 ystrides"; do set -- $l
  case $3 in 256x512x7x7) s=25088x49x7x1;; *) s=200704x196x14x1;; esac
  extra=""; [ $2 = bwd ] && extra="dxstrides=$s"
  f=""; [ $2 = train_fwd ] && f="factor=0.1"
  timeout 100 ncu --clock-control none --set full -k regex:cluster_training --launch-skip 2 --launch-count 1 $b --lib build/src/libcudnn.so.8 \
    --problem "op=bn mode=spatial phase=$2 dtype=float dims=$3 xstrides=$s $4=$s $extra eps=1e-05 $f alpha=1 beta=0" --runs 1 --warmup 2 > $OUT/ncu-$1.txt 2>&1
  echo "ncu $1 rc $?"; grep -E "^    (Duration|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Waves Per SM|Memory Throughput|Block Limit)" $OUT/ncu-$1.txt | head -12
done
t ncu
cd $OUT && tar czf logs.tgz build.txt ops-*.txt faults.txt bn-*.txt ncu-*.txt && rm -f build.txt ops-*.txt faults.txt bn-*.txt ncu-*.txt
