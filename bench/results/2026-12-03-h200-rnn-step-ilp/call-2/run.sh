#!/usr/bin/env bash
# Call 2: where the persistent fused TF32 step's time goes at hidden 1024, batch 64 (19.5 us a step). A throwaway
# build with LIBREDNN_FUSED_EXPERIMENT (experiment.patch; timing only, the results are wrong): 1 copies a
# quarter of h (the L2 traffic a 4-block cluster multicasting h would leave), 2 no h, 3 no grid barrier between
# steps, 4 no cell (no inputs loaded, no h written). Inference of the two h1024 float problems under each; Nsight
# Compute's warp states on the persistent launch (experiment 0).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
git apply experiment.patch || exit 1
LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench
(grep "^name" bench/sets/rnn.tsv; grep -E "h1024\.b64\.float" bench/sets/rnn.tsv) > /tmp/h1024.tsv
for e in 0 1 2 3 4; do
  LIBREDNN_FUSED_EXPERIMENT=$e timeout 60 $b --lib build/src/libcudnn.so.8 --set /tmp/h1024.tsv --dir inference --runs 10 --markdown /tmp/e$e.md > /tmp/e$e.txt 2>&1
  echo "experiment $e rc $?: $(grep -h '^| inference | [lg]' /tmp/e$e.md | cut -d'|' -f3,4 | tr '\n' ' ')"
done | tee -a $OUT/summary.txt
t experiments
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
timeout 120 ncu --clock-control none --kernel-name regex:fused_step_tf32 --launch-count 1 --section WarpStateStats --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum,lts__t_bytes.sum.per_second,sm__throughput.avg.pct_of_peak_sustained_elapsed $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --runs 1 > /tmp/ncu-persist.txt 2>&1
grep -vE "^==PROF==|^ *$|^\s*-+\s*$" /tmp/ncu-persist.txt | grep -E "Stall|stall|duration|lts__|throughput|Throughput|Hit|Warp Cycles|Issued|Busy|Bandwidth" | sed 's/  */ /g' | head -40 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ncu-persist.txt e0.txt e1.txt e2.txt e3.txt e4.txt e0.md e1.md 2>/dev/null
