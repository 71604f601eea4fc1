#!/usr/bin/env bash
# Call 5: the persistent fused TF32 step with R staged as the mma's A fragments (no register moves) and h rounded
# to TF32 once, beside each h, by the cell that writes it (the tree of this call) against 6f41900 (the same tree
# with gpu-5-revert.patch reversed, built beside it): Rnn* op tests (persistent, and one step a launch); batch-64
# inference and training forward A/B; batch-64 inference and training step against NVIDIA cuDNN; Nsight Compute on
# one persistent launch.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
echo "device tree HEAD $(git rev-parse --short HEAD)" | tee -a $OUT/summary.txt
mkdir -p /tmp/prev && tar --exclude=./build -cf - . | tar -xf - -C /tmp/prev
(cd /tmp/prev && patch -R -p1 -s < gpu-5-revert.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/pbuild.txt 2>&1; echo "6f41900 build rc $?" >> /tmp/pbuild.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
for s in 1001 1002; do e=""; [ $s = 1002 ] && e="LIBREDNN_RNN_PERSISTENT=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops-$s.txt | head -6
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/pbuild.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; m=/tmp/prev/build/src/libcudnn.so.8; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $m --set /tmp/b64.tsv --dir inference,fwd --runs 10 --markdown $OUT/b64-vs-6f41900.md > /tmp/b64.txt 2>&1; echo "b64 A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/b64-vs-6f41900.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
timeout 60 ncu --clock-control none --kernel-name regex:fused_step_tf32 --launch-count 1 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,lts__t_bytes.sum.per_second,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --runs 1 > /tmp/ncu-new.txt 2>&1
echo "ncu persistent:"; grep -E "gpu__|smsp__|lts__" /tmp/ncu-new.txt | sed 's/  */ /g; s/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | tee -a $OUT/summary.txt
t ncu
timeout 150 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir inference,step --runs 10 --json $OUT/b64-vs-nvidia.json --markdown $OUT/b64-vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/b64-vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ops-1001.txt ops-1002.txt b64.txt ncu-new.txt nv.txt pbuild.txt 2>/dev/null
