#!/usr/bin/env bash
# Call 5: the wgmma kernel back at 128 x 128 tiles, two blocks an SM (call 3's shape), with call 4's loader (a warp's
# loads four whole lines, m- (n-) contiguous operands transposed in registers as 4 x 4 blocks, 16-byte stores).
# The gpu tests (all), the RNN tests (wgmma, and mma.sync with the persistent kernels off), the batch-64 passes with
# wgmma on (against NVIDIA) and off, the GEMM kernels under Nsight Compute, issue 15's set.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
timeout 120 build/tests/gpu/librednn_gpu_tests > /tmp/gpu-tests.txt 2>&1; echo "rc $?" >> /tmp/gpu-tests.txt
echo "gpu tests (all): $(grep -E 'PASSED|FAILED  \]|^rc |SKIPPED \]' /tmp/gpu-tests.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|C\(|wgmma m|not determ|Which is|Expected" /tmp/gpu-tests.txt | head -12 | tee -a $OUT/summary.txt
LIBREDNN_TEST_SEED=604 LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
echo "rnn ops 604: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops.txt | head -6 | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
LIBREDNN_GEMM_TF32_WGMMA=0 timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes-mma-sync.md > /tmp/passes0.txt 2>&1; echo "passes mma.sync rc $?" | tee -a $OUT/summary.txt
paste -d'|' <(grep -h "^| [fb]" $OUT/passes.md | cut -d'|' -f2,3,5,8,11) <(grep -h "^| [fb]" $OUT/passes-mma-sync.md | cut -d'|' -f5) | tee -a $OUT/summary.txt
t passes
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
timeout 100 ncu --clock-control none --kernel-name regex:gemm_tf32 --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,smsp__average_warp_latency_issue_stalled_barrier.ratio --launch-count 6 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --runs 1 > /tmp/ncu-1.txt 2>&1
grep -E "gemm_tf32|duration|throughput|barrier|lts__t_bytes" /tmp/ncu-1.txt | grep -v PROF | sed 's/(GemmOperands.*//; s/(Tf32Args.*//; s/  */ /g' | head -30 | tee -a $OUT/summary.txt
t ncu
timeout 150 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t bench
LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_RNN_SPLIT_STEP=0 LIBREDNN_GEMM_TF32_WGMMA=0 LIBREDNN_TEST_SEED=605 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops0.txt 2>&1; echo "rc $?" >> /tmp/ops0.txt
echo "rnn ops 605 (mma.sync, no persistent/split): $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops0.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gpu-tests.txt ops.txt ops0.txt passes.txt passes0.txt rnn.txt ncu-1.txt 2>/dev/null
