#!/usr/bin/env bash
# Call 3 (session 11): call 2 found backward weights slower for float data too (which takes no half factors): the
# products' epilogue no longer carries the scales (only the half kernel and its split sum undo them). The GEMM tests
# (the integer case's bias and C integers too); Nsight Compute's kernel times of backward weights (half and float,
# LSTM h1024 b64; the cluster kernel off so that ncu gets through backward data); the A/B against main, and with
# half factors switched off (LIBREDNN_RNN_F16_WEIGHTS=0) to part their effect from the rest.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-3
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < $R/gpu-3-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=6 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
tg="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_gpu_tests"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$tg" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
timeout 100 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.*:RnnPersistentSteps.*' > /tmp/gemm.txt 2>&1; echo "gemm tests rc $?" | tee -a $OUT/summary.txt
grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|Failure" /tmp/gemm.txt | head -20 | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench
for row in lstm.h1024.b64.half lstm.h1024.b64.float; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  LIBREDNN_RNN_CLUSTER_STEP=0 timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --warmup 0 --runs 1 > /tmp/ncu-$row.csv 2>/tmp/ncu-$row.err
  echo "ncu $row bwd_filter rc $?" | tee -a $OUT/summary.txt
  python3 - /tmp/ncu-$row.csv <<'PY' | tee -a $OUT/summary.txt
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
r = list(csv.reader(rows)); h = r[0]; ki = h.index('Kernel Name'); ti = h.index('gpu__time_duration.sum')
seq = [(x[ki][:70], float(x[ti].replace(',', '')) / 1000) for x in r[2:] if x[ti].replace(',', '').replace('.', '').isdigit()]
# the last backward weights call: from the last rnn_store_sequences / wgmma (backward data's W^T dG) on
last = max(i for i, (k, v) in enumerate(seq) if 'gemm_tf32_wgmma_kernel' in k)
tot = 0
for k, v in seq[last + 1:]:
    print("   %8.1f us  %s" % (v, k)); tot += v
print("   total %.1f us" % tot)
PY
  gzip -c /tmp/ncu-$row.csv > $OUT/ncu-$row.csv.gz
done
t ncu
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
LIBREDNN_RNN_F16_WEIGHTS=0 timeout 120 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter --runs 8 --markdown $OUT/vs-main-f16-off.md > /tmp/ab-off.txt 2>&1; echo "A/B f16 off rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main-f16-off.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
tar czf $OUT/logs.tgz -C /tmp gemm.txt ab.txt ab-off.txt base-build.txt 2>/dev/null
