#!/usr/bin/env bash
# Call 1 (session 11): the gpu lane on main (50c1778: RnnPersistentSteps has not run on a GPU yet); Nsight Compute's
# time of every kernel of the half batch-64 hidden-1024 backward-weights passes (the cluster kernel switched off so
# that ncu gets through backward data); and the A/B of lengths-and-sums-only.patch (backward data's cluster kernel
# and the wgmma forward: lengths in registers, partial sums loaded together) against main.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
R=bench/results/2026-12-04-h200-rnn-fp16-weights/call-1
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
for row in lstm.h1024.b64.half gru.h1024.b64.half; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  LIBREDNN_RNN_CLUSTER_STEP=0 timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --warmup 0 --runs 1 > /tmp/ncu-$row.csv 2>/tmp/ncu-$row.err
  echo "ncu $row bwd_filter rc $?" | tee -a $OUT/summary.txt
  python3 - /tmp/ncu-$row.csv <<'PY' | tee -a $OUT/summary.txt
import csv, sys, collections
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
r = list(csv.reader(rows)); h = r[0]; ki = h.index('Kernel Name'); ti = h.index('gpu__time_duration.sum')
agg = collections.OrderedDict()
for x in r[2:]:
    try: v = float(x[ti].replace(',', ''))
    except: continue
    k = x[ki][:100]; c, s = agg.get(k, (0, 0.0)); agg[k] = (c + 1, s + v)
for k, (c, s) in sorted(agg.items(), key=lambda kv: -kv[1][1]): print("  %4d x  %9.1f us  %s" % (c, s / 1000, k))
PY
  gzip -c /tmp/ncu-$row.csv > $OUT/ncu-$row.csv.gz
done
t ncu
rm -rf /tmp/pat; mkdir -p /tmp/pat && tar --exclude=./build -cf - . | tar -xf - -C /tmp/pat
(cd /tmp/pat && patch -p1 -s < $R/lengths-and-sums-only.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=8 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/pat-build.txt 2>&1; echo "patched build rc $?" >> /tmp/pat-build.txt) &
left=$((440 - (SECONDS - start)))
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout $left ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|RnnPersistent" /tmp/gpu-lane.txt | tail -40 | tee -a $OUT/summary.txt
t lane
wait; tail -1 /tmp/pat-build.txt | tee -a $OUT/summary.txt
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
left=$((575 - (SECONDS - start)))
timeout $left $b --lib /tmp/pat/build/src/libcudnn.so.8 --vs build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data,fwd --runs 8 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ab.txt pat-build.txt 2>/dev/null
