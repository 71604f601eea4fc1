#!/usr/bin/env bash
# Call 3: the persistent fused TF32 forward step with its products unrolled over whole chunks and two sums a tile
# (twice the mma chains in flight), and the cells' b_R and the LSTM's c loaded before the products (the tree of
# this call). Rnn* op tests (persistent, and one step a launch); A/B against main (0f2bae6, built beside it) at
# batch 64 and 24; Nsight Compute's stall reasons on one persistent launch in both.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/m && git archive HEAD | tar -x -C /tmp/m
(cd /tmp/m && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mbuild.txt 2>&1; echo "main build rc $?" >> /tmp/mbuild.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
LIBREDNN_TEST_SEED=801 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-801.txt 2>&1; echo "rc $?" >> /tmp/ops-801.txt
LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_TEST_SEED=802 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-802.txt 2>&1; echo "rc $?" >> /tmp/ops-802.txt
for s in 801 802; do echo "rnn ops $s: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops-$s.txt | head -6; done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/mbuild.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; m=/tmp/m/build/src/libcudnn.so.8
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv | sed 's/\.b64\./.b24./; s/batch=64/batch=24/') > /tmp/b24.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $m --set /tmp/b64.tsv --dir inference,fwd --runs 10 --markdown $OUT/b64-vs-main.md > /tmp/b64.txt 2>&1; echo "b64 rc $?" | tee -a $OUT/summary.txt
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $m --set /tmp/b24.tsv --dir inference --runs 10 --markdown $OUT/b24-vs-main.md > /tmp/b24.txt 2>&1; echo "b24 rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/b64-vs-main.md $OUT/b24-vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t bench
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
st=""; for r in barrier long_scoreboard short_scoreboard math_pipe_throttle mio_throttle wait not_selected selected dispatch_stall no_instruction lg_throttle membar branch_resolving; do st="$st,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
for v in new main; do l=build/src/libcudnn.so.8; [ $v = main ] && l=$m
  timeout 100 ncu --clock-control none --kernel-name regex:fused_step_tf32 --launch-count 1 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor.sum,lts__t_bytes.sum.per_second,smsp__warps_active.avg.per_cycle_active$st $b --lib $l --problem "$p" --dir inference --runs 1 > /tmp/ncu-$v.txt 2>&1
  echo "ncu persistent $v:"; grep -E "gpu__|smsp__|sm__|lts__" /tmp/ncu-$v.txt | sed 's/  */ /g; s/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//'
done | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ops-801.txt ops-802.txt b64.txt b24.txt ncu-new.txt ncu-main.txt mbuild.txt 2>/dev/null
