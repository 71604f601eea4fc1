#!/usr/bin/env bash
# Call 2 (session 11): half factors for half data's weight gradients (gemm_tf32_tma.cu's kernel on halves, the RNN's
# turning kernel writing scaled halves) and the cluster kernel's lengths-and-sums change (call 1). The new GEMM tests,
# the RNN op tests on CUDA with every product's operands prepared (the half-factor path for half data) and as they
# run by default; --check against NVIDIA; the A/B against main (this tree with gpu-2-main.patch reversed).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-2
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < $R/gpu-2-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=6 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
timeout 120 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnPersistentSteps.*' > /tmp/gemm.txt 2>&1; echo "gemm tests rc $?" | tee -a $OUT/summary.txt
grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure|error" /tmp/gemm.txt | head -30 | tee -a $OUT/summary.txt
for seed in 1801 1802; do
  LIBREDNN_TEST_SEED=$seed LIBREDNN_OP_TEST_BACKEND=cuda LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1 LIBREDNN_LOG_DISPATCH=0 timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/rnn-prepared-$seed.txt 2>&1; echo "rnn prepared seed $seed rc $? $(grep -E '^\[  PASSED|FAILED  \]' /tmp/rnn-prepared-$seed.txt | head -3 | tr '\n' ' ')" | tee -a $OUT/summary.txt
done
LIBREDNN_TEST_SEED=1803 LIBREDNN_OP_TEST_BACKEND=cuda timeout 150 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/rnn-default.txt 2>&1; echo "rnn default rc $? $(grep -E '^\[  PASSED|FAILED  \]' /tmp/rnn-default.txt | head -3 | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -h -B2 -A12 "Failure" /tmp/rnn-*.txt | head -60 | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter,bwd_data --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^(bwd_filter|bwd_data)" /tmp/check.txt | cut -c1-200 | tee -a $OUT/summary.txt
t check
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
left=$((570 - (SECONDS - start)))
timeout $left $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter,bwd_data,step --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
tar czf $OUT/logs.tgz -C /tmp gemm.txt rnn-prepared-1801.txt rnn-prepared-1802.txt rnn-default.txt check.txt ab.txt base-build.txt 2>/dev/null
