#!/usr/bin/env bash
# Call 2: backward data's recurrent product split over blocks on TF32 tensor cores (rnn_split_product), two
# launches a step at batches 17-64. RNN op tests on CUDA (with it, and with it off), the sanitizer over the new
# test, the batch-64 passes and the whole set against NVIDIA, the kernels of a few steps under Nsight Compute.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
ops() { # tag seed filter [env]
  env $4 LIBREDNN_TEST_SEED=$2 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter="$3" > /tmp/ops.txt 2>&1; echo "rc $?" >> /tmp/ops.txt
  echo "ops $1 $2: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
  grep -E "Failure|FAILED \]|is .*, in double|allowed" /tmp/ops.txt | head -8 | tee -a $OUT/summary.txt
}
ops split 201 'RnnBackward.*Split*' X=1
ops split 202 'RnnBackward.*Split*' X=1
ops split 203 'RnnBackward.*Split*' X=1
ops rnn 204 'Rnn*' X=1
ops rnn-off 205 'Rnn*' LIBREDNN_RNN_SPLIT_STEP=0
t tests
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_data --runs 10 --markdown $OUT/bwd-data.md > /tmp/bwd.txt 2>&1; echo "bwd rc $?" | tee -a $OUT/summary.txt
grep -h "^| bwd" $OUT/bwd-data.md | cut -c1-150 | tee -a $OUT/summary.txt
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --json $OUT/rnn.json --markdown $OUT/rnn.md > /tmp/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
grep -h "^| [is]" $OUT/rnn.md | cut -c1-150 | tee -a $OUT/summary.txt
t bench
(grep "^name" bench/sets/rnn.tsv; grep -E "^lstm\.h512\.b64\.float|^lstm\.h1024\.b64\.float" bench/sets/rnn.tsv) > /tmp/p.tsv
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum --launch-skip 300 --launch-count 10 $b --lib build/src/libcudnn.so.8 --set /tmp/p.tsv --dir bwd_data --runs 1 --warmup 0 > $OUT/ncu-steps.txt 2>&1
echo "ncu rc $?" | tee -a $OUT/summary.txt
grep -E "^  [a-zA-Z_]|gpu__time_duration|sm__throughput|lts__t_bytes" $OUT/ncu-steps.txt | awk '/gpu__time|sm__thr|lts__t/{print name, $1, $NF; next} {sub(/^  (void )?/, ""); n=$0; sub(/[<(].*/, "", n); name=n}' | head -30 | tee -a $OUT/summary.txt
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed --launch-skip 0 --launch-count 400 -k regex:'gemm|finish|gather|fill|load' $b --lib build/src/libcudnn.so.8 --set /tmp/p.tsv --dir bwd_filter --runs 1 --warmup 0 > /tmp/ncu-bw.txt 2>&1
echo "ncu bw rc $?" | tee -a $OUT/summary.txt
grep -E "^  [a-zA-Z_]|gpu__time_duration" /tmp/ncu-bw.txt | awk '/gpu__time/{print name "\t" $NF; next} {sub(/^  (void )?/, ""); n=$0; sub(/[(].*/, "", n); name=n}' > $OUT/ncu-bw.txt
awk -F'\t' '{s[$1]+=$2; c[$1]++} END {for (k in s) print k "\t" c[k] "\t" s[k]}' $OUT/ncu-bw.txt | tee -a $OUT/summary.txt
t ncu
LIBREDNN_SANITIZE_OPS='RnnBackward.*Split*' LIBREDNN_SANITIZE_GPU_STEPS="" LIBREDNN_SANITIZE_EXAMPLES=0 LIBREDNN_SANITIZE_STEP_SECONDS=100 LIBREDNN_TEST_SEED=206 timeout 200 scripts/gpu_sanitize.sh memcheck racecheck > /tmp/sanitize.txt 2>&1; echo "rc $?" >> /tmp/sanitize.txt
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc |PASSED|FAILED" /tmp/sanitize.txt | head -10 | tee -a $OUT/summary.txt
t sanitize
tar czf $OUT/logs.tgz -C /tmp bwd.txt rnn.txt sanitize.txt 2>/dev/null
