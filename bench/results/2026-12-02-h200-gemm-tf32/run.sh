# Call 1 (OUT=$OUT bash run.sh's first half): main at 29bf2ce
#!/usr/bin/env bash
# Call 1: main's tree (29bf2ce): build, the whole gpu lane, RNN op tests on CUDA (fused-step tests included),
# and the RNN set per pass (fwd training, bwd_data, bwd_filter) at batch 64 against NVIDIA: where a step's time goes.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure) > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt
tail -5 $OUT/gpu-lane.txt; t lane
LIBREDNN_TEST_SEED=2 LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t tests
grep -v "\.b1\." bench/sets/rnn.tsv > /tmp/b64.tsv
timeout 150 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 5 --json $OUT/rnn-passes.json --markdown $OUT/rnn-passes.md > $OUT/rnn-passes.txt 2>&1
t bench
grep -h "^|" $OUT/rnn-passes.md | head -40

# ---- call 2: gemm_tf32 (the tree of this commit, before the test's stride fix)
#!/usr/bin/env bash
# Call 2: gemm_tf32 for the RNN's products: its tests (and under memcheck/racecheck), the RNN op tests on CUDA,
# the per-pass RNN set at batch 64, and the whole RNN set (inference, step) against NVIDIA, with a step's
# products on gemm_tf32 (default) and on the split implicit GEMM (LIBREDNN_RNN_STEP_PRODUCTS=implicit).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnProducts.*:GemmSimt.*' > $OUT/gemm-tests.txt 2>&1; echo "rc $?" >> $OUT/gemm-tests.txt
grep -E "FAILED|PASSED|OK \]|rc |Failure|allowed|C\(" $OUT/gemm-tests.txt | head -30; t gemm-tests
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*' > $OUT/sanitize-$tool.txt 2>&1; echo "rc $?" >> $OUT/sanitize-$tool.txt
  tail -3 $OUT/sanitize-$tool.txt
done; t sanitize
LIBREDNN_TEST_SEED=3 LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t op-tests
grep -v "\.b1\." bench/sets/rnn.tsv > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 5 --json $OUT/rnn-passes.json --markdown $OUT/rnn-passes.md > $OUT/rnn-passes.txt 2>&1
t passes
grep -h "^| [fb]" $OUT/rnn-passes.md | head -30
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
LIBREDNN_RNN_STEP_PRODUCTS=implicit timeout 80 $b --lib build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn-implicit-steps.json --markdown $OUT/rnn-implicit-steps.md > $OUT/rnn-implicit-bench.txt 2>&1
t bench-implicit
grep -h "^| [is]" $OUT/rnn.md | head -40
grep -h "^| [is]" $OUT/rnn-implicit-steps.md | head -40
cd $OUT && tar czf logs.tgz build.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-*bench.txt rnn-passes.txt && rm -f build.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-*bench.txt rnn-passes.txt

# ---- call 3: gemm_tf32 with swizzled tiles and 8-byte fragment reads (results not kept: superseded by call 4)
#!/usr/bin/env bash
# Call 3: gemm_tf32 with swizzled tiles and 8-byte fragment reads: its tests (memcheck, racecheck too), the RNN
# op tests on CUDA, the per-pass RNN set at batch 64 and the whole RNN set against NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnProducts.*' > $OUT/gemm-tests.txt 2>&1; echo "rc $?" >> $OUT/gemm-tests.txt
grep -E "FAILED|PASSED|OK \]|rc |Failure|allowed|C\(" $OUT/gemm-tests.txt | head -30; t gemm-tests
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*' > $OUT/sanitize-$tool.txt 2>&1; echo "rc $?" >> $OUT/sanitize-$tool.txt
  tail -2 $OUT/sanitize-$tool.txt
done; t sanitize
LIBREDNN_TEST_SEED=4 LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t op-tests
grep -v "\.b1\." bench/sets/rnn.tsv > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 5 --json $OUT/rnn-passes.json --markdown $OUT/rnn-passes.md > $OUT/rnn-passes.txt 2>&1
t passes
grep -h "^| [fb]" $OUT/rnn-passes.md | head -30
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
grep -h "^| [is]" $OUT/rnn.md | head -40
cd $OUT && tar czf logs.tgz build.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-*bench.txt rnn-passes.txt && rm -f build.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-*bench.txt rnn-passes.txt

