#!/usr/bin/env bash
set -uo pipefail
out=$OUT
export PATH=/usr/local/cuda/bin:$PATH
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
t0=$(date +%s)
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; tail -20 /tmp/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
tests=build-gpu/tests/librednn_op_tests
{ for seed in 1 2; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda timeout 200 $tests --gtest_filter="Lrn*:Convolution*:Pooling*" 2>&1 | grep -a -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[==========\]|error" | head -40
done
echo "memcheck:"; LIBREDNN_TEST_SEED=7 LIBREDNN_OP_TEST_BACKEND=cuda timeout 240 compute-sanitizer --tool memcheck --print-limit 5 $tests --gtest_filter="Convolution.Forward*:Convolution.BackwardData*:ConvolutionBiasActivation*:ConvolutionWinograd*:ConvolutionFft*:Pooling.Packed*:Lrn*" > /tmp/mc.log 2>&1; grep -a -E "ERROR SUMMARY|Invalid|^=========     at " /tmp/mc.log | head -12; tail -2 /tmp/mc.log; } > $out/tests.txt 2>&1; cat $out/tests.txt
echo "$(( $(date +%s)-t0 )) s"
timeout 150 ctest --test-dir build-gpu -L gpu -j4 > /tmp/lane.txt 2>&1; grep -a -E "tests passed|Failed|\*\*\*" /tmp/lane.txt | head -10 | tee $out/gpu-lane.txt
b=build-gpu/tools/bench/librednn-bench
for spec in "float nchw" "half nhwc"; do read -r dt ly <<<"$spec"
  $b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $dt --layout $ly --json $out/pool-$dt-$ly.json > /tmp/p.txt 2>&1; grep -a -E "^(fwd|bwd) " /tmp/p.txt | head -8
done
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/lrn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype float --layout nchw --json $out/lrn-float-nchw.json > /tmp/l.txt 2>&1; grep -a -E "^(fwd|bwd) " /tmp/l.txt | head -10
args=()
for algo in 4 5 6 7; do for dl in "float nchw" "half nhwc"; do read -r dt ly <<<"$dl"
  for shape in "c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1" "c=256 h=14 w=14 k=256 r=3 s=3 pad=1x1"; do
    args+=(--problem "op=conv dir=fwd dtype=$dt layout=$ly n=32 $shape algo=$algo")
    args+=(--problem "op=conv dir=bwd_data dtype=$dt layout=$ly n=32 $shape algo=$((algo - 2))")
  done; done; done
args+=(--problem "op=conv dir=bwd_filter dtype=float layout=nchw n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 algo=5")
args+=(--problem "op=conv dir=bwd_filter dtype=float layout=nchw n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 algo=2")
args+=(--problem "op=conv dir=bwd_filter dtype=float layout=nchw n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 algo=6")
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" --runs 15 --json $out/conv-wf.json > $out/conv-wf.txt 2>&1; grep -a -E "^(fwd|bwd)" $out/conv-wf.txt | cut -c1-160
$b --check --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" > $out/conv-wf-check.txt 2>&1; grep -a -E "^(fwd|bwd)" $out/conv-wf-check.txt | cut -c1-140
echo "total $(( $(date +%s)-t0 )) s"
