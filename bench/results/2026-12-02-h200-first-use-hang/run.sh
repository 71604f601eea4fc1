#!/usr/bin/env bash
# The three device scripts of this run, in order (each was one device call: OUT=$OUT bash gpu-N.sh); call 3 ran twice, the
# second time after the lane fix (gpu-sanitize.txt).

# ---- gpu-1.sh
# Device call 1 (2026-12-02 fifth): build, then the first-use race under compute-sanitizer (three variants under
# memcheck, the cuFFT-free one under synccheck and initcheck), each alone, side by side, and ctest -L gpu.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -40 $OUT/build.txt; exit 1; }
echo "build $((SECONDS-start)) s"
nvidia-smi -L; command -v cuda-gdb compute-sanitizer
logs=build/sanitize-logs
pids=()
one() {  # TOOL STEP
    LIBREDNN_SANITIZE_LOGS=$logs/$1-$2 LIBREDNN_SANITIZE_STEP_SECONDS=240 LIBREDNN_SANITIZE_OPS= LIBREDNN_SANITIZE_EXAMPLES=0 \
        LIBREDNN_SANITIZE_GPU_STEPS="$2=CudaThreads.$3" scripts/gpu_sanitize.sh $1 >$OUT/san-$1-$2.txt 2>&1 &
    pids+=($!)
}
one memcheck FirstUse 'RacingFirstUseInThisProcess*'
one memcheck AfterContext 'RacingFirstUseAfterTheContext*'
one memcheck WithoutCufft 'RacingFirstUseWithoutCufft*'
one synccheck WithoutCufft 'RacingFirstUseWithoutCufft*'
one initcheck WithoutCufft 'RacingFirstUseWithoutCufft*'
t0=$SECONDS
(cd build && ctest -L gpu -j4 --timeout 300 >$OUT/ctest-gpu.txt 2>&1; echo "ctest rc $? $((SECONDS-t0)) s" >>$OUT/ctest-gpu.txt) 
tail -5 $OUT/ctest-gpu.txt
for p in "${pids[@]}"; do wait $p; done
echo "all $((SECONDS-start)) s"
for f in $OUT/san-*.txt; do echo "== $f"; grep -v "matches no test" $f | tail -6; done
tar czf $OUT/sanitize-logs.tgz -C build sanitize-logs
ls -la $OUT

# ---- gpu-2.sh
# Device call 2: the first-use hang without LibreDNN (cufft_launch_race.cu) and with eager module loading.
set -u
export PATH=$PATH:/usr/local/cuda/bin
d=bench/results/2026-12-02-h200-first-use-hang
start=$SECONDS
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 &
bpid=$!
nvcc -O2 -std=c++20 -arch=sm_90 $d/cufft_launch_race.cu -lcufft -o /tmp/clr || exit 1
( for i in 1 2 3; do /tmp/clr; done ) >$OUT/repro-plain.txt 2>&1
rp=()
for i in 1 2 3; do
  (s=$SECONDS; timeout -k 10 150 compute-sanitizer --tool memcheck /tmp/clr; echo "rc $? $((SECONDS-s)) s") >$OUT/repro-memcheck-$i.txt 2>&1 &
  rp+=($!)
  (s=$SECONDS; CUDA_MODULE_LOADING=EAGER timeout -k 10 150 compute-sanitizer --tool memcheck /tmp/clr; echo "rc $? $((SECONDS-s)) s") >$OUT/repro-memcheck-eager-$i.txt 2>&1 &
  rp+=($!)
done
wait $bpid || { tail -30 $OUT/build.txt; exit 1; }
echo "build $((SECONDS-start)) s"
logs=build/sanitize-logs
pids=()
one() {  # TOOL STEP
    CUDA_MODULE_LOADING=EAGER LIBREDNN_SANITIZE_LOGS=$logs/$1-$2 LIBREDNN_SANITIZE_STEP_SECONDS=200 LIBREDNN_SANITIZE_OPS= LIBREDNN_SANITIZE_EXAMPLES=0 \
        LIBREDNN_SANITIZE_GPU_STEPS="$2=CudaThreads.$3" scripts/gpu_sanitize.sh $1 >$OUT/san-$1-$2.txt 2>&1 &
    pids+=($!)
}
for tool in memcheck synccheck initcheck; do one $tool FirstUseEager 'RacingFirstUseInThisProcess*'; done
one memcheck AfterContextEager 'RacingFirstUseAfterTheContext*'
for p in "${rp[@]}" "${pids[@]}"; do wait $p; done
echo "all $((SECONDS-start)) s"
for f in $OUT/repro-*.txt $OUT/san-*.txt; do echo "== $f"; grep -v "matches no test" $f | tail -4; done
tar czf $OUT/sanitize-logs.tgz -C build sanitize-logs

# ---- gpu-3.sh
# Device call 3: the whole compute-sanitizer lane, four tools side by side.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build $((SECONDS-start)) s"
s=$SECONDS
LIBREDNN_SANITIZE_PARALLEL=1 LIBREDNN_SANITIZE_STEP_SECONDS=150 scripts/gpu_sanitize.sh >$OUT/gpu-sanitize.txt 2>&1
echo "lane rc $? $((SECONDS-s)) s" | tee -a $OUT/gpu-sanitize.txt
grep -v "^$" $OUT/gpu-sanitize.txt | tail -60
tar czf $OUT/sanitize-logs.tgz -C build sanitize-logs
