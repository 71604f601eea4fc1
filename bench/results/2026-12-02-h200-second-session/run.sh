#!/usr/bin/env bash
# The commands of this folder's H200 calls (each started with a sm_90 build:
# LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90), run from the repository root with
# OUT set to a folder. nv: NVIDIA cuDNN 9.19.
set -uo pipefail
out=$OUT
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
b=build/tools/bench/librednn-bench
tests=build/tests/librednn_op_tests
# tests.txt (final tree)
build/tests/gpu/librednn_gpu_tests --gtest_filter='RnnProducts.*:GemmSimt.*:CudaThreads*'
for seed in 2 3; do
    LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda $tests --gtest_filter="Rnn*:Convolution*:FusedOps*:Pooling*:BatchNorm*"
done
ctest --test-dir build -L gpu -j4 --output-on-failure
# benchmarks (final tree)
$b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-conv.tsv --n 32 --dtype half --layout nhwc \
    --math tensor_op --dir fwd,bwd_data,bwd_filter --runs 15 --json $out/resnet50-conv-n32.json
$b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $out/rnn.json \
    --markdown $out/rnn.md
for spec in "float nchw" "half nhwc"; do
    read -r dt ly <<<"$spec"
    $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 \
        --dtype $dt --layout $ly --problem "op=copy dtype=$dt dims=256x256x56x56" --json $out/pool-$dt-$ly.json
done
$b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-bn.tsv --n 256 --dir inference,fwd,bwd --runs 15 \
    --dtype float --layout nchw --problem "op=copy dtype=float dims=256x256x56x56" --json $out/bn-float-nchw.json
# fft-stride2-check.txt, fft-stride2.json (first call, at bd95109): FFT_TILING at stride 2 against NVIDIA's
args=()
for dt in float half; do
    for shape in "c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 stride=2x2" "c=64 h=112 w=112 k=64 r=5 s=5 pad=2x2 stride=2x2" \
        "c=256 h=28 w=28 k=256 r=7 s=7 pad=3x3 stride=2x1"; do
        args+=(--problem "op=conv dir=fwd dtype=$dt layout=nchw n=16 $shape algo=5")
        args+=(--problem "op=conv dir=bwd_data dtype=$dt layout=nchw n=16 $shape algo=3")
    done
done
$b --check --lib build/src/libcudnn.so.8 --vs $nv "${args[@]}" > $out/fft-stride2-check.txt
$b --lib build/src/libcudnn.so.8 --vs $nv "${args[@]}" --runs 10 --json $out/fft-stride2.json
# ncu-pool-bn.txt (at 450aa9c): ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats
#   -k regex:forward_kernel|backward_kernel (pooling) or stats_|merge_kernel|apply_ (batch norm), one problem each
# gpu-sanitize.txt (final tree)
LIBREDNN_SANITIZE_STEP_SECONDS=150 timeout 430 scripts/gpu_sanitize.sh memcheck synccheck initcheck racecheck
