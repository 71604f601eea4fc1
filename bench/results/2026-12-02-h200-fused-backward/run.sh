#!/usr/bin/env bash
# Call 1 (2026-12-02, seventh session): the tree of 338fd68 on the GPU for the first time — the GPU lane, the RNN
# op tests on CUDA with the fused backward step off and on (LIBREDNN_RNN_FUSED_BACKWARD=1), the sanitizer over the
# fused-step backward test with it on, cudnn-doctor --self-test on our build and on NVIDIA's cuDNN, and the RNN
# set against NVIDIA with the fused backward off (inference, step) and on (step, LSTM batch 64: where it applies).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nvdir=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib; nv=$nvdir/libcudnn.so.9
(cd build && timeout 150 ctest -L gpu -j4 --output-on-failure > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt) &
lane=$!
LIBREDNN_TEST_SEED=10 LIBREDNN_OP_TEST_BACKEND=cuda timeout 90 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-off.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-off.txt
LIBREDNN_RNN_FUSED_BACKWARD=1 LIBREDNN_TEST_SEED=10 LIBREDNN_OP_TEST_BACKEND=cuda timeout 90 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-on.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-on.txt
for f in off on; do echo "== $f"; grep -E "FAILED|PASSED|rc |Failure" $OUT/rnn-ops-$f.txt | head -8; done
t op-tests
wait $lane; tail -4 $OUT/gpu-lane.txt; grep -E "Failed|\*\*\*" $OUT/gpu-lane.txt | head
t lane
LIBREDNN_RNN_FUSED_BACKWARD=1 LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=90 LIBREDNN_SANITIZE_OPS='RnnBackward.FloatAndHalfMatchDoubleOnFusedSteps' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-bwd timeout 110 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-bwd.txt 2>&1
echo "sanitize rc $?"; grep -v "matches no test" $OUT/sanitize-bwd.txt | tail -6
t sanitize
timeout 40 build/tools/doctor/cudnn-doctor --lib build/src --self-test > $OUT/doctor-ours.txt 2>&1; echo "rc $?" >> $OUT/doctor-ours.txt
timeout 40 build/tools/doctor/cudnn-doctor --lib $nvdir --self-test > $OUT/doctor-nvidia.txt 2>&1; echo "rc $?" >> $OUT/doctor-nvidia.txt
grep -iE "selftest|rc " $OUT/doctor-ours.txt | head -40; echo ==; grep -iE "selftest|rc " $OUT/doctor-nvidia.txt | head -40
t doctor
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
(head -8 bench/sets/rnn.tsv | grep -v "^lstm"; grep -E "^lstm\.h(512|1024)\.b64" bench/sets/rnn.tsv) > /tmp/rnn-b64.tsv
LIBREDNN_RNN_FUSED_BACKWARD=1 timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/rnn-b64.tsv --dir step --runs 5 --json $OUT/rnn-fused-bwd.json --markdown $OUT/rnn-fused-bwd.md > $OUT/rnn-fused-bwd-bench.txt 2>&1
t bench-fused-bwd
grep -h "^| [is]" $OUT/rnn.md | head -34
grep -h "^| [is]" $OUT/rnn-fused-bwd.md | head -8
cd $OUT && tar czf logs.tgz build.txt rnn-ops-*.txt sanitize-bwd.txt rnn-bench.txt rnn-fused-bwd-bench.txt doctor-*.txt && rm -f build.txt rnn-ops-*.txt sanitize-bwd.txt rnn-bench.txt rnn-fused-bwd-bench.txt
