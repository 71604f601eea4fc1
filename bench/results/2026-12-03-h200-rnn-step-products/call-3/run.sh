#!/usr/bin/env bash
# Call 3: backward weights' bias gradients as column sums (bias_parts_kernel) instead of gemm_simt; the split
# product's blocks an SM (LIBREDNN_RNN_SPLIT_BLOCKS 1 against the default 2) and its cells' loads in flight.
# RNN op tests on CUDA, racecheck over the split test with room to finish, the batch-64 passes against NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
ops() { # tag seed filter [env]
  env $4 LIBREDNN_TEST_SEED=$2 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter="$3" > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
  echo "ops $1 $2: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED \]|is .*, in double|allowed" /tmp/ops.txt | head -8 | tee -a $OUT/summary.txt
}
ops rnn 301 'Rnn*' X=1
ops rnn-blocks1 302 'Rnn*' LIBREDNN_RNN_SPLIT_BLOCKS=1
t tests
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_data,bwd_filter --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| bwd" $OUT/passes.md | cut -c1-150 | tee -a $OUT/summary.txt
LIBREDNN_RNN_SPLIT_BLOCKS=1 timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data --runs 10 --markdown $OUT/bwd-data-blocks1.md > /tmp/b1.txt 2>&1; echo "blocks1 rc $?" | tee -a $OUT/summary.txt
grep -h "^| bwd" $OUT/bwd-data-blocks1.md | cut -c1-100 | tee -a $OUT/summary.txt
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
LIBREDNN_SANITIZE_OPS='RnnBackward.*Split*' LIBREDNN_SANITIZE_GPU_STEPS="" LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_STEP_SECONDS=200 LIBREDNN_TEST_SEED=306 timeout 200 scripts/gpu_sanitize.sh racecheck > /tmp/sanitize.txt 2>&1; echo "rc $?" >> /tmp/sanitize.txt
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc |PASSED|FAILED" /tmp/sanitize.txt | head -10 | tee -a $OUT/summary.txt
t sanitize
tar czf $OUT/logs.tgz -C /tmp passes.txt b1.txt rnn.txt sanitize.txt 2>/dev/null
