#!/usr/bin/env bash
set -uo pipefail
out=$OUT
export PATH=/usr/local/cuda/bin:$PATH
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
t0=$(date +%s)
LIBREDNN_BUILD_DIR=build-gpu scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/build.log 2>&1 || { grep -E "error|FAILED" /tmp/build.log | head -30; tail -20 /tmp/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
tests=build-gpu/tests/librednn_op_tests
for seed in 1 2 3; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda $tests --gtest_filter="Lrn*:Convolution*" 2>&1 | grep -a -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[==========\]" | head -30
done > $out/cuda-tests.txt; cat $out/cuda-tests.txt
LIBREDNN_TEST_SEED=5 LIBREDNN_OP_TEST_BACKEND=cuda compute-sanitizer --tool memcheck $tests --gtest_filter="Lrn*:Convolution.Forward*:ConvolutionBiasActivation*:ConvolutionAlgorithms*" > /tmp/mc.log 2>&1; tail -3 /tmp/mc.log | tee $out/memcheck.txt
b=build-gpu/tools/bench/librednn-bench
for spec in "float nchw" "half nhwc"; do read -r dt ly <<<"$spec"
  $b --lib build-gpu/src/libcudnn.so.8 --vs $nv --set bench/sets/lrn.tsv --n 256 --dir fwd,bwd --runs 20 --dtype $dt --layout $ly --json $out/lrn-$dt-$ly.json > $out/lrn-$dt-$ly.txt 2>&1; grep -a -E "^(fwd|bwd) " $out/lrn-$dt-$ly.txt | head -20
done
args=()
for algo in 0 1 2; do for shape in "c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1" "c=256 h=14 w=14 k=256 r=3 s=3 pad=1x1" "c=256 h=56 w=56 k=64 r=1 s=1 pad=0x0" "c=3 h=224 w=224 k=64 r=7 s=7 pad=3x3 stride=2x2"; do
  for dl in "half nhwc" "float nchw"; do read -r dt ly <<<"$dl"
  args+=(--problem "op=conv dir=fwd dtype=$dt layout=$ly n=32 $shape algo=$algo"); done; done; done
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" --runs 20 --json $out/conv-fwd-algos.json > $out/conv-fwd-algos.txt 2>&1; grep -a -E "^fwd " $out/conv-fwd-algos.txt
$b --check --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" > $out/conv-fwd-algos-check.txt 2>&1; grep -a -E "^fwd " $out/conv-fwd-algos-check.txt
args=()
for dir in bwd_data bwd_filter; do for algo in 0 1; do for shape in "c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1" "c=256 h=14 w=14 k=256 r=3 s=3 pad=1x1 stride=2x2"; do
  args+=(--problem "op=conv dir=$dir dtype=float layout=nchw n=32 $shape algo=$algo"); done; done; done
$b --lib build-gpu/src/libcudnn.so.8 --vs $nv "${args[@]}" --runs 20 --json $out/conv-bwd-algos.json > $out/conv-bwd-algos.txt 2>&1; grep -a -E "^bwd" $out/conv-bwd-algos.txt

# CTC probe: the gradients' NaN mismatch of families.problems with every input length T, and with one shorter
$b --check --lib build-gpu/src/libcudnn.so.8 --vs $nv --problem "op=ctc_loss dtype=float dims=50x4x29 probsstrides=116x29x1 gradstrides=116x29x1 norm=softmax nan=not_propagate algo=det max_label=12 label_lengths=12x7x3x9 input_lengths=50x50x50x50" --problem "op=ctc_loss dtype=float dims=50x4x29 probsstrides=116x29x1 gradstrides=116x29x1 norm=softmax nan=not_propagate algo=det max_label=12 label_lengths=12x7x3x9 input_lengths=50x50x50x44" --problem "op=ctc_loss dtype=float dims=50x4x29 probsstrides=116x29x1 gradstrides=116x29x1 norm=softmax nan=not_propagate algo=det max_label=12 label_lengths=12x7x0x9 input_lengths=50x50x50x50" > $out/ctc-probe.txt 2>&1; grep -a -E "^fwd " $out/ctc-probe.txt