# ---- call 4 (swizzled/): rounding once in shared memory, lean loads; A/B against 9d3bdf2's kernel (ab/gemm_tf32_9d3bdf2.cu, git show 9d3bdf2:src/cuda/common/gemm_tf32.cu)
#!/usr/bin/env bash
# Call 4: gemm_tf32 with swizzled tiles, 8-byte fragment reads, rounding once in shared memory and lean loads,
# against gemm_tf32 as committed in 9d3bdf2 (padded tiles, 4-byte reads, rounding per fragment), both built
# in this call and timed in one librednn-bench run; then the RNN set against NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
old=/tmp/old; rm -rf $old; mkdir -p $old
tar --exclude=./build --exclude=./third_party -cf - . | tar -xf - -C $old
cp ab/gemm_tf32_9d3bdf2.cu $old/src/cuda/common/gemm_tf32.cu
(cd $old && LIBREDNN_TARGETS="$libs" LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build-old.txt 2>&1) || { tail -30 $OUT/build-old.txt; exit 1; }
t build-old
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnProducts.*' > $OUT/gemm-tests.txt 2>&1; echo "rc $?" >> $OUT/gemm-tests.txt
grep -E "FAILED|PASSED|rc |Failure" $OUT/gemm-tests.txt | head -10; t gemm-tests
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*' > $OUT/sanitize-racecheck.txt 2>&1; echo "rc $?" >> $OUT/sanitize-racecheck.txt
tail -2 $OUT/sanitize-racecheck.txt; t sanitize
LIBREDNN_TEST_SEED=5 LIBREDNN_OP_TEST_BACKEND=cuda timeout 80 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $OUT/rnn-ops-cuda.txt 2>&1; echo "rc $?" >> $OUT/rnn-ops-cuda.txt
grep -E "FAILED|PASSED|rc " $OUT/rnn-ops-cuda.txt | head; t op-tests
grep -v "\.b1\." bench/sets/rnn.tsv > /tmp/b64.tsv
# Two LibreDNN builds share sonames, so each runs in its own process, NVIDIA beside it as the yardstick:
# new, old, new again (the drift between the two new runs bounds what the comparison can tell).
for run in new1 old new2; do
  lib=build/src/libcudnn.so.8; [ $run = old ] && lib=$old/build/src/libcudnn.so.8
  timeout 100 $b --lib $lib --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter,step --runs 7 --json $OUT/ab-$run.json --markdown $OUT/ab-$run.md > $OUT/ab-$run.txt 2>&1
  t ab-$run
  grep -h "^| [fbs]" $OUT/ab-$run.md | head -4
done
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 5 --json $OUT/rnn.json --markdown $OUT/rnn.md > $OUT/rnn-bench.txt 2>&1
t bench
grep -h "^| [is]" $OUT/rnn.md | head -3
cd $OUT && tar czf logs.tgz build.txt build-old.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-bench.txt ab-*.txt ab-*.json && rm -f build.txt build-old.txt gemm-tests.txt sanitize-*.txt rnn-ops-cuda.txt rnn-bench.txt ab-*.txt ab-*.json

# ---- call 5 (profile/): the gpu lane on the final tree and Nsight Compute on gemm_tf32
#!/usr/bin/env bash
# Call 5: the whole gpu lane on the final tree, and Nsight Compute on gemm_tf32 in backward weights (LSTM h1024
# b64 float: dW and dR, 4096 x 1024, k 3200) and in the training forward's W x (3200 x 4096, k 1024).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s"; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
t build
(cd build && timeout 200 ctest -L gpu -j4 --output-on-failure) > $OUT/gpu-lane.txt 2>&1; echo "rc $?" >> $OUT/gpu-lane.txt
tail -4 $OUT/gpu-lane.txt; t lane
b=build/tools/bench/librednn-bench
for dir in bwd_filter fwd; do
  timeout 150 ncu --clock-control none --kernel-name regex:gemm_tf32_kernel --launch-count 1 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats     $b --lib build/src/libcudnn.so.8 --problem "op=rnn cell=lstm algo=standard dirs=1 layers=2 input=1024 hidden=1024 input_mode=linear bias=double dtype=float math=float math_type=default layout=seq_major_unpacked seq=50 batch=64 hx=yes cx=yes hy=yes cy=yes" --dir $dir --runs 1 --warmup 0 > $OUT/ncu-$dir.txt 2>&1
  t ncu-$dir
done
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Stall|Issue Slots|Executed Ipc|Warp Cycles Per Issued|DRAM Throughput|Block Limit" $OUT/ncu-bwd_filter.txt | head -40
