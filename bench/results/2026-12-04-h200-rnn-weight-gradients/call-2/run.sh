#!/usr/bin/env bash
# Call 2: the weight gradients from turned operands (rnn_backward_weights.cu: gate gradients, layer input and
# previous h K-major and TF32) on gemm_tf32's new tensor memory accelerator kernel (gemm_tf32_tma.cu). Main's
# tree (this tree with gpu-2-main.patch reversed) is built beside it for an A/B in the same process.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < gpu-2-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train librednn-bench" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
timeout 200 build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32*:RnnProducts*' > /tmp/gemm.txt 2>&1; echo "rc $?" >> /tmp/gemm.txt
echo "gemm tests: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/gemm.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "Failure|FAILED \]|Which is|Expected|tma m" /tmp/gemm.txt | head -12 | cut -c1-300 | tee -a $OUT/summary.txt
for s in 1211 1212; do e=""; [ $s = 1212 ] && e="LIBREDNN_GEMM_TF32_TMA=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 120 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed" /tmp/ops-$s.txt | head -6 | cut -c1-300
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 120 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set bench/sets/rnn.tsv --dir bwd_filter,step --runs 10 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
LIBREDNN_GEMM_TF32_TMA=0 timeout 100 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_filter --runs 10 --markdown $OUT/no-tma-vs-main.md > /tmp/ab2.txt 2>&1; echo "no-TMA A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/no-tma-vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
timeout 100 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_filter,step --runs 10 --markdown $OUT/vs-nvidia.md > /tmp/nv.txt 2>&1; echo "vs NVIDIA rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-nvidia.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
p=$(grep "lstm.h1024.b64.float" bench/sets/rnn.tsv | cut -f3)
timeout 60 ncu --clock-control none --kernel-name regex:"gemm_tf32|turn_tf32" --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,dram__bytes.sum.per_second --launch-count 12 $b --lib build/src/libcudnn.so.8 --problem "$p" --dir bwd_filter --runs 1 > /tmp/ncu.txt 2>&1
grep -E "^  [a-z_]+.*\(|duration|throughput|per_second" /tmp/ncu.txt | sed 's/(Tf32Args.*//; s/(CUtensorMap.*//; s/  */ /g' | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gemm.txt ops-1211.txt ops-1212.txt ab.txt ab2.txt nv.txt ncu.txt base-build.txt 2>/dev/null
