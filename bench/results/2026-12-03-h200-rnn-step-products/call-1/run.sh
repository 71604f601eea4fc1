#!/usr/bin/env bash
# Call 1: main (c5d5488) on the GPU: the gpu lane, the RNN op tests with the fixed persistent backward test
# (seeds incl. the one that failed), the RNN set against NVIDIA. Then the two not-run patches of the last session
# (the fused step's prefetch; the previous-h helper) applied: RNN tests and the set again, A/B.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
ops() { # tag seed [env]
  env $3 LIBREDNN_TEST_SEED=$2 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
  echo "rnn ops $1 $2: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED \]|got |Which is|allowed" /tmp/ops.txt | head -8 | tee -a $OUT/summary.txt
}
ops main 14062746687573393089 X=1
ops main 101 X=1
ops main-off 102 LIBREDNN_RNN_PERSISTENT=0
t tests
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
R=bench/results/2026-12-03-h200-bn-sums-rnn-persist
git apply $R/not-run-fused-step-prefetch.patch $R/not-run-previous-h-helper.patch && echo "patches applied" | tee -a $OUT/summary.txt
if cmake --build build -j16 > /tmp/rebuild.txt 2>&1; then
t rebuild
ops patched 103 X=1
ops patched 14062746687573393089 X=1
timeout 200 $b --lib build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown $OUT/rnn-patched.md > /tmp/rnnp.txt 2>&1; echo "rnn patched rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn-patched.md | cut -c1-100 | tee -a $OUT/summary.txt
t bench-patched
else tail -30 /tmp/rebuild.txt | tee -a $OUT/summary.txt; fi
# Where a batch-64 backward-data step spends its time: each kernel's duration over two steps of the LSTM h512 float
# backward data (ncu serialises the launches; the sum against the bench's time per step shows the gaps).
git checkout -q -- src && cmake --build build -j16 > /tmp/rebuild2.txt 2>&1
(grep "^name" bench/sets/rnn.tsv; grep -E "^lstm\.h512\.b64\.float|^gru\.h512\.b64\.float" bench/sets/rnn.tsv) > /tmp/p.tsv
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 400 --launch-count 40 $b --lib build/src/libcudnn.so.8 --set /tmp/p.tsv --dir bwd_data --runs 1 --warmup 0 > $OUT/ncu-steps.txt 2>&1
echo "ncu rc $?" | tee -a $OUT/summary.txt
grep -E "^  [a-zA-Z_]|gpu__time_duration" $OUT/ncu-steps.txt | awk '/gpu__time_duration/{print name, $NF; next} {sub(/^  (void )?/, ""); n=$0; sub(/[<(].*/, "", n); name=n}' | head -40 | tee -a $OUT/summary.txt
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir fwd,bwd_data,bwd_filter --runs 10 --markdown $OUT/rnn-passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fb]" $OUT/rnn-passes.md | grep b64 | cut -c1-150 | tee -a $OUT/summary.txt
t ncu
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt rnn.txt rnnp.txt passes.txt 2>/dev/null
