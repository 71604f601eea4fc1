#!/usr/bin/env bash
# Call 1 (session 7): main (0f2bae6: the GEMM tests' TF32 bound and integer data, the RNN backward bound, the RNN
# steps' dispatch log and b1be91e never ran on a GPU) — the gpu lane, Rnn* under two seeds, one logged training step
# at three batch sizes — and the last session's two not-run patches, each built beside main from `git archive HEAD`:
# pa (the fused TF32 step's h in four 64-k buffers) and pb (the wgmma GEMM's k-contiguous operands through cp.async),
# each A/B against main's lib in the same process, their tests, and Nsight Compute on the kernels each changes.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
R=bench/results/2026-12-03-h200-rnn-wgmma
for v in pa pb; do
  mkdir -p /tmp/$v && git archive HEAD | tar -x -C /tmp/$v
  p=$R/not-run-fused-step-four-h-buffers.patch; [ $v = pb ] && p=$R/not-run-wgmma-async-k-operands.patch
  (cd /tmp/$v && git apply $OLDPWD/$p && LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/$v-build.txt 2>&1; echo "$v build rc $?" >> /tmp/$v-build.txt) &
done
(cd build && timeout 280 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
for s in 701 702; do
LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
echo "rnn ops $s: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops-$s.txt | head -6 | tee -a $OUT/summary.txt
done
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for n in lstm.h1024.b64.float gru.h512.b64.half lstm.h512.b1.float; do
  LIBREDNN_LOG_DISPATCH=1 CUDNN_LOGDEST_DBG=stderr timeout 30 $b --lib build/src/libcudnn.so.8 --problem "$(grep "^$n	" bench/sets/rnn.tsv | cut -f3)" --dir step --runs 1 > /tmp/log-$n.txt 2>&1
  echo "log $n: $(grep -ci 'steps' /tmp/log-$n.txt) lines"; grep -iE "pseudo|step" /tmp/log-$n.txt | sort | uniq -c | head -8 | cut -c1-400
done | tee -a $OUT/summary.txt
t tests
wait; tail -qn1 /tmp/pa-build.txt /tmp/pb-build.txt | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
LIBREDNN_TEST_SEED=703 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 /tmp/pa/build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-pa.txt 2>&1; echo "rc $?" >> /tmp/ops-pa.txt
echo "pa rnn ops 703: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-pa.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
timeout 100 /tmp/pb/build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32*:RnnProducts*:RnnSplit*' > /tmp/gpu-pb.txt 2>&1; echo "rc $?" >> /tmp/gpu-pb.txt
echo "pb gemm tests: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/gpu-pb.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
t patch-tests
for v in pa pb; do
  d=inference,fwd; [ $v = pb ] && d=fwd,bwd_data
  timeout 100 $b --lib /tmp/$v/build/src/libcudnn.so.8 --vs build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir $d --runs 10 --markdown $OUT/$v-vs-main.md > /tmp/$v-bench.txt 2>&1; echo "$v bench rc $?" | tee -a $OUT/summary.txt
  grep -h "^| [a-z]" $OUT/$v-vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
done
t bench
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
for v in main pa; do l=build/src/libcudnn.so.8; [ $v = pa ] && l=/tmp/pa/build/src/libcudnn.so.8
  LIBREDNN_RNN_PERSISTENT=0 timeout 60 ncu --clock-control none --kernel-name regex:fused_step_tf32 --metrics gpu__time_duration.sum,lts__t_bytes.sum.per_second,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio --launch-skip 10 --launch-count 2 $b --lib $l --problem "$p" --dir inference --runs 1 > /tmp/ncu-$v.txt 2>&1
  echo "ncu fused step $v:"; grep -E "duration|lts__t|stalled" /tmp/ncu-$v.txt | sed 's/  */ /g'
done | tee -a $OUT/summary.txt
for v in main pb; do l=build/src/libcudnn.so.8; [ $v = pb ] && l=/tmp/pb/build/src/libcudnn.so.8
  timeout 60 ncu --clock-control none --kernel-name regex:gemm_tf32_wgmma --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --launch-count 4 $b --lib $l --problem "$p" --dir bwd_data --runs 1 > /tmp/ncu-g$v.txt 2>&1
  echo "ncu gemm $v:"; grep -E "gemm_tf32|duration|throughput" /tmp/ncu-g$v.txt | grep -v PROF | sed 's/(Tf32Args.*//; s/  */ /g'
done | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ops-701.txt ops-702.txt ops-pa.txt gpu-pb.txt pa-bench.txt pb-bench.txt pa-build.txt pb-build.txt ncu-main.txt ncu-pa.txt ncu-gmain.txt ncu-gpb.txt $(cd /tmp && ls log-*.txt) 2>/dev/null
