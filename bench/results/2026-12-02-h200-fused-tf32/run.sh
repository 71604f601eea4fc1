# Call 6 (fp32-staged-by-ldg/): the first TF32 fused step
#!/usr/bin/env bash
# Call 6: the fused forward step on TF32 tensor cores: RNN op tests on CUDA (two seeds), the sanitizer over the
# fused-step test, and the RNN set against NVIDIA with the TF32 fused step (default) and with the FP32 one
# (LIBREDNN_RNN_FUSED_STEP=fp32), each in its own process of the same call.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 6 7; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda-$seed.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/rnn-ops-cuda-$seed.txt | head -8
done; t op-tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=90 LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfFusedSteps*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-fused timeout 110 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-fused.txt 2>&1
t sanitize
grep -v "matches no test" $OUT/sanitize-fused.txt | tail -6
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
LIBREDNN_RNN_FUSED_STEP=fp32 timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn-fp32-step.json --markdown $OUT/rnn-fp32-step.md > $OUT/rnn-fp32-bench.txt 2>&1
t bench-fp32
grep -h "^| [is]" $OUT/rnn.md | head -18
grep -h "^| [is]" $OUT/rnn-fp32-step.md | head -18
cd $OUT && tar czf logs.tgz build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt && rm -f build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt

# ---- call 7 (staged-by-cp-async/)
#!/usr/bin/env bash
# Call 7: R staged by cp.async (both fused kernels), the TF32 fused step: RNN op tests on CUDA (two seeds), the sanitizer over the
# fused-step test, and the RNN set against NVIDIA with the TF32 fused step (default) and with the FP32 one
# (LIBREDNN_RNN_FUSED_STEP=fp32), each in its own process of the same call.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 8; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda-$seed.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/rnn-ops-cuda-$seed.txt | head -8
done; t op-tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=90 LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfFusedSteps*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-fused timeout 110 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-fused.txt 2>&1
t sanitize
grep -v "matches no test" $OUT/sanitize-fused.txt | tail -6
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
LIBREDNN_RNN_FUSED_STEP=fp32 timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn-fp32-step.json --markdown $OUT/rnn-fp32-step.md > $OUT/rnn-fp32-bench.txt 2>&1
t bench-fp32
grep -h "^| [is]" $OUT/rnn.md | head -18
grep -h "^| [is]" $OUT/rnn-fp32-step.md | head -18
cd $OUT && tar czf logs.tgz build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt && rm -f build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt

# ---- call 8 (this directory): h through shared memory
#!/usr/bin/env bash
# Call 8: the TF32 fused step with h streamed through shared memory in 128-k chunks (cp.async, two buffers): RNN op tests on CUDA (two seeds), the sanitizer over the
# fused-step test, and the RNN set against NVIDIA with the TF32 fused step (default) and with the FP32 one
# (LIBREDNN_RNN_FUSED_STEP=fp32), each in its own process of the same call.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
for seed in 9; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda-$seed.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda-$seed.txt
  grep -E "FAILED|PASSED|rc |Failure" $OUT/rnn-ops-cuda-$seed.txt | head -8
done; t op-tests
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=90 LIBREDNN_SANITIZE_OPS='Rnn.ForwardOfFusedSteps*' LIBREDNN_SANITIZE_GPU_STEPS= \
  LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_LOGS=build/sanitize-fused timeout 110 scripts/gpu_sanitize.sh memcheck racecheck initcheck > $OUT/sanitize-fused.txt 2>&1
t sanitize
grep -v "matches no test" $OUT/sanitize-fused.txt | tail -6
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
LIBREDNN_RNN_FUSED_STEP=fp32 timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn-fp32-step.json --markdown $OUT/rnn-fp32-step.md > $OUT/rnn-fp32-bench.txt 2>&1
t bench-fp32
grep -h "^| [is]" $OUT/rnn.md | head -18
grep -h "^| [is]" $OUT/rnn-fp32-step.md | head -18
cd $OUT && tar czf logs.tgz build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt && rm -f build.txt rnn-ops-cuda-*.txt sanitize-fused.txt rnn-bench.txt rnn-fp32-bench.txt

# ---- call 9 (gpu-tests.txt)
#!/usr/bin/env bash
# Call 9: the gpu test binary's product and thread tests on the final tree (async_copy helpers shared).
set -u
export PATH=$PATH:/usr/local/cuda/bin
LIBREDNN_TARGETS=librednn_gpu_tests LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build $SECONDS s"
timeout 40 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnProducts.*:CudaThreads.*:GemmSimt.*' > $OUT/gpu-tests.txt 2>&1; echo "rc $?" >> $OUT/gpu-tests.txt
grep -E "OK \]|FAILED|PASSED|rc " $OUT/gpu-tests.txt | head -20

# ---- call 10 (gpu-lane.txt), on the warm machine of call 9:
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90; (cd build && ctest -L gpu -j4 --output-on-failure)
