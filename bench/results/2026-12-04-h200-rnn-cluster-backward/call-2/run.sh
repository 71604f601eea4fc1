#!/usr/bin/env bash
# Call 2 (session 9): where the batch-64 passes' time goes, kernel by kernel (Nsight Compute's gpu__time_duration
# of every launch): backward weights of lstm.h512.b64.half (402 us against NVIDIA's 78), backward data and forward
# of lstm.h1024.b64.float.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
prof() { # row dir
  p=$(grep "^$1	" bench/sets/rnn.tsv | cut -f3)
  timeout 170 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir $2 --warmup 1 --runs 2 > /tmp/ncu-$1-$2.csv 2>/tmp/ncu-$1-$2.err
  echo "$1 $2 rc $? lines $(wc -l < /tmp/ncu-$1-$2.csv)" | tee -a $OUT/summary.txt
  gzip -c /tmp/ncu-$1-$2.csv > $OUT/ncu-$1-$2.csv.gz
}
prof lstm.h512.b64.half bwd_filter
t p1
prof lstm.h1024.b64.float bwd_data
t p2
prof lstm.h1024.b64.float fwd
t p3
timeout 60 $b --lib build/src/libcudnn.so.8 --set /tmp/x.tsv >/dev/null 2>&1
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_filter --runs 10 > $OUT/passes.txt 2>&1
t done
