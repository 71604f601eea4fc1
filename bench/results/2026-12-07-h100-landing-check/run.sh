#!/usr/bin/env bash
# 2026-12-07 (H100 lent). What this session lands, checked together on the GPU: main + not-run-bn-latency.patch +
# not-run-pooling.patch (../2026-12-04-h200-bn-latency/) + not-run-weights-in-place.patch (../2026-12-05-rnn-b1-inference/),
# without the tagged exchange (slower: ../2026-12-07-h100-rnn-check/) and without the forward W x patches (they fail
# a test there). Every RNN, batch-norm and pooling op test on CUDA, batch-1 RNN inference and steps against NVIDIA,
# then issue 14's bar table (tools/bench/issue14_results.sh) while time is left. One archive back. Timeout 520: the TF32-environment RNN run only while the call is young.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
mkdir -p /tmp/o; S=/tmp/o/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
finish() { tar czf $OUT/all.tgz -C /tmp o; cp $S $OUT/summary.txt; }
trap finish EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee -a $S
git log --oneline -1 | tee -a $S
patch -p1 -s < bench/results/2026-12-04-h200-bn-latency/not-run-bn-latency.patch || exit 1
patch -p1 -s < bench/results/2026-12-04-h200-bn-latency/not-run-pooling.patch || exit 1
patch -p1 -s < bench/results/2026-12-05-rnn-b1-inference/not-run-weights-in-place.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/o/build.txt 2>&1 || { tail -30 /tmp/o/build.txt | tee -a $S; exit 1; }
t build
for env in "LIBREDNN_OP_TEST_BACKEND=cuda" "LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1"; do
  tag=${env%%=*}; filter='Rnn*:BatchNorm*:Pooling*'; [ $tag = LIBREDNN_OP_TEST_BACKEND ] || filter='Rnn*'
  [ $((SECONDS-start)) -gt 280 ] && break
  env $env LIBREDNN_OP_TEST_BACKEND=cuda timeout 130 build/tests/librednn_op_tests --gtest_filter="$filter" --gtest_brief=1 > /tmp/o/ops-$tag.txt 2>&1
  echo "$filter on CUDA ($tag) rc $? $(grep -E '^\[  (PASSED|FAILED) |seed [0-9]+ \(' /tmp/o/ops-$tag.txt | sort -u | head -4 | tr '\n' ' ')" | tee -a $S
  t "ops $tag"
done
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b1\." bench/sets/rnn.tsv) > /tmp/b1.tsv
b=build/tools/bench/librednn-bench
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 90 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b1.tsv --dir inference,step --runs 8 --json /tmp/o/b1-vs-nvidia.json --markdown /tmp/o/b1-vs-nvidia.md > /tmp/o/b1-nv.txt 2>&1
echo "b1 vs NVIDIA rc $?" | tee -a $S
python3 tools/bench/issue15_bars.py /tmp/o/b1-vs-nvidia.json > /tmp/o/bars-b1.md 2>&1; grep -E "^\| (inference|step)|Geometric" /tmp/o/bars-b1.md | cut -c1-120 | tee -a $S
t b1
left=$(( 480 - (SECONDS-start) ))
[ $left -gt 60 ] && { RUNS=20 timeout $left tools/bench/issue14_results.sh /tmp/o/issue14 > /tmp/o/issue14.txt 2>&1; echo "issue14 rc $?" | tee -a $S; tail -2 /tmp/o/issue14/bars.md | tee -a $S; }
t done
