#!/usr/bin/env bash
# Ready for a later session, not run (no device machine was lent in the session that wrote it). Builds main (base,
# libraries only, in /tmp/base) and main + not-run-bn-latency.patch + not-run-pooling.patch (they touch
# different files: the A/B's bn rows are the first patch's, its pool rows the second's) + the two RNN patches of
# ../2026-12-04-h200-rnn-input-gradient-tma/ and the two of ../2026-12-05-rnn-b1-inference/ (for the lane only), then on the patched build:
#  - the gpu lane (all six patches), with the patch's OpsCuda.BatchNormThreePasses (clusters off: every packed training and backward
#    call on the three passes) and OpsCuda.BatchNormOrderedLaunches (the same without dependent launches);
#  - compute-sanitizer memcheck and racecheck over the packed batch-norm tests (clusters off) and the strips' test;
#  - the A/B against main over ResNet-50's batch norms at N=256 (half NHWC and float NCHW; inference, training
#    forward, backward), and again with LIBREDNN_BN_DEPENDENT_LAUNCH=0 (half NHWC), which parts the dependent launches
#    from the kernels' own changes; and over its pooling layers (float NCHW: the stem's strips and the head's global
#    kernel, whose planes a block LIBREDNN_POOLING_GLOBAL_PLANES=128 sets back to main's count);
#  - tools/bench/issue14_results.sh against NVIDIA (the bar table, bars.md, with a copy of each layer's x beside
#    each row: the copy rate a tensor that small reaches on this machine);
#  - ncu's per-kernel times of the half NHWC training forward on l2.bn128 and l3.bn256, patched and base.
# Measurements first, then the correctness runs (the lane gets what is left of the call), then ncu while time is
# left (`left`). Run from the repository root with $OUT set (device tool), timeout 600.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-bn-latency
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
left() { [ $((SECONDS-start+$1)) -lt 590 ]; }  # whether $1 more seconds fit the call
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs" LIBREDNN_JOBS=5 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
patch -p1 -s < $R/not-run-bn-latency.patch || exit 1
patch -p1 -s < $R/not-run-pooling.patch || exit 1
# The RNN patches too (no file in common with these; the batch-norm and pooling rows do not reach their code), so
# that this call's gpu lane covers all four and the RNN call can run with SKIP_LANE=1.
for rnn in not-run-forward-wx not-run-bias-pass-loads; do
  patch -p1 -s < bench/results/2026-12-04-h200-rnn-input-gradient-tma/$rnn.patch || exit 1
done
# And the two batch-1 patches of bench/results/2026-12-05-rnn-b1-inference/ (the persistent forward's tagged exchange,
# float weights read in place; they share rnn_forward.cu with not-run-forward-wx, in other hunks: all six apply
# together and those files compile), for the exchange's CTest OpsCuda.RnnPersistentGridBarriers and op test.
patch -p1 -s < bench/results/2026-12-05-rnn-b1-inference/not-run-persistent-exchange.patch || exit 1
patch -p1 -s < bench/results/2026-12-05-rnn-b1-inference/not-run-weights-in-place.patch || exit 1
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench
for config in "half nhwc" "float nchw"; do
  set -- $config
  timeout 70 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/resnet50-bn.tsv --n 256 --dtype $1 --layout $2 --dir inference,fwd,bwd --runs 20 --json $OUT/vs-main-bn-$1-$2.json --markdown $OUT/vs-main-bn-$1-$2.md > /tmp/ab-$1.txt 2>&1; echo "A/B $1 $2 rc $?" | tee -a $OUT/summary.txt
done
for config in "float nchw" "half nhwc"; do
  set -- $config
  timeout 60 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/resnet50-pool.tsv --n 256 --dtype $1 --layout $2 --dir fwd,bwd --runs 20 --json $OUT/vs-main-pool-$1-$2.json --markdown $OUT/vs-main-pool-$1-$2.md > /tmp/ab-pool-$1.txt 2>&1; echo "A/B pool $1 $2 rc $?" | tee -a $OUT/summary.txt
done
LIBREDNN_POOLING_GLOBAL_PLANES=128 timeout 40 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/resnet50-pool.tsv --n 256 --dtype float --layout nchw --dir fwd --runs 20 --markdown $OUT/vs-main-pool-float-nchw-planes128.md > /tmp/ab-pool-128.txt 2>&1; echo "A/B pool planes 128 rc $?" | tee -a $OUT/summary.txt
LIBREDNN_BN_DEPENDENT_LAUNCH=0 timeout 50 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/resnet50-bn.tsv --n 256 --dtype half --layout nhwc --dir fwd,bwd --runs 20 --json $OUT/vs-main-bn-half-nhwc-ordered.json --markdown $OUT/vs-main-bn-half-nhwc-ordered.md > /tmp/ab-ordered.txt 2>&1; echo "A/B ordered rc $?" | tee -a $OUT/summary.txt
for f in vs-main-bn-half-nhwc vs-main-bn-float-nchw vs-main-bn-half-nhwc-ordered vs-main-pool-float-nchw vs-main-pool-half-nhwc vs-main-pool-float-nchw-planes128; do echo "== $f" | tee -a $OUT/summary.txt; grep -h "^| [a-z]" $OUT/$f.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt; done
t ab
RUNS=20 timeout 150 tools/bench/issue14_results.sh $OUT/issue14 > /tmp/issue14.txt 2>&1; echo "issue14 rc $?" | tee -a $OUT/summary.txt
tail -3 $OUT/issue14/bars.md | tee -a $OUT/summary.txt
t issue14
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout $(( 555 - (SECONDS-start) )) ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/gpu-lane.txt | tail -30 | tee -a $OUT/summary.txt
t lane
packed='BatchNorm.TrainingAndBackwardOnPackedLayoutsMatchReference:BatchNorm.InferenceOnPackedLayoutsMatchesReference:Pooling.ThreeByThreeWindowsAtStrideTwoMatchReference'
for tool in memcheck racecheck; do
  left 60 || break
  LIBREDNN_OP_TEST_BACKEND=cuda LIBREDNN_BN_CLUSTER=0 timeout 90 compute-sanitizer --tool $tool build/tests/librednn_op_tests --gtest_filter=$packed > /tmp/$tool.txt 2>&1
  echo "$tool rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' /tmp/$tool.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
done
t sanitizers
for lib in build /tmp/base/build; do
  tag=$([ $lib = build ] && echo patched || echo base)
  for dims in 256x128x28x28 256x256x14x14; do
    left 15 || break
    timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib $lib/src/libcudnn.so.8 --problem "op=bn mode=spatial phase=train_fwd dtype=half dims=$dims layout=nhwc eps=1e-05 factor=0.1 alpha=1 beta=0" --warmup 1 --runs 1 > $OUT/ncu-$tag-$dims.csv 2>&1
    echo "ncu $tag $dims: $(grep -o '"gpu__time_duration.sum","ns","[0-9,]*"' $OUT/ncu-$tag-$dims.csv | cut -d'"' -f6 | tr '\n' ' ')" | tee -a $OUT/summary.txt
  done
done
t ncu
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt memcheck.txt racecheck.txt ab-half.txt ab-float.txt ab-ordered.txt ab-pool-float.txt ab-pool-half.txt issue14.txt base-build.txt 2>/dev/null
