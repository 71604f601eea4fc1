#!/usr/bin/env bash
# Prepared 2026-12-07 (not run). Where batch-1 inference's time goes (issue 15's 3x bar), on main: the persistent
# forward with clock64 around each phase of a step (trace-persistent-forward.patch: products, the block barrier,
# the cell, the grid barrier; printed by block 0 and the last block at each launch's end), over the batch-1 rows of
# bench/sets/rnn.tsv; then Nsight Compute's kernel list of one lstm.h1024.b1 inference, half and float (what runs
# outside the persistent launches, and each kernel's time against the bench's whole call). Each traced row also runs
# with LIBREDNN_TRACE_RED_BARRIER=1 (the patch's experiment: the grid barrier as one red.release.gpu add and
# ld.acquire polling of a zeroed counter, instead of cooperative_groups' atom with return): what the barrier's own
# round trips cost. One archive. Timeout 300.
source "$(dirname "$0")/common.sh" o3
b=build/tools/bench/librednn-bench
# Untraced times first (main's build, if call-1/2 left one), then the traced build.
for row in lstm.h1024.b1.half lstm.h1024.b1.float; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for k in 1 2; do
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 0 --runs 1 > $O/ncu-$row.csv 2>$O/ncu-$row.err && break
    LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build-main.txt 2>&1 || exit 1
  done
  python3 tools/bench/ncu_kernel_times.py $O/ncu-$row.csv | tee -a $S
done
t ncu
patch -p1 -s < bench/results/2026-12-07-next-calls/trace-persistent-forward.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build.txt 2>&1 || { tail -20 $O/build.txt | tee -a $S; exit 1; }
t build
for row in $(grep -E "\.b1\." bench/sets/rnn.tsv | cut -f1); do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for red in 0 1; do  # 1: the grid barrier as red.release + ld.acquire polling instead of cooperative_groups' sync
    env $([ $red = 1 ] && echo LIBREDNN_TRACE_RED_BARRIER=1) timeout 40 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --warmup 1 --runs 3 > $O/trace-$row-red$red.txt 2>&1
    echo "== $row red $red rc $? $(grep -E '^inference' $O/trace-$row-red$red.txt | tail -1 | cut -c1-90)" | tee -a $S
    grep TRACE $O/trace-$row-red$red.txt | sed 's/total [0-9]* //' | sort | uniq -c | sort -rn | head -4 | cut -c1-260 | tee -a $S
  done
done
t trace
