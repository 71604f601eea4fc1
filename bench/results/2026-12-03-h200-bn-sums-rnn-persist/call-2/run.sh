#!/usr/bin/env bash
# Call 2: the persistent RNN forward kernel (rnn_persistent.cu). RNN op tests on CUDA with it and without it
# (LIBREDNN_RNN_PERSISTENT=0), compute-sanitizer over the new test, the batch-1 set against NVIDIA (standard and
# persistent algorithms), batches 2-16 with the kernel on and off, the gpu lane.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 71 72; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/ops-$seed.txt 2>&1; echo "rc $?" >> $OUT/ops-$seed.txt
  echo "rnn ops $seed: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-$seed.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED \]|got |Which is|allowed" $OUT/ops-$seed.txt | head -8 | tee -a $OUT/summary.txt
done
LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_TEST_SEED=73 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/ops-off.txt 2>&1; echo "rc $?" >> $OUT/ops-off.txt
echo "rnn ops persistent off: $(grep -E 'PASSED|FAILED  \]|^rc ' $OUT/ops-off.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
rm -f $OUT/ops-72.txt $OUT/ops-off.txt
t tests
(grep "^name" bench/sets/rnn.tsv; grep "\.b1\." bench/sets/rnn.tsv) > /tmp/b1s.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b1s.tsv --dir inference,step --runs 10 --json $OUT/rnn-b1.json --markdown /tmp/rnn-b1.md > /tmp/rnn-b1.txt 2>&1; echo "rnn-b1 rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" /tmp/rnn-b1.md | cut -c1-150 | tee -a $OUT/summary.txt
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 10 --json $OUT/rnn-persist.json --markdown /tmp/rnn-persist.md > /tmp/rnn-persist.txt 2>&1; echo "rnn-persist rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" /tmp/rnn-persist.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench-b1
grep "^name" bench/sets/rnn.tsv > /tmp/bs.tsv
for nb in 2 4 8 16; do grep "lstm\.h1024\.b1\.\|gru\.h512\.b1\." bench/sets/rnn.tsv | sed "s/\.b1\./.b$nb./; s/batch=1 /batch=$nb /" >> /tmp/bs.tsv; done
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/bs.tsv --dir inference --runs 10 --markdown /tmp/rnn-bs.md > /tmp/rnn-bs.txt 2>&1; echo "rnn-batches rc $?" | tee -a $OUT/summary.txt
LIBREDNN_RNN_PERSISTENT=0 timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/bs.tsv --dir inference --runs 10 --markdown /tmp/rnn-bs-off.md > /tmp/rnn-bs-off.txt 2>&1; echo "rnn-batches-off rc $?" | tee -a $OUT/summary.txt
grep -h "^| inference" /tmp/rnn-bs.md /tmp/rnn-bs-off.md | cut -c1-150 | tee -a $OUT/summary.txt
cp /tmp/rnn-b1.md /tmp/rnn-persist.md /tmp/rnn-bs.md /tmp/rnn-bs-off.md $OUT/ 2>/dev/null; (cd $OUT && tar czf md.tgz rnn-*.md && rm -f rnn-*.md)
t bench-batches
LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfPersistent*:Rnn.ForwardMatchesReferenceForEachCell*' LIBREDNN_SANITIZE_GPU_STEPS="" LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_STEP_SECONDS=100 LIBREDNN_TEST_SEED=74 timeout 230 scripts/gpu_sanitize.sh memcheck racecheck > $OUT/sanitize.txt 2>&1; echo "rc $?" >> $OUT/sanitize.txt
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc |PASSED|FAILED" $OUT/sanitize.txt | head -10 | tee -a $OUT/summary.txt
t sanitize
(cd build && timeout 150 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt)
grep -E "tests passed|rc " $OUT/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
