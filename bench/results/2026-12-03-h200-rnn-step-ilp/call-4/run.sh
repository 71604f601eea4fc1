#!/usr/bin/env bash
# Call 4: the fused TF32 step's h copies with their rows' addresses worked out once a pass (the tree of this call)
# against cefc69e (HEAD, built beside it): Rnn* op tests (persistent, and one step a launch), batch-64 inference
# A/B, Nsight Compute on one persistent launch, and the SASS of fused_step_tf32_kernel<4, 8> (what the ~5400
# instructions a warp issues a step are).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/m && git archive HEAD | tar -x -C /tmp/m
(cd /tmp/m && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mbuild.txt 2>&1; echo "HEAD build rc $?" >> /tmp/mbuild.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
cuobjdump -sass build/src/CMakeFiles/librednn_core_objects.dir/cuda/rnn/rnn_fused_step.cu.o > /tmp/sass-all.txt 2>&1
awk '/Function : .*fused_step_tf32_kernelILi4ELi8/{p=1} p&&/Function : /&&!/fused_step_tf32_kernelILi4ELi8/{p=0} p' /tmp/sass-all.txt > /tmp/sass.txt
echo "sass lines $(wc -l < /tmp/sass.txt); ops: $(grep -oE '^\s+/\*[0-9a-f]+\*/\s+[@!A-Z0-9P_ ]*[A-Z][A-Z0-9_.]+' /tmp/sass.txt | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -25 | tr '\n' ' ')" | tee -a $OUT/summary.txt
gzip -c /tmp/sass.txt > $OUT/sass-fused-step-4-8.txt.gz
for s in 901 902; do e=""; [ $s = 902 ] && e="LIBREDNN_RNN_PERSISTENT=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|is .*, in double" /tmp/ops-$s.txt | head -6
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/mbuild.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; m=/tmp/m/build/src/libcudnn.so.8
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $m --set /tmp/b64.tsv --dir inference --runs 10 --markdown $OUT/b64-vs-head.md > /tmp/b64.txt 2>&1; echo "b64 rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/b64-vs-head.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t bench
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
st=""; for r in barrier long_scoreboard short_scoreboard math_pipe_throttle wait not_selected selected dispatch_stall no_instruction branch_resolving; do st="$st,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
timeout 100 ncu --clock-control none --kernel-name regex:fused_step_tf32 --launch-count 1 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,lts__t_bytes.sum.per_second$st $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --runs 1 > /tmp/ncu-new.txt 2>&1
echo "ncu persistent:"; grep -E "gpu__|smsp__|sm__|lts__" /tmp/ncu-new.txt | sed 's/  */ /g; s/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp ops-901.txt ops-902.txt b64.txt ncu-new.txt mbuild.txt 2>/dev/null
