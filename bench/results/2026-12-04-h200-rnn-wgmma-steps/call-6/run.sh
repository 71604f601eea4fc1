#!/usr/bin/env bash
# Call 6 (session 10): as many stages of h / of the gate gradients as fit beside R in both wgmma persistent kernels
# (the forward up to 6, backward data's cluster kernel up to 8; chunks c + 1 .. c + stages - 2 in flight, the sums in
# the stages' room), plus call 5's lengths in registers and partial sums loaded together. --check against NVIDIA;
# A/B against main (this tree with gpu-6-main.patch reversed); the gpu lane; the whole RNN set against NVIDIA.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
rm -rf /tmp/base; mkdir -p /tmp/base && tar --exclude=./build -cf - . | tar -xf - -C /tmp/base
(cd /tmp/base && patch -p1 -R -s < gpu-6-main.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train" LIBREDNN_JOBS=6 scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.txt 2>&1; echo "base build rc $?" >> /tmp/base-build.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
(grep "^name" bench/sets/rnn.tsv; grep -E "\.b64\." bench/sets/rnn.tsv) > /tmp/b64.tsv
timeout 90 $b --lib build/src/libcudnn.so.8 --vs $nv --set /tmp/b64.tsv --dir inference,bwd_data --check > /tmp/check.txt 2>&1; echo "check rc $?" | tee -a $OUT/summary.txt
grep -E "^(inference|bwd_data)" /tmp/check.txt | cut -c1-200 | tee -a $OUT/summary.txt
t check
wait; tail -1 /tmp/base-build.txt | tee -a $OUT/summary.txt
timeout 150 $b --lib build/src/libcudnn.so.8 --vs /tmp/base/build/src/libcudnn.so.8 --set /tmp/b64.tsv --dir fwd,bwd_data,inference,step --runs 10 --markdown $OUT/vs-main.md > /tmp/ab.txt 2>&1; echo "A/B rc $?" | tee -a $OUT/summary.txt
grep -h "^| [a-z]" $OUT/vs-main.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt
t ab
left=$((560 - (SECONDS - start)))
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout $left ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Test +#" /tmp/gpu-lane.txt | tail -70 | tee -a $OUT/summary.txt
t lane
tar czf $OUT/logs.tgz -C /tmp check.txt ab.txt gpu-lane.txt base-build.txt 2>/dev/null
