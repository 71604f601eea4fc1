#!/usr/bin/env bash
# Call 5 (session 9): call 4's cluster kernel with the cells' inputs loaded before the product (the backward cell split
# into rnn_cell_backward_inputs and rnn_cell_backward_unit_from, used by every CUDA backward path), three chunks of
# the gate gradients in flight, R staged eight loads at a time. --check against NVIDIA on the batch-64 rows' backward
# data; Rnn* on CUDA (one seed with the kernel, one with LIBREDNN_RNN_CLUSTER_STEP=0); A/B against main (this tree
# with gpu-5-main.patch reversed); then the gpu lane as far as the time allows.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < gpu-5-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir bwd_data --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^bwd_data" /tmp/check.txt | cut -c1-200 | tee -a $OUT/summary.txt
for s in 1511 1512; do e=""; [ $s = 1512 ] && e="LIBREDNN_RNN_CLUSTER_STEP=0"
  env $e LIBREDNN_TEST_SEED=$s LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/ops-$s.txt 2>&1; echo "rc $?" >> /tmp/ops-$s.txt
  echo "rnn ops $s $e: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/ops-$s.txt | tr '\n' ' ')"; grep -E "Failure|FAILED \]|the reference|allowed|radius" /tmp/ops-$s.txt | head -8 | cut -c1-400
done | tee -a $OUT/summary.txt
t tests
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
timeout 90 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir bwd_data,step --runs 10 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
left=$((540 - (SECONDS - start)))
(cd build && timeout $left ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Test +#" /tmp/gpu-lane.txt | tail -70 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp check.txt ops-1511.txt ops-1512.txt ab.txt gpu-lane.txt base-build.txt 2>/dev/null
