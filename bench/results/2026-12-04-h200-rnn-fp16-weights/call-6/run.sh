#!/usr/bin/env bash
# Call 6 (session 11): call 5 had float data's backward weights 8-11% slower (the bias pass's new maximum tracking ran
# for float data too, and the pass moved before the products): now a kernel of its own where maxima are wanted and the
# old order elsewhere. The RNN op tests with every product's operands prepared; the A/B against main.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-6
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
(cd /tmp/base && patch -p1 -R -s < $R/gpu-6-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs" LIBREDNN_JOBS=6 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
LIBREDNN_TEST_SEED=2001 LIBREDNN_OP_TEST_BACKEND=cuda LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1 timeout 70 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/rnn-prepared.txt 2>&1; echo "rnn prepared rc $? $(grep -E '^\[  PASSED|FAILED  \]' /tmp/rnn-prepared.txt | head -3 | tr '\n' ' ')" | tee -a $OUT/summary.txt
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
left=$((270 - (SECONDS - start)))
timeout $left $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter,step --runs 6 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
tar czf $OUT/logs.tgz -C /tmp rnn-prepared.txt ab.txt base-build.txt 2>/dev/null
