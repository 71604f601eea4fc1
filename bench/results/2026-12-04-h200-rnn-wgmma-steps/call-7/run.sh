#!/usr/bin/env bash
# Call 7 (session 10): the two wgmma kernels' shared product (src/cuda/common/wgmma_rows.cuh) and step buffers, a
# refactor that should change no bit: --check against NVIDIA on the batch-64 inference and backward-data rows, and
# the tests that reach both kernels.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir inference,bwd_data --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^(inference|bwd_data)" /tmp/check.txt | cut -c1-200 | tee -a $OUT/summary.txt
t check
LIBREDNN_TEST_SEED=1901 LIBREDNN_OP_TEST_BACKEND=cuda timeout 90 build/tests/librednn_op_tests --gtest_filter='Rnn.ForwardOfFused*:RnnBackward.FloatAndHalfMatchDoubleOnSplitSteps' > /tmp/ops.txt 2>&1; echo "ops rc $?" | tee -a $OUT/summary.txt
grep -E "^\[ +(OK|FAILED|PASSED) |Failure" /tmp/ops.txt | head -12 | tee -a $OUT/summary.txt
t done
timeout 40 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir inference,bwd_data --runs 10 > $OUT/times.txt 2>&1; echo "times rc $?" | tee -a $OUT/summary.txt
grep -E "^(inference|bwd_data)" $OUT/times.txt | cut -c1-100 | tee -a $OUT/summary.txt
t times
