#!/usr/bin/env bash
# Call 1 (session 10): where a step of the two persistent batch-64 kernels goes. A throwaway build with
# trace.patch (clock64 per phase, printed by block 0 and the last block) runs backward data (cluster kernel) and
# the forward (persistent fused TF32 step) of the batch-64 rows; Nsight Compute's warp-state, compute and memory
# sections of one launch of each kernel (lstm.h1024.b64.float).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
patch -p1 -s < trace.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
ls $b >/dev/null || { ls build/tools/bench; exit 1; }
for row in lstm.h1024.b64.float gru.h1024.b64.float lstm.h512.b64.float gru.h512.b64.half; do
  p=$(grep "^$row	" bench/sets/rnn.tsv | cut -f3)
  for d in bwd_data fwd; do
    timeout 60 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir $d --warmup 1 --runs 3 > /tmp/tr.txt 2>&1
    echo "== $row $d rc $? $(grep -E '^(fwd|bwd)' /tmp/tr.txt | tail -1 | cut -c1-120)" | tee -a $OUT/summary.txt
    grep TRACE /tmp/tr.txt | sort | uniq -c | sort -rn | head -4 | cut -c1-400 | tee -a $OUT/summary.txt
  done
done
t trace
p=$(grep "^lstm.h1024.b64.float	" bench/sets/rnn.tsv | cut -f3)
for d in bwd_data:cluster_backward fwd:fused_step_tf32; do
  timeout 200 ncu --clock-control none -k regex:${d#*:} --launch-count 1 --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section InstructionStats --csv --page details $b --lib build/src/libcudnn.so.8 --problem "$p" --dir ${d%%:*} --warmup 0 --runs 1 > $OUT/ncu-${d%%:*}.csv 2>/tmp/ncu.err
  echo "ncu $d rc $? lines $(wc -l < $OUT/ncu-${d%%:*}.csv)" | tee -a $OUT/summary.txt
  grep -E "Duration|Stall|Shared|Issue Slots|Executed Ipc|Tensor|L2 Cache Throughput|Warp Cycles" $OUT/ncu-${d%%:*}.csv | cut -d, -f13- | head -60 >> $OUT/summary.txt
done
t done
