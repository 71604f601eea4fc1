#!/usr/bin/env bash
set -uo pipefail
out=$OUT
export PATH=/usr/local/cuda/bin:$PATH
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
t0=$(date +%s)
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; tail -20 /tmp/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
tests=build-gpu/tests/librednn_op_tests
{ for seed in 4 5; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda $tests --gtest_filter="Lrn*:Convolution*" 2>&1 | grep -a -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[==========\]" | head -30
done
LIBREDNN_TEST_SEED=6 LIBREDNN_OP_TEST_BACKEND=cuda compute-sanitizer --tool memcheck $tests --gtest_filter="Lrn*:Convolution.Forward*:Convolution.BackwardData*:ConvolutionBiasActivation*" > /tmp/mc.log 2>&1; echo "memcheck:"; tail -3 /tmp/mc.log; } > $out/tests.txt 2>&1; cat $out/tests.txt
b=build-gpu/tools/bench/librednn-bench
for spec in "float nchw" "half nhwc"; do read -r dt ly <<<"$spec"
  $b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/lrn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $dt --layout $ly --json $out/lrn-$dt-$ly.json > /tmp/lrn.txt 2>&1; grep -a -E "^(fwd|bwd) " /tmp/lrn.txt | head -20
done
args=()
for dir in fwd bwd_data; do for dl in "half nhwc" "float nchw"; do read -r dt ly <<<"$dl"
  for g in 256 32; do args+=(--problem "op=conv dir=$dir dtype=$dt layout=$ly n=32 c=256 h=28 w=28 k=256 r=3 s=3 pad=1x1 g=$g"); done
  args+=(--problem "op=conv dir=$dir dtype=$dt layout=$ly n=32 c=144 h=56 w=56 k=144 r=3 s=3 pad=1x1 stride=2x2 g=144")
done; done
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" --runs 20 --json $out/grouped.json > $out/grouped.txt 2>&1; grep -a -E "^(fwd|bwd)" $out/grouped.txt
$b --check --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" > $out/grouped-check.txt 2>&1; grep -a -E "^(fwd|bwd)" $out/grouped-check.txt
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-conv.tsv --n 32 --dir fwd --runs 15 --dtype half --layout nhwc --json $out/resnet50-fwd.json > /tmp/r.txt 2>&1; grep -a -E "^fwd  +[0-9]" /tmp/r.txt | tail -2
