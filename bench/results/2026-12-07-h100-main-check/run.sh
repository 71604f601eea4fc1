#!/usr/bin/env bash
# 2026-12-07: main as landed (the batch-norm patch, the pooling strips without the global part, float weights in
# place), the last of the session's device time: build, BatchNorm* and Pooling* on CUDA, then ResNet-50's pooling
# against NVIDIA (float NCHW, half NHWC). One archive back. Timeout 115 (the session had 241 s of device time left): the pooling rows only while time is left.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS; mkdir -p /tmp/o; S=/tmp/o/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
trap 'tar czf $OUT/all.tgz -C /tmp o; cp $S $OUT/summary.txt' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a $S; git log --oneline -1 | tee -a $S
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/o/build.txt 2>&1 || { tail -20 /tmp/o/build.txt | tee -a $S; exit 1; }
t build
LIBREDNN_OP_TEST_BACKEND=cuda timeout 40 build/tests/librednn_op_tests --gtest_filter='BatchNorm*:Pooling*' --gtest_brief=1 > /tmp/o/ops.txt 2>&1
echo "BatchNorm*:Pooling* on CUDA rc $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/o/ops.txt | tr '\n' ' ')" | tee -a $S
t ops
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for config in "float nchw" "half nhwc"; do
  [ $((SECONDS-start)) -gt 100 ] && break
  set -- $config
  timeout 30 build/tools/bench/librednn-bench --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dtype $1 --layout $2 --dir fwd,bwd --runs 20 --json /tmp/o/pool-$1-$2.json > /tmp/o/pool-$1-$2.txt 2>&1
  echo "pool $1 $2 rc $?" | tee -a $S; grep -A5 "^dir " /tmp/o/pool-$1-$2.txt | awk '{print $1,$2,$4,$7,$10}' | tee -a $S
done
t done
