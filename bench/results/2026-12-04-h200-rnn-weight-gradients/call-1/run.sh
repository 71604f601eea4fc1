#!/usr/bin/env bash
# Call 1 (session 8): main (311a076) — the gpu lane; Rnn* on CUDA under three seeds (one with the persistent
# kernels, the split product and wgmma off): the first GPU run of the RNN backward interval bounds,
# RnnBackward.MatchesTheReferenceBackwardPass on CUDA double and the fused-step trial at hidden 144; then the whole
# RNN set against NVIDIA (inference, step) and the batch-64 rows pass by pass.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && timeout 280 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
for s in 1201 1202 1203; do e=""; [ $s = 1202 ] && e="LIBREDNN_RNN_PERSISTENT=0 LIBREDNN_RNN_SPLIT_STEP=0 LIBREDNN_GEMM_TF32_WGMMA=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed|radius" /tmp/ops-$s.txt | head -8 | cut -c1-400
done | tee -a $OUT/summary.txt
t tests
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown $OUT/vs-nvidia.md > /tmp/bench.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2-6,8,11 | tee -a $OUT/summary.txt
t bench
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 150 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir fwd,bwd_data,bwd_weights --runs 10 --markdown $OUT/passes.md > /tmp/passes.txt 2>&1; echo "passes rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/passes.md | cut -d'|' -f2-6,8,11 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ops-1201.txt ops-1202.txt ops-1203.txt bench.txt passes.txt 2>/dev/null
