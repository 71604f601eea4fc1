#!/usr/bin/env bash
# Call 3 (session 12): why the GRU's h1024 backward weights take 680 us against the LSTM's 468 (at h512 they are
# even): Nsight Compute's kernel times of backward weights for gru.h1024.b64 (half, float) and lstm.h1024.b64.half
# on 3bbc003 (the cluster kernel off so that ncu gets through backward data). The CSVs come back for the analysis.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
tg="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$tg" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
for row in gru.h1024.b64.half lstm.h1024.b64.half gru.h1024.b64.float; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  LIBREDNN_RNN_CLUSTER_STEP=0 timeout 80 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --warmup 0 --runs 1 > /tmp/ncu-$row.csv 2>/tmp/ncu-$row.err
  echo "ncu $row bwd_filter rc $? $(wc -l < /tmp/ncu-$row.csv) lines" | tee -a $OUT/summary.txt
  gzip -c /tmp/ncu-$row.csv > $OUT/ncu-$row.csv.gz
  t $row
done
