#!/usr/bin/env bash
# Prepared 2026-12-07 (not run). Where batch-1 inference's time goes (issue 15's 3x bar), on main: the persistent
# forward with clock64 around each phase of a step (trace-persistent-forward.patch: products, the block barrier,
# the cell, the grid barrier; printed by block 0 and the last block at each launch's end), over the batch-1 rows of
# bench/sets/rnn.tsv; then Nsight Compute's kernel list of one lstm.h1024.b1 inference, half and float (what runs
# outside the persistent launches, and each kernel's time against the bench's whole call). One archive. Timeout 300.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS; mkdir -p /tmp/o3; S=/tmp/o3/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
trap 'tar czf $OUT/all.tgz -C /tmp o3; cp $S $OUT/summary.txt' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee -a $S
b=build/tools/bench/librednn-bench
# Untraced times first (main's build, if call-1/2 left one), then the traced build.
for row in lstm.h1024.b1.half lstm.h1024.b1.float; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for k in 1 2; do
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 0 --runs 1 > /tmp/o3/ncu-$row.csv 2>/tmp/o3/ncu-$row.err && break
    LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/o3/build-main.txt 2>&1 || exit 1
  done
  python3 - /tmp/o3/ncu-$row.csv <<'PY' | tee -a $S
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
head = next((r for r in rows if "Kernel Name" in r), None)
if head is None:
    sys.exit("no kernel table")
name, dur = head.index("Kernel Name"), head.index("gpu__time_duration.sum")
sums, count = collections.OrderedDict(), collections.Counter()
for r in rows[rows.index(head) + 1:]:
    try:
        ns = float(r[dur].replace(",", ""))
    except ValueError:
        continue
    k = r[name][:80]
    sums[k] = sums.get(k, 0.0) + ns
    count[k] += 1
print("%s: %d kernels, %.1f us in all" % (sys.argv[1], sum(count.values()), sum(sums.values()) / 1e3))
for k, ns in sums.items():
    print("%6d launches %10.1f us  %s" % (count[k], ns / 1e3, k))
PY
done
t ncu
patch -p1 -s < bench/results/2026-12-07-next-calls/trace-persistent-forward.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/o3/build.txt 2>&1 || { tail -20 /tmp/o3/build.txt | tee -a $S; exit 1; }
t build
for row in $(grep -E "\.b1\." bench/sets/rnn.tsv | cut -f1); do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  timeout 40 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 1 --runs 3 > /tmp/o3/trace-$row.txt 2>&1
  echo "== $row rc $? $(grep -E '^inference' /tmp/o3/trace-$row.txt | tail -1 | cut -c1-90)" | tee -a $S
  grep TRACE /tmp/o3/trace-$row.txt | sed 's/total [0-9]* //' | sort | uniq -c | sort -rn | head -4 | cut -c1-260 | tee -a $S
done
t trace
