#!/usr/bin/env bash
# Call 1: main (d78feab, 974e1de, aebf509 never ran on a GPU) with the last session's four not-run patches applied
# (one previous-h gather, GRU inputs as arguments, fused step from batch 17, units-fastest cells). The gpu lane and
# the RNN op tests on it; issue 15's set against NVIDIA; the patched tree against main (built beside it) at batch
# 24 (steps) and batch 64 (training forward), A/B in one process.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
mkdir -p /tmp/m && git archive HEAD | tar -x -C /tmp/m
(cd /tmp/m && LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mbuild.txt 2>&1; echo "main build rc $?" >> /tmp/mbuild.txt) &
mb=$!
(cd build && timeout 300 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
for s in 501 502; do
LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
echo "rnn ops $s: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops-$s.txt | head -6 | tee -a $OUT/summary.txt
done
t tests
wait $mb; tail -1 /tmp/mbuild.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv | sed 's/\.b64\./.b24./; s/batch=64/batch=24/') > /tmp/b24.tsv
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
cp /tmp/b24.tsv $OUT/b24.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs /tmp/m/build/src/libcudnn.so.8 --set /tmp/b24.tsv --dir step --runs 10 --markdown $OUT/b24-vs-main.md > /tmp/b24.txt 2>&1; echo "b24 rc $?" | tee -a $OUT/summary.txt
grep -h "^| s" $OUT/b24-vs-main.md | cut -c1-150 | tee -a $OUT/summary.txt
timeout 100 $b --lib build/src/libcudnn.so.8 --vs /tmp/m/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,step --runs 10 --markdown $OUT/b64-vs-main.md > /tmp/b64.txt 2>&1; echo "b64 rc $?" | tee -a $OUT/summary.txt
grep -h "^| [fs]" $OUT/b64-vs-main.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt rnn.txt b24.txt b64.txt ops-501.txt ops-502.txt mbuild.txt 2>/dev/null
