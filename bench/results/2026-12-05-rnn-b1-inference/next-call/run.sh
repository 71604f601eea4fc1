#!/usr/bin/env bash
# Ready for a later session, not run (prepared 2026-12-05, no device lent). Issue 15's batch-1 inference (three rows
# short of 3x NVIDIA: ../README.md). One call, about 6 minutes:
#  - main + ../not-run-persistent-exchange.patch (the persistent forward's blocks pass h through a tagged exchange
#    instead of a grid-wide barrier a step; LIBREDNN_RNN_PERSISTENT_EXCHANGE=0 keeps the barrier, read at each call)
#    + ../not-run-weights-in-place.patch (float data's forward and backward data read the weight space where it lies
#    instead of converting a copy each call; LIBREDNN_RNN_WEIGHTS_IN_PLACE=0 keeps the copy, read once)
#    + trace.patch (clock64 around each phase of a step, printed once a launch by block 0 and the last block);
#  - the RNN op tests on CUDA with the exchange (default) and without, among them the new
#    RnnBackward.PersistentExchangeGivesTheGridBarriersBits (40-50 steps, the two ways bit for bit);
#  - the batch-1 rows of bench/sets/rnn.tsv in inference with the trace, both ways: cycles a step per phase;
#  - both ways' times (inference and step, batch 1) in one bench process each, then against NVIDIA (inference);
#  - Nsight Compute's per-kernel times of one lstm.h1024.b1.float inference (what runs outside the persistent
#    launches: W x, state copies, launch gaps against the bench's time).
# Run from the repository root: bash bench/results/2026-12-05-rnn-b1-inference/next-call/run.sh
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
D=bench/results/2026-12-05-rnn-b1-inference
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv | tee -a $OUT/summary.txt
patch -p1 -s < $D/not-run-persistent-exchange.patch || exit 1
patch -p1 -s < $D/not-run-weights-in-place.patch || exit 1
patch -p1 -s < $D/next-call/trace.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
# Every RNN test with the exchange (the default); the persistent forward's own test with the barrier too (the new
# test switches between the two itself). OpsCuda.RnnPersistentGridBarriers runs them all so in the gpu lane.
for mode in 1 0; do
  filter='Rnn*'; [ $mode = 0 ] && filter='Rnn.ForwardOfPersistentSteps*:RnnBackward.FloatAndHalfMatchDoubleOnPersistentSteps'
  LIBREDNN_RNN_PERSISTENT_EXCHANGE=$mode LIBREDNN_OP_TEST_BACKEND=cuda LIBREDNN_TEST_SEED=2051$mode timeout 200 build/tests/librednn_op_tests --gtest_filter="$filter" --gtest_brief=1 > /tmp/ops-$mode.txt 2>&1
  echo "$filter on CUDA, exchange $mode: rc $? $(grep -E '^\[  (PASSED|FAILED) ' /tmp/ops-$mode.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED  \]" /tmp/ops-$mode.txt | head -10 | tee -a $OUT/summary.txt
done
t tests
b=build/tools/bench/librednn-bench
for row in lstm.h1024.b1.float lstm.h1024.b1.half gru.h1024.b1.float lstm.h512.b1.float gru.h512.b1.half; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for mode in 1 0; do
    LIBREDNN_RNN_PERSISTENT_EXCHANGE=$mode timeout 40 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 1 --runs 5 > /tmp/tr-$row-$mode.txt 2>&1
    echo "== $row inference exchange $mode rc $? $(grep -E '^inference' /tmp/tr-$row-$mode.txt | tail -1 | cut -c1-100)" | tee -a $OUT/summary.txt
    grep TRACE /tmp/tr-$row-$mode.txt | sed 's/total [0-9]* //' | sort | uniq -c | sort -rn | head -4 | cut -c1-300 | tee -a $OUT/summary.txt
  done
done
t trace
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b1\." bench/sets/rnn.tsv) > /tmp/b1.tsv
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
# Both patches on; the exchange off; the weights' copy back (each switch alone against "on").
for config in on:1:1 exchange-off:0:1 copy-weights:1:0; do
  IFS=: read name ex wp <<< "$config"
  LIBREDNN_RNN_PERSISTENT_EXCHANGE=$ex LIBREDNN_RNN_WEIGHTS_IN_PLACE=$wp timeout 60 $b --lib build/src/libcudnn.so.8 --set /tmp/b1.tsv --dir inference,step --runs 8 --json $OUT/b1-$name.json --markdown $OUT/b1-$name.md > /tmp/b1-$name.txt 2>&1
  echo "b1 $name rc $?" | tee -a $OUT/summary.txt; grep -h "^| [a-z]" $OUT/b1-$name.md | cut -d'|' -f2,3,5 | tee -a $OUT/summary.txt
done
timeout 90 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b1.tsv --dir inference --runs 8 --json $OUT/b1-vs-nvidia.json --markdown $OUT/b1-vs-nvidia.md > /tmp/b1-nv.txt 2>&1
echo "b1 vs NVIDIA rc $?" | tee -a $OUT/summary.txt
python3 tools/bench/issue15_bars.py $OUT/b1-vs-nvidia.json > $OUT/bars-b1.md 2>&1; grep -E "^\| inference|Geometric" $OUT/bars-b1.md | tee -a $OUT/summary.txt
t bench
p=$(grep "^lstm.h1024.b1.float	" bench/sets/rnn.tsv | cut -f3)
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 0 --runs 1 > /tmp/ncu-b1.csv 2>/tmp/ncu-b1.err
echo "ncu rc $? $(wc -l < /tmp/ncu-b1.csv) lines" | tee -a $OUT/summary.txt
gzip -c /tmp/ncu-b1.csv > $OUT/ncu-lstm.h1024.b1.float.csv.gz
# Kernel name and time of each kernel, summed over its launches (one inference is two persistent launches).
python3 - /tmp/ncu-b1.csv <<'EOF' | tee -a $OUT/summary.txt
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
    k = r[name][:90]
    sums[k] = sums.get(k, 0.0) + ns
    count[k] += 1
for k, ns in sums.items():
    print("%6d launches %10.1f us  %s" % (count[k], ns / 1e3, k))
EOF
t done
tar czf $OUT/logs.tgz -C /tmp $(cd /tmp && ls ops-[01].txt tr-*.txt b1-*.txt ncu-b1.err 2>/dev/null)
