#!/usr/bin/env bash
# Call 4: the wgmma kernel with 128 x 256 tiles (one block an SM) and transposing m- (n-) contiguous operands in
# registers (4 x 4 blocks, 16-byte stores). Tests, the RNN tests, the batch-64 passes with wgmma on and off, the
# GEMM kernels under Nsight Compute (with L2 throughput), issue 15's set, the gpu lane.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
timeout 120 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32*:RnnProducts*:RnnSplit*' > /tmp/gpu-tests.txt 2>&1; echo "rc $?" >> /tmp/gpu-tests.txt
echo "gpu tests: $(grep -E 'PASSED|FAILED  \]|^rc |SKIPPED \]' /tmp/gpu-tests.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|C\(|wgmma m|not determ|Which is|Expected" /tmp/gpu-tests.txt | head -12 | tee -a $OUT/summary.txt
LIBREDNN_TEST_SEED=603 LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
echo "rnn ops 603: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops.txt | head -6 | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/passes.md | cut -c1-150 | tee -a $OUT/summary.txt
LIBREDNN_GEMM_TF32_WGMMA=0 timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes-mma-sync.md > /tmp/passes0.txt 2>&1; echo "passes mma.sync rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/passes-mma-sync.md | cut -c1-100 | tee -a $OUT/summary.txt
t passes
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
for w in 1; do
LIBREDNN_GEMM_TF32_WGMMA=$w timeout 120 ncu --clock-control none --kernel-name regex:gemm_tf32 --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio --launch-count 8 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --runs 1 > /tmp/ncu-$w.txt 2>&1
echo "ncu wgmma=$w:" | tee -a $OUT/summary.txt
grep -E "gemm_tf32|duration|throughput|wavefronts|barrier" /tmp/ncu-$w.txt | sed 's/(GemmOperands.*//; s/  */ /g' | head -40 | tee -a $OUT/summary.txt
done
t ncu
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
grep -q "PASSED  \] 8 tests" /tmp/gpu-tests.txt && (cd build && timeout 300 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
tar czf $OUT/logs.tgz -C /tmp gpu-tests.txt ops.txt passes.txt passes0.txt rnn.txt ncu-1.txt ncu-0.txt gpu-lane.txt 2>/dev/null
