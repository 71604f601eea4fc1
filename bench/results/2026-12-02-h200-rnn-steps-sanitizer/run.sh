#!/usr/bin/env bash
# Call 1: build, RNN checks and benchmark (tensor-core step products vs gemm_simt vs NVIDIA), GPU tests, doctor.
set -uo pipefail
out=$OUT
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start )) s] $*" | tee -a $out/times.txt; }
left() { echo $(( 575 - ($(date +%s) - start) )); }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > $out/machine.txt
git rev-parse HEAD >> $out/machine.txt 2>/dev/null; git status --short >> $out/machine.txt 2>/dev/null
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
t built
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
b=build/tools/bench/librednn-bench
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='RnnProducts.*' > $out/rnn-products.txt 2>&1; echo "rc $?" >> $out/rnn-products.txt
tail -4 $out/rnn-products.txt
t rnn-products
for seed in 1 2; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > $out/rnn-ops-seed$seed.txt 2>&1; echo "rc $?" >> $out/rnn-ops-seed$seed.txt
  tail -3 $out/rnn-ops-seed$seed.txt
done
t rnn-ops
timeout 150 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $out/rnn.json --markdown $out/rnn.md > $out/rnn-bench.txt 2>&1
t rnn-bench
LIBREDNN_RNN_STEP_PRODUCTS=simt timeout 100 $b --lib build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $out/rnn-simt.json --markdown $out/rnn-simt.md > $out/rnn-simt-bench.txt 2>&1
t rnn-simt-bench
timeout 60 build/tools/doctor/cudnn-doctor --lib build/src --self-test > $out/doctor.txt 2>&1; echo "rc $?" >> $out/doctor.txt
tail -5 $out/doctor.txt
t doctor
timeout $(left) ctest --test-dir build -L gpu -j4 --output-on-failure > $out/ctest-gpu.txt 2>&1; echo "rc $?" >> $out/ctest-gpu.txt
tail -12 $out/ctest-gpu.txt
t ctest
grep -h "geomean\|^| inference\|^| step" $out/rnn.md | head -40

# ---- call 2
#!/usr/bin/env bash
# Call 2: the sanitizer lane, its four tools side by side (each tool's steps one after another), and the op
# tests on CUDA under a third seed.
set -uo pipefail
out=$OUT
start=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck synccheck initcheck racecheck; do
  ( LIBREDNN_SANITIZE_LOGS=build/sanitize-logs/$tool LIBREDNN_SANITIZE_STEP_SECONDS=${STEP:-150} \
      timeout 565 scripts/gpu_sanitize.sh $tool > $out/sanitize-$tool.txt 2>&1; echo "rc $?" >> $out/sanitize-$tool.txt ) &
done
( LIBREDNN_TEST_SEED=3 LIBREDNN_OP_TEST_BACKEND=cuda timeout 400 build/tests/librednn_op_tests > $out/ops-cuda-seed3.txt 2>&1; echo "rc $?" >> $out/ops-cuda-seed3.txt ) &
wait
echo "[$(( $(date +%s) - start )) s] done"
for tool in memcheck synccheck initcheck racecheck; do echo "== $tool"; cat $out/sanitize-$tool.txt | tail -20; done
tail -4 $out/ops-cuda-seed3.txt
mkdir -p $out/logs && for f in build/sanitize-logs/*/*.log; do tail -c 20000 $f > $out/logs/$(basename $(dirname $f))-$(basename $f); done

# ---- call 3
#!/usr/bin/env bash
# Call 3: the steps call 2 left unfinished, side by side: TensorKernels (without the 155-s broadcast test),
# the op-test filter, and CudaThreadsDeathTest, each under memcheck, synccheck and initcheck.
set -uo pipefail
out=$OUT
start=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
for tool in memcheck synccheck initcheck; do
  ( LIBREDNN_SANITIZE_LOGS=build/s3/$tool-tk LIBREDNN_SANITIZE_STEP_SECONDS=540 LIBREDNN_SANITIZE_OPS= LIBREDNN_SANITIZE_EXAMPLES=0 \
    LIBREDNN_SANITIZE_GPU_STEPS='TensorKernels=TensorKernels.*:-TensorKernels.AddTensorBroadcastsOverDimsOfExtentOne' \
    timeout 570 scripts/gpu_sanitize.sh $tool > $out/s3-$tool-tk.txt 2>&1; echo "rc $?" >> $out/s3-$tool-tk.txt ) &
  ( LIBREDNN_SANITIZE_LOGS=build/s3/$tool-ops LIBREDNN_SANITIZE_STEP_SECONDS=540 LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_GPU_STEPS= \
    timeout 570 scripts/gpu_sanitize.sh $tool > $out/s3-$tool-ops.txt 2>&1; echo "rc $?" >> $out/s3-$tool-ops.txt ) &
  ( LIBREDNN_SANITIZE_LOGS=build/s3/$tool-death LIBREDNN_SANITIZE_STEP_SECONDS=300 LIBREDNN_SANITIZE_OPS= LIBREDNN_SANITIZE_EXAMPLES=0 \
    LIBREDNN_SANITIZE_GPU_STEPS='CudaThreadsDeathTest=CudaThreadsDeathTest.*' \
    timeout 570 scripts/gpu_sanitize.sh $tool > $out/s3-$tool-death.txt 2>&1; echo "rc $?" >> $out/s3-$tool-death.txt ) &
done
wait
echo "[$(( $(date +%s) - start )) s] done"
for f in $out/s3-*.txt; do echo "== $f"; grep -v "^$" $f | tail -6; done
cd build/s3 && tar czf $out/s3-logs.tgz --transform 's,^,s3/,' $(for f in */*.log; do echo $f; done) 2>/dev/null; cd ../..
tar czf $out/s2-logs.tgz build/sanitize-logs 2>/dev/null

