#!/usr/bin/env bash
# Call 4 (session 10): where a step of the two wgmma persistent kernels goes. A throwaway build with trace.patch
# (clock64 per phase, printed by three blocks) runs backward data (cluster kernel) and the forward of batch-64 rows;
# then Nsight Compute's time of every kernel of lstm.h1024.b64.half's three passes (the real build, rebuilt).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
patch -p1 -s < trace.patch || exit 1
tg="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench"
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$tg" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
for row in lstm.h1024.b64.float gru.h1024.b64.float lstm.h512.b64.float; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for d in bwd_data fwd; do
    timeout 60 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir $d --warmup 1 --runs 3 > /tmp/tr.txt 2>&1
    echo "== $row $d rc $? $(grep -E '^(fwd|bwd)' /tmp/tr.txt | tail -1 | cut -c1-120)" | tee -a $OUT/summary.txt
    grep TRACE /tmp/tr.txt | tail -6 | cut -c1-400 | tee -a $OUT/summary.txt
  done
done
t trace
patch -p1 -R -s < trace.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$tg" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t rebuild
p=$(grep "^lstm.h1024.b64.half	" bench/sets/rnn.tsv | cut -f3)
for d in fwd bwd_data bwd_filter; do
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir $d --warmup 0 --runs 1 > /tmp/ncu-$d.csv 2>/tmp/ncu-$d.err
  echo "ncu $d rc $?" | tee -a $OUT/summary.txt
  python3 - /tmp/ncu-$d.csv <<'PY' | tee -a $OUT/summary.txt
import csv, sys, collections
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
r = list(csv.reader(rows)); h = r[0]; ki = h.index('Kernel Name'); ti = h.index('gpu__time_duration.sum')
agg = collections.OrderedDict()
for x in r[2:]:
    try: v = float(x[ti].replace(',', ''))
    except: continue
    k = x[ki][:90]; c, s = agg.get(k, (0, 0.0)); agg[k] = (c + 1, s + v)
for k, (c, s) in sorted(agg.items(), key=lambda kv: -kv[1][1]): print("  %4d x  %9.1f us  %s" % (c, s / 1000, k))
PY
  gzip -c /tmp/ncu-$d.csv > $OUT/ncu-$d.csv.gz
done
t done
