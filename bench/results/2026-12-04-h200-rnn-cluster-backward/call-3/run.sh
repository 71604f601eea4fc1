#!/usr/bin/env bash
# Call 3 (session 9): backward data's cluster kernel (rnn_cluster_backward.{hpp,cu}), first run. Rnn* on CUDA (one
# seed with it, one with LIBREDNN_RNN_CLUSTER_STEP=0); which way the steps took (the dispatch log) and the bench's
# --check against NVIDIA on the batch-64 rows' backward data; A/B against main (this tree with gpu-3-main.patch
# reversed) and against NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < gpu-3-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
p=$(grep "^lstm.h1024.b64.float	" bench/sets/rnn.tsv | cut -f3)
CUDNN_LOGINFO_DBG=1 CUDNN_LOGDEST_DBG=stderr timeout 60 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_data --runs 1 --warmup 1 2>&1 | grep -i -E "backward-data steps|cluster|refused" | sort | uniq -c | cut -c1-400 | head -8 | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_data --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^bwd_data|rel|max" /tmp/check.txt | head -12 | cut -c1-200 | tee -a $OUT/summary.txt
t check
for s in 1311 1312; do e=""; [ $s = 1312 ] && e="LIBREDNN_RNN_CLUSTER_STEP=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed|radius" /tmp/ops-$s.txt | head -8 | cut -c1-400
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
timeout 120 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data,step --runs 10 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown $OUT/vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp check.txt ops-1311.txt ops-1312.txt ab.txt nv.txt base-build.txt 2>/dev/null
