#!/usr/bin/env bash
# The compute-sanitizer lane (docs/RELIABILITY.md, "compute-sanitizer"): on a GPU machine, after a CUDA
# build, runs the GPU tests (librednn_gpu_tests, the CUDA thread tests among them), a filter of the op tests
# on the CUDA backend and the CUDA examples under compute-sanitizer's memcheck, racecheck, initcheck and
# synccheck. Exits non-zero when any tool reports an error, any test fails or a step runs out of time.
#   scripts/gpu_sanitize.sh                      # all four tools
#   scripts/gpu_sanitize.sh racecheck initcheck  # some of them
# LIBREDNN_BUILD_DIR (default build), LIBREDNN_SANITIZE_LOGS (default $build/sanitize-logs) for the full
# logs, LIBREDNN_SANITIZE_OPS (a gtest filter replacing the op tests' default one for every tool, "" to
# skip them), LIBREDNN_SANITIZE_GPU_STEPS (NAME=FILTER ... replacing the GPU-test steps, "" to skip them),
# LIBREDNN_SANITIZE_EXAMPLES=0 (skip the examples), LIBREDNN_SANITIZE_STEP_SECONDS (default 300) bounds each
# step, LIBREDNN_TEST_SEED (default 1). LIBREDNN_SANITIZE_PARALLEL=1 runs the tools side by side, each in a
# process of its own with its logs in $logs/TOOL/ (a device call is limited to 10 minutes; the four tools side by
# side took 471 s on the H200 on 2026-12-02 with a 150-s step limit, three steps per tool cut off by it).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${LIBREDNN_BUILD_DIR:-build}
logs=${LIBREDNN_SANITIZE_LOGS:-$build/sanitize-logs}
step_seconds=${LIBREDNN_SANITIZE_STEP_SECONDS:-300}
export LIBREDNN_TEST_SEED=${LIBREDNN_TEST_SEED:-1}
export PATH=$PATH:/usr/local/cuda/bin
tools=("$@")
[ ${#tools[@]} -eq 0 ] && tools=(memcheck racecheck initcheck synccheck)

if [ "${LIBREDNN_SANITIZE_PARALLEL:-0}" = 1 ] && [ ${#tools[@]} -gt 1 ]; then
    mkdir -p "$logs"
    pids=()
    for tool in "${tools[@]}"; do
        LIBREDNN_SANITIZE_PARALLEL=0 LIBREDNN_SANITIZE_LOGS="$logs/$tool" "$0" "$tool" >"$logs/$tool.txt" 2>&1 &
        pids+=($!)
    done
    status=0
    for i in "${!tools[@]}"; do
        wait "${pids[$i]}" || status=1
        cat "$logs/${tools[$i]}.txt"
    done
    exit $status
fi

sanitizer=$(command -v compute-sanitizer) || { echo "gpu_sanitize: no compute-sanitizer (CUDA toolkit's bin/)"; exit 2; }
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu_sanitize: no GPU here"
    exit 2
fi
gpu_tests=$build/tests/gpu/librednn_gpu_tests
op_tests=$build/tests/librednn_op_tests
for binary in "$gpu_tests" "$op_tests"; do
    [ -x "$binary" ] || { echo "gpu_sanitize: $binary missing: build with the CUDA backend first (scripts/build.sh)"; exit 2; }
done
mkdir -p "$logs"

# One or two tests of each op family whose CUDA kernels they reach: the main forward and backward paths,
# the packed fast paths, the FFT and Winograd convolutions. memcheck, initcheck and synccheck cost a few
# times a plain run; racecheck tracks every shared-memory access and costs far more, so it takes the
# families whose kernels share memory between threads (block reductions, tiles, scans), one test each.
ops_common='Activation.ForwardMatches*:Activation.BackwardMatches*:AddTensor.*:OpTensor.MatchesReference*'
ops_common+=':SetAndScaleTensor.MatchReference*:TransformTensor.MatchesReference*:TransformFilter.MatchesReference*'
ops_common+=':ReduceTensor.MatchesReference*:BatchNorm.TrainingMatches*:BatchNorm.BackwardMatches*'
ops_common+=':BatchNorm.TrainingAndBackwardOnPacked*:BatchNorm.InferenceOnPacked*:Convolution.ForwardMatches*'
ops_common+=':Convolution.BackwardDataMatches*:Convolution.BackwardFilterMatches*:ConvolutionBiasActivation.*'
ops_common+=':ConvolutionBackwardBias.*:ConvolutionWinograd.ForwardMatchesReference:ConvolutionWinograd.ForwardNonfused*'
ops_common+=':ConvolutionFft.ForwardFftAndFftTiling*:ConvolutionFft.BackwardDataFft*:ConvolutionIm2Col.MatchesReference*'
ops_common+=':CtcLoss.MatchesReferenceOnRandomProblems:DivisiveNorm.ForwardMatches*:DivisiveNorm.BackwardMatches*'
ops_common+=':Dropout.ForwardMatches*:Dropout.BackwardMatches*:DropoutStates.*:Lrn.ForwardMatches*:Lrn.BackwardMatches*'
ops_common+=':Pooling.ForwardMatches*:Pooling.BackwardMatches*:Pooling.PackedNhwcAndNchwMatchReference'
ops_common+=':Rnn.ForwardMatchesReferenceForEachCell*:Rnn.ForwardOfFusedSteps*:RnnBackward.FloatAndHalfMatchDoubleOnBatchesOfTensorCoreSteps'
ops_common+=':Softmax.ForwardMatches*:Softmax.BackwardMatches*:Softmax.LongRowsMatchReference'
ops_common+=':SpatialTf.GridGeneratorForward*:SpatialTf.SamplerForwardMatches*:SpatialTf.SamplerBackwardMatches*'
ops_racecheck='BatchNorm.TrainingAndBackwardOnPacked*:BatchNorm.LongReductionsMatchReference:Convolution.ForwardMatches*'
ops_racecheck+=':ConvolutionWinograd.ForwardMatchesReference:ConvolutionFft.ForwardFftAndFftTiling*'
ops_racecheck+=':ReduceTensor.MatchesReferenceOnTheLayoutsWithFastPaths:Softmax.LongRowsMatchReference'
ops_racecheck+=':Pooling.PackedNhwcAndNchwMatchReference:DivisiveNorm.ForwardMatches*:CtcLoss.MatchesReferenceOnRandomProblems'
ops_racecheck+=':Rnn.ForwardMatchesReferenceForEachCell*:Rnn.ForwardOfFusedSteps*:SpatialTf.SamplerBackwardMatches*'

# The GPU tests, one step per suite (NAME=FILTER), each bounded alone: as one step the whole binary ran past
# 150 s under memcheck and synccheck (2026-12-02) and said nothing of which suite was slow; TensorKernels in two
# (over 150 s as one under synccheck with the tools side by side). racecheck takes the suites whose kernels
# share memory between threads (reductions, softmax rows, GEMM tiles). Left out:
# TensorKernels.AddTensorBroadcastsOverDimsOfExtentOne (155 s without a tool with dims up to 64 in 5-d, every
# element checked on the host; up to 40 since) and the death test, whose re-executed child did not report
# back within 105 s under any tool, with eager loading too; the first-use race it runs is a step of its own
# instead, alone in its process (its first use), again with the CUDA context created before the threads start,
# and without the FFT convolution.
gpu_steps_common='GpuHandle=GpuHandle.* TensorKernels-softmax=TensorKernels.Softmax*'
gpu_steps_common+=' TensorKernels=TensorKernels.*:-TensorKernels.Softmax*:TensorKernels.AddTensorBroadcastsOverDimsOfExtentOne'
gpu_steps_common+=' GemmSimt=GemmSimt.* GemmTf32=GemmTf32.* RnnProducts=RnnProducts.* CudaThreads=CudaThreads.*:-CudaThreads.RacingFirstUse*'
gpu_steps_common+=' CudaThreadsFirstUse=CudaThreads.RacingFirstUseInThisProcess*'
gpu_steps_common+=' CudaThreadsFirstUseAfterContext=CudaThreads.RacingFirstUseAfterTheContext*'
gpu_steps_common+=' CudaThreadsFirstUseWithoutCufft=CudaThreads.RacingFirstUseWithoutCufft*'
# Steps run with CUDA_MODULE_LOADING=EAGER: under compute-sanitizer with lazy loading (CUDA's default), one
# thread creating a cuFFT plan while another launches a kernel for the first time deadlock inside the driver
# and the tool's module-load callback, without LibreDNN: bench/results/2026-12-02-h200-first-use-hang/ has a
# program of 60 lines that hangs so 3 times of 3 and passes with eager loading (docs/RELIABILITY.md). The
# cuFFT-free race keeps lazy loading, so that LibreDNN's own racing first launches are still checked as users
# run them.
eager_steps=' CudaThreadsFirstUse CudaThreadsFirstUseAfterContext '
gpu_steps_racecheck='TensorKernels-reduce=TensorKernels.Reduce* TensorKernels-softmax=TensorKernels.Softmax*'
gpu_steps_racecheck+=' GemmSimt=GemmSimt.* GemmTf32=GemmTf32.* RnnProducts=RnnProducts.*'

failures=()
# A filter pattern that matches no test (a test renamed) would silently check nothing: each must match one.
IFS=: read -r -a patterns <<<"$ops_common:$ops_racecheck${LIBREDNN_SANITIZE_OPS:+:$LIBREDNN_SANITIZE_OPS}"
for pattern in "${patterns[@]}"; do
    [ "${pattern:0:1}" = - ] && break  # negative patterns (only in LIBREDNN_SANITIZE_OPS, which comes last)
    [ -z "$pattern" ] && continue
    if ! "$op_tests" --gtest_list_tests --gtest_filter="$pattern" | grep -q '^  '; then
        failures+=("the op-test filter pattern $pattern matches no test")
    fi
done
for step in $gpu_steps_common $gpu_steps_racecheck ${LIBREDNN_SANITIZE_GPU_STEPS:-}; do
    if ! "$gpu_tests" --gtest_list_tests --gtest_filter="${step#*=}" | grep -q '^  '; then
        failures+=("the GPU-test step $step matches no test")
    fi
done

# descendants PID: the processes under PID, at any depth.
descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        echo "$child"
        descendants "$child"
    done
}

# run TOOL NAME COMMAND...: one step under compute-sanitizer (child processes included: the CUDA thread
# test's first-use race runs in one); its log in $logs/TOOL-NAME.log.
run() {
    local tool=$1 name=$2
    shift 2
    local log=$logs/$tool-$name.log start=$SECONDS
    rm -f "$log.stacks"
    timeout --signal=TERM --kill-after=30 "$step_seconds" "$sanitizer" --tool "$tool" --target-processes all \
        --error-exitcode 99 "$@" >"$log" 2>&1 &
    local step=$!
    # A step about to run out of time has its threads' stacks written to $log.stacks first (cuda-gdb attaches
    # to each process under this step's timeout, the sanitizer's own too, and to no other step's: the tools
    # may run side by side): a hang shows where it waits. The attach may end the process it stops.
    local watchdog=
    if command -v cuda-gdb >/dev/null && [ "$step_seconds" -ge 90 ]; then
        (
            # The sleep in the background, so that the step's end (a TERM to this subshell) ends it too.
            sleep $((step_seconds - 45)) &
            trap 'kill $! 2>/dev/null; exit 0' TERM
            wait $!
            for pid in $(descendants "$step"); do
                echo "=== process $pid: $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null | cut -c1-200)"
                timeout 30 cuda-gdb -q -p "$pid" -batch -ex "info threads" -ex "thread apply all bt 30" 2>&1 | tail -400
            done >"$log.stacks" 2>&1
        ) &
        watchdog=$!
    fi
    wait "$step"
    local rc=$?
    if [ -n "$watchdog" ]; then
        kill "$watchdog" 2>/dev/null
        wait "$watchdog" 2>/dev/null
    fi
    local summary
    summary=$(grep -a -E "^========= (ERROR SUMMARY|RACECHECK SUMMARY)" "$log" | tail -1)
    local tests
    tests=$(grep -a -E "^\[  (PASSED|FAILED|SKIPPED)  \]" "$log" | tr '\n' ' ')
    printf '%-10s %-14s rc=%-3s %4ss  %s %s\n' "$tool" "$name" "$rc" "$((SECONDS - start))" "${summary#========= }" \
        "$tests"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ] || { [ $rc -ne 0 ] && [ -s "$log.stacks" ]; }; then
        failures+=("$tool $name: ran past $((step_seconds - 45))s, rc $rc (narrow the filter or raise LIBREDNN_SANITIZE_STEP_SECONDS; stacks in $log.stacks)")
    elif grep -a -q -E "^\[  PASSED  \] 0 tests" "$log"; then
        failures+=("$tool $name: no test ran (every one skipped: a build without the CUDA backend?)")
    elif [ $rc -ne 0 ]; then
        failures+=("$tool $name: rc $rc, see $log")
        grep -a -E "^========= (Invalid|Program hit|Uninitialized|Race|Barrier|Warning|Error)|Failure$|^\[  FAILED" \
            "$log" | head -20
    fi
}

for tool in "${tools[@]}"; do
    case $tool in
        memcheck | racecheck | initcheck | synccheck) ;;
        *) echo "gpu_sanitize: $tool is not one of memcheck racecheck initcheck synccheck"; exit 2 ;;
    esac
    gpu_steps=$gpu_steps_common
    [ "$tool" = racecheck ] && gpu_steps=$gpu_steps_racecheck
    gpu_steps=${LIBREDNN_SANITIZE_GPU_STEPS-$gpu_steps}
    for step in $gpu_steps; do
        loading=${CUDA_MODULE_LOADING:-LAZY}
        [[ $eager_steps == *" ${step%%=*} "* ]] && loading=EAGER
        CUDA_MODULE_LOADING=$loading run "$tool" "gpu-${step%%=*}" "$gpu_tests" --gtest_filter="${step#*=}"
    done
    ops=$ops_common
    [ "$tool" = racecheck ] && ops=$ops_racecheck
    ops=${LIBREDNN_SANITIZE_OPS-$ops}
    [ -n "$ops" ] && LIBREDNN_OP_TEST_BACKEND=cuda run "$tool" op-tests "$op_tests" --gtest_filter="$ops"
    [ "${LIBREDNN_SANITIZE_EXAMPLES:-1}" = 0 ] && continue
    for example in "$build"/examples/*_cuda; do
        [ -x "$example" ] && LIBREDNN_BACKEND=cuda run "$tool" "$(basename "$example")" "$example"
    done
done

if [ ${#failures[@]} -gt 0 ]; then
    printf 'gpu_sanitize: FAILED\n'
    printf '  %s\n' "${failures[@]}"
    exit 1
fi
echo "gpu_sanitize: no errors (${tools[*]}; logs in $logs)"
