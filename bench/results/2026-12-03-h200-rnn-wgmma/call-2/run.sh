#!/usr/bin/env bash
# Call 2: gemm_tf32 on wgmma (sm_90a) for the RNN's products over all steps. Its tests (both kernels, every
# orientation), the RNN tests, issue 15's set against NVIDIA, and the batch-64 passes with wgmma on and off.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
cuobjdump -sass build/src/CMakeFiles/librednn_core_sm90a_objects.dir/cuda/common/gemm_tf32_wgmma.cu.o 2>/dev/null | grep -c -E "HGMMA" | sed 's/^/HGMMA lines: /' | tee -a $OUT/summary.txt
timeout 120 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32*:RnnProducts*:RnnSplit*' > /tmp/gpu-tests.txt 2>&1; echo "rc $?" >> /tmp/gpu-tests.txt
echo "gpu tests: $(grep -E 'PASSED|FAILED  \]|^rc |SKIPPED \]' /tmp/gpu-tests.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|C\(|wgmma m|not determ|Which is|Expected" /tmp/gpu-tests.txt | head -12 | tee -a $OUT/summary.txt
LIBREDNN_TEST_SEED=601 LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
echo "rnn ops 601: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops.txt | head -6 | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/passes.md | cut -c1-150 | tee -a $OUT/summary.txt
LIBREDNN_GEMM_TF32_WGMMA=0 timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes-mma-sync.md > /tmp/passes0.txt 2>&1; echo "passes mma.sync rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/passes-mma-sync.md | cut -c1-100 | tee -a $OUT/summary.txt
t passes
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
tar czf $OUT/logs.tgz -C /tmp gpu-tests.txt ops.txt passes.txt passes0.txt rnn.txt 2>/dev/null
