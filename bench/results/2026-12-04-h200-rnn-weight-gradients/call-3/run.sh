#!/usr/bin/env bash
# Call 3: call 2's change with the split plan's three-quarter rule, the 512-step threshold for TF32 operands, and
# the forward's W x on TF32 operands (the tensor memory accelerator's kernel). The gpu lane (with the new
# OpsCuda.RnnTf32Operands), Rnn* under one more seed with TF32 operands everywhere; A/B against main (this tree
# with gpu-3-main.patch reversed) and against NVIDIA on the whole RNN set; Nsight Compute on the forward's products.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < gpu-3-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && timeout 280 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1 LIBREDNN_TEST_SEED=1221 LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-1221.txt 2>&1; echo "rc $?" >> /tmp/ops-1221.txt
echo "rnn ops 1221 tf32 operands: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-1221.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|the reference|allowed" /tmp/ops-1221.txt | head -6 | cut -c1-300 | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 150 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,fwd,bwd_filter,step --runs 10 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
timeout 200 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 10 --markdown $OUT/vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t nv
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
timeout 60 ncu --clock-control none --kernel-name regex:"gemm_tf32|round_tf32" --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second --launch-count 8 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir inference --runs 1 > /tmp/ncu.txt 2>&1
grep -E "^  [a-z_]+.*\(|duration|throughput|per_second" /tmp/ncu.txt | sed 's/(Tf32Args.*//; s/(CUtensorMap.*//; s/  */ /g' | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt ops-1221.txt ab.txt nv.txt ncu.txt base-build.txt 2>/dev/null
