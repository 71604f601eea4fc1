#!/usr/bin/env bash
# Prepared 2026-12-07 (not run). After call-1.sh, on the same warm machine (its build kept): issue 14's table
# (tools/bench/issue14_results.sh: bars.md against the H200's 4150 GB/s, bars-measured-copy.md against the copy it
# measures), then ../2026-12-07-h100-rnn-check/not-run-forward-wx-fixed.patch + ../2026-12-04-h200-rnn-input-gradient-tma/
# not-run-bias-pass-loads.patch: the RNN tests on CUDA (with the TF32 threshold at one step, and the seed that failed
# on 2026-12-07) and the A/B against main's libraries over rnn.tsv (inference, step, and bwd_filter for the second
# patch). One archive. Timeout 600.
source "$(dirname "$0")/common.sh" o2
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build-main.txt 2>&1 || { tail -20 $O/build-main.txt | tee -a $S; exit 1; }
t "build main"
RUNS=20 timeout 200 tools/bench/issue14_results.sh $O/issue14 > $O/issue14.txt 2>&1; echo "issue14 rc $?" | tee -a $S
tail -1 $O/issue14/bars.md $O/issue14/bars-measured-copy.md | tee -a $S
t issue14
rm -rf /tmp/base && mkdir -p /tmp/base && cp -a build/src/libcudnn*.so* /tmp/base/
patch -p1 -s < bench/results/2026-12-07-h100-rnn-check/not-run-forward-wx-fixed.patch || exit 1
patch -p1 -s < bench/results/2026-12-04-h200-rnn-input-gradient-tma/not-run-bias-pass-loads.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs librednn-bench librednn_op_tests librednn_gpu_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build-patched.txt 2>&1 || { tail -20 $O/build-patched.txt | tee -a $S; exit 1; }
t "build patched"
ops() {  # $1 tag, $2 filter, then environment assignments
  local tag=$1 filter=$2; shift 2
  env "$@" LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter="$filter" --gtest_brief=1 > $O/ops-$tag.txt 2>&1
  echo "$tag ($filter) rc $? $(grep -E '^\[  (PASSED|FAILED) ' $O/ops-$tag.txt | tr '\n' ' ')" | tee -a $S
}
ops seed 'Rnn.ForwardOfFusedStepsMatchesReference:Rnn.BidirectionalHalfLayersAboveTheFirstMatchReference' LIBREDNN_TEST_SEED=8649450464884946495 LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1
ops tf32 'Rnn*' LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1
ops default 'Rnn*'
timeout 60 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*' --gtest_brief=1 > $O/gemm.txt 2>&1; echo "GemmTf32.* rc $? $(grep -E '^\[  (PASSED|FAILED) ' $O/gemm.txt | tr '\n' ' ')" | tee -a $S
t tests
left=$(( 585 - (SECONDS-start) ))
[ $left -gt 30 ] && { timeout $left build/tools/bench/librednn-bench --lib build/src/libcudnn.so.8 --vs /tmp/base/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step,bwd_filter --runs 8 --json $O/vs-main.json --markdown $O/vs-main.md > $O/vs-main.txt 2>&1; echo "A/B rc $?" | tee -a $S; grep -A4 "^summary" $O/vs-main.txt | tee -a $S; }
t done
