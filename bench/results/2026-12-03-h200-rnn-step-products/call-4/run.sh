#!/usr/bin/env bash
# Call 4: main's final tree: the split product at most 16 splits, its own GPU test (each part against a double
# product), the bias parts in the state above batch 64. The gpu lane, the RNN op tests, issue 15's set
# and the batch-64 passes against NVIDIA, and batch 24 (between the persistent kernels and the fused step) with the
# split product on and off.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_TEST_SEED=401 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
echo "rnn ops 401: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops.txt | head -6 | tee -a $OUT/summary.txt
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='RnnSplit*:GemmTf32*:RnnProducts*' > /tmp/gpu-tests.txt 2>&1; echo "rc $?" >> /tmp/gpu-tests.txt
echo "gpu tests: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/gpu-tests.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|part .*in double|written past|not determ" /tmp/gpu-tests.txt | head -6 | tee -a $OUT/summary.txt
t tests
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/passes.md | cut -c1-150 | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv | sed 's/\.b64\./.b24./; s/batch=64/batch=24/') > /tmp/b24.tsv
cp /tmp/b24.tsv $OUT/b24.tsv
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b24.tsv --dir bwd_data,step --runs 10 --markdown $OUT/b24.md > /tmp/b24.txt 2>&1; echo "b24 rc $?" | tee -a $OUT/summary.txt
grep -h "^| [bs]" $OUT/b24.md | cut -c1-150 | tee -a $OUT/summary.txt
LIBREDNN_RNN_SPLIT_STEP=0 timeout 60 $b --lib build/src/libcudnn.so.8 --set /tmp/b24.tsv --dir bwd_data,step --runs 10 --markdown $OUT/b24-off.md > /tmp/b24off.txt 2>&1; echo "b24 off rc $?" | tee -a $OUT/summary.txt
grep -h "^| [bs]" $OUT/b24-off.md | cut -c1-100 | tee -a $OUT/summary.txt
t bench
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt rnn.txt passes.txt b24.txt b24off.txt ops.txt gpu-tests.txt 2>/dev/null
