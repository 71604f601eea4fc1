#!/usr/bin/env bash
# 2026-12-07 (second session): main plus the wavefront kernel (not-run-wavefront.patch, applied here where the tree
# lacks src/cuda/rnn/rnn_wavefront.cu), in the order that matters if the call is cut short: the libraries, the bench and
# the op tests; the new test and every Rnn* test on CUDA; one call's dispatch record; batch-1 inference against NVIDIA's
# persistent algorithm with the wavefront on and off (LIBREDNN_RNN_WAVEFRONT=0 is main's per-layer persistent launches;
# bench/sets/rnn-persist.tsv); issue 14's bar table (main's batch norm and pooling); bench/sets/rnn.tsv's inference rows
# against NVIDIA's standard algorithm; then the rest of the build and the whole gpu lane (main's first since the review
# commits 5ceafeb..8bc4dfe, with the new OpsCuda.RnnWithoutWavefront). DEADLINE (seconds, default 585) bounds it. One
# archive ($OUT/all.tgz).
source bench/results/2026-12-07-next-calls/common.sh wf
[ -f src/cuda/rnn/rnn_wavefront.cu ] || patch -p1 -s < bench/results/2026-12-07-wavefront/not-run-wavefront.patch || exit 1
DEADLINE=${DEADLINE:-585}  # seconds the call may take (less where the device budget gives less)
left() { echo $(( DEADLINE - (SECONDS-start) - ${1:-0} )); }
upto() { local v=$(left $1); echo $(( v < $2 ? v : $2 )); }  # left $1, at most $2 seconds
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build.txt 2>&1 || { tail -30 $O/build.txt | tee -a $S; exit 1; }
gzip -f $O/build.txt
t build
b=build/tools/bench/librednn-bench
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
# First a quick look: the new test on CUDA, and one batch-1 row each way (a hang here shows before the lane).
LIBREDNN_OP_TEST_BACKEND=cuda timeout 60 build/tests/librednn_op_tests --gtest_filter='Rnn.InferenceOfWavefront*' --gtest_brief=1 > $O/wf-test.txt 2>&1
echo "wavefront test rc $? $(grep -E '^\[  (PASSED|FAILED) ' $O/wf-test.txt | tr '\n' ' ')" | tee -a $S
rt=$(upto 110 150); [ $rt -lt 20 ] && rt=20  # leave the two bench runs their time
LIBREDNN_OP_TEST_BACKEND=cuda timeout $rt build/tests/librednn_op_tests --gtest_filter='Rnn*' --gtest_brief=1 > $O/rnn-tests.txt 2>&1
echo "Rnn* on CUDA rc $? $(grep -E '^\[  (PASSED|FAILED) ' $O/rnn-tests.txt | tr '\n' ' ')" | tee -a $S
p=$(grep "^lstm.h1024.b1.half	" bench/sets/rnn.tsv | cut -f3)
LIBREDNN_LOG_DISPATCH=1 timeout 30 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 0 --runs 1 > $O/dispatch.txt 2>&1
grep -i -m4 "wavefront\|persistent" $O/dispatch.txt | cut -c1-300 | tee -a $S
for wf in 1 0; do
  bt=$(upto 5 60); [ $bt -lt 10 ] && break
  LIBREDNN_RNN_WAVEFRONT=$wf timeout $bt $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 8 --json $O/persist-wf$wf.json --markdown $O/persist-wf$wf.md > $O/persist-wf$wf.txt 2>&1
  echo "persist set wavefront=$wf rc $?" | tee -a $S
  grep -E "^\| inference" $O/persist-wf$wf.md | cut -d'|' -f3,5,8,11 | tee -a $S
done
t quick
# Issue 14's bar table on main's batch-norm and pooling (the patch touches only the RNN; about 20 s), then
# bench/sets/rnn.tsv's inference rows against NVIDIA's standard algorithm, before the lane, which takes what is left.
[ $(left 60) -gt 30 ] && { RUNS=20 timeout $(upto 40 120) tools/bench/issue14_results.sh $O/issue14 > $O/issue14.txt 2>&1; echo "issue14 rc $?" | tee -a $S; tail -1 $O/issue14/bars.md $O/issue14/bars-measured-copy.md | tee -a $S; }
t issue14
rn=$(upto 10 120)
[ $rn -gt 30 ] && { timeout $rn $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference --runs 8 --json $O/rnn.json --markdown $O/rnn.md > $O/rnn.txt 2>&1; echo "rnn inference rc $?" | tee -a $S; }
python3 tools/bench/issue15_bars.py $O/rnn.json --persist $O/persist-wf1.json > $O/bars-rnn.md 2>&1
grep -E "Geometric|rows meet|3x" $O/bars-rnn.md | head -8 | tee -a $S
t rnn
# Then the rest of the build and the whole gpu lane, as far as the call's time goes.
[ $(left 150) -gt 60 ] && { timeout $(left 100) bash -c "LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90" > $O/build-all.txt 2>&1; echo "build all rc $?" | tee -a $S; gzip -f $O/build-all.txt; }
lane=$(upto 10 300)
[ $lane -gt 60 ] && (cd build && LIBREDNN_LOG_DISPATCH=0 timeout $lane ctest -L gpu -j4 --output-on-failure > $O/gpu-lane.txt 2>&1; echo "rc $?" >> $O/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" $O/gpu-lane.txt 2>/dev/null | tail -20 | tee -a $S
t done
