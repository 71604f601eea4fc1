#!/usr/bin/env bash
# Call 1 (one device call, OUT=$OUT bash run.sh), at the fused step without a batch threshold (every batch fused).
# Device call 4: build, the RNN op tests on CUDA, the RNN set with the fused forward step vs without it vs NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_TEST_SEED=1 LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t tests
timeout 130 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench-fused
LIBREDNN_RNN_FUSED_STEP=0 timeout 90 $b --lib build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn-unfused.json --markdown $OUT/rnn-unfused.md > $OUT/rnn-unfused-bench.txt 2>&1
t bench-unfused
grep -h "geomean\|^| inference\|^| step" $OUT/rnn.md | head -40

# ---- call 2 (rnn-staged.*, rnn-ops-cuda-staged.txt, sanitize-fused.txt): R staged in shared memory, from batch 32
# Device call 2: the fused step with R staged in shared memory and h loaded one chunk ahead, from batch 32.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
LIBREDNN_TEST_SEED=1 LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t tests
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=90 LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfFusedSteps*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-fused timeout 110 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-fused.txt 2>&1
t sanitize
grep -v "matches no test" $OUT/sanitize-fused.txt | tail -12
grep -h "geomean\|^| inference\|^| step" $OUT/rnn.md | head -40
