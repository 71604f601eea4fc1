#!/usr/bin/env bash
# Call 4 (session 11): the largest-magnitude pass with eight loads in flight a thread (call 3: 50 us for the LSTM
# h1024 gate gradients, 1 TB/s, ate the half products' gain). The RNN op tests on CUDA (every product's operands
# prepared: half data's weight gradients on half factors; and by default); kernel times of half backward weights; the
# A/B against main (backward weights and the training step); against NVIDIA on the batch-64 rows, with --check.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-4
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < $R/gpu-4-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=6 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
tg="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$tg" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
LIBREDNN_TEST_SEED=1901 LIBREDNN_OP_TEST_BACKEND=cuda LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1 timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/rnn-prepared.txt 2>&1; echo "rnn prepared rc $? $(grep -E '^\[  PASSED|FAILED  \]' /tmp/rnn-prepared.txt | head -3 | tr '\n' ' ')" | tee -a $OUT/summary.txt
LIBREDNN_TEST_SEED=1902 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/rnn-default.txt 2>&1; echo "rnn default rc $? $(grep -E '^\[  PASSED|FAILED  \]' /tmp/rnn-default.txt | head -3 | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -h -B2 -A12 "Failure" /tmp/rnn-*.txt | head -40 | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
p=$(grep "^lstm.h1024.b64.half	" bench/sets/rnn.tsv | cut -f3)
LIBREDNN_RNN_CLUSTER_STEP=0 timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --warmup 0 --runs 1 > /tmp/ncu.csv 2>/tmp/ncu.err
echo "ncu rc $?" | tee -a $OUT/summary.txt
python3 - /tmp/ncu.csv <<'PY' | tee -a $OUT/summary.txt
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
r = list(csv.reader(rows)); h = r[0]; ki = h.index('Kernel Name'); ti = h.index('gpu__time_duration.sum')
seq = [(x[ki][:70], float(x[ti].replace(',', '')) / 1000) for x in r[2:] if x[ti].replace(',', '').replace('.', '').isdigit()]
last = max(i for i, (k, v) in enumerate(seq) if 'finish_gradients' in k)
first = max(i for i, (k, v) in enumerate(seq[:last]) if 'finish_gradients' in k)
tot = 0
for k, v in seq[first + 1:last + 1]:
    print("   %8.1f us  %s" % (v, k)); tot += v
print("   total %.1f us" % tot)
PY
gzip -c /tmp/ncu.csv > $OUT/ncu-lstm.h1024.b64.half.csv.gz
t ncu
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^bwd_filter" /tmp/check.txt | cut -c1-200 | tee -a $OUT/summary.txt
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
timeout 150 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter,step --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
left=$((575 - (SECONDS - start)))
timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter,step --runs 8 --markdown $OUT/vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t nvidia
tar czf $OUT/logs.tgz -C /tmp rnn-prepared.txt rnn-default.txt check.txt ab.txt nv.txt base-build.txt 2>/dev/null