# ---- call 4 (rnn.json, rnn.md, rnn-simt.json, rnn-simt.md: both kernels in one call, the same build as call 1)
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
$b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json rnn.json --markdown rnn.md
LIBREDNN_RNN_STEP_PRODUCTS=simt $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json rnn-simt.json --markdown rnn-simt.md

# ---- call 5 (fresh machine)
#!/usr/bin/env bash
# Call 5 (fresh machine): build, then under memcheck, synccheck and initcheck side by side what call 2 and 3
# left unrun: the first-use race alone in its process, and the op tests after the RNN central-difference test.
set -uo pipefail
out=$OUT
start=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
git rev-parse HEAD > $out/machine.txt 2>/dev/null
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
echo "[$(( $(date +%s) - start )) s] built"
timeout 40 build/tests/gpu/librednn_gpu_tests --gtest_filter='CudaThreads.RacingFirstUse*' 2>&1 | tail -3
g1='Rnn.ForwardMatchesReferenceForEachCell*:RnnBackward.FloatAndHalfMatchDoubleOnBatchesOfTensorCoreSteps:Softmax.ForwardMatches*:Softmax.BackwardMatches*:Softmax.LongRowsMatchReference:SpatialTf.GridGeneratorForward*:SpatialTf.SamplerForwardMatches*'
g2='AddTensor.*:OpTensor.MatchesReference*:SetAndScaleTensor.MatchReference*:TransformTensor.MatchesReference*:TransformFilter.MatchesReference*'
for tool in memcheck synccheck initcheck; do
  ( LIBREDNN_SANITIZE_LOGS=build/s5/$tool-first LIBREDNN_SANITIZE_STEP_SECONDS=${STEP:-140} LIBREDNN_SANITIZE_OPS= LIBREDNN_SANITIZE_EXAMPLES=0 \
    LIBREDNN_SANITIZE_GPU_STEPS='CudaThreadsFirstUse=CudaThreads.RacingFirstUse*' scripts/gpu_sanitize.sh $tool > $out/s5-$tool-first.txt 2>&1 ) &
  ( LIBREDNN_SANITIZE_LOGS=build/s5/$tool-g1 LIBREDNN_SANITIZE_STEP_SECONDS=${STEP:-140} LIBREDNN_SANITIZE_OPS="$g1" LIBREDNN_SANITIZE_EXAMPLES=0 \
    LIBREDNN_SANITIZE_GPU_STEPS= scripts/gpu_sanitize.sh $tool > $out/s5-$tool-g1.txt 2>&1 ) &
  ( LIBREDNN_SANITIZE_LOGS=build/s5/$tool-g2 LIBREDNN_SANITIZE_STEP_SECONDS=${STEP:-140} LIBREDNN_SANITIZE_OPS="$g2" LIBREDNN_SANITIZE_EXAMPLES=0 \
    LIBREDNN_SANITIZE_GPU_STEPS= scripts/gpu_sanitize.sh $tool > $out/s5-$tool-g2.txt 2>&1 ) &
done
wait
echo "[$(( $(date +%s) - start )) s] done"
for f in $out/s5-*.txt; do echo "== $(basename $f)"; grep -v "^$" $f | grep -v "matches no test" | tail -4; done
cd build/s5 && tar czf $out/s5-logs.tgz */*.log; cd ../..
tar czf $out/s5-out.tgz -C $out $(cd $out && ls s5-*.txt build.log machine.txt)
rm -f $out/s5-*.txt
