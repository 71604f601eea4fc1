#!/usr/bin/env bash
# Main verified on the H200 (first GPU run of 6166f99's shared Lanes<T,N> and of this session's landed commits):
# full build, the gpu lane, then the kernels 6166f99 touched against NVIDIA (pooling of issue 14's set; the RNN's
# backward weights, whose finishing pass it changed) and issue 15's inference rows.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
git log --oneline -1 | tee -a $OUT/summary.txt
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/build.txt 2>&1 || { tail -30 /tmp/build.txt | tee -a $OUT/summary.txt; exit 1; }
t build
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 250 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/gpu-lane.txt | tail -30 | tee -a $OUT/summary.txt
t lane
cp /tmp/gpu-lane.txt $OUT/gpu-lane.txt
[ "${SKIP_BENCH:-0}" = 1 ] && exit 0  # the lane alone where little device time is left
b=build/tools/bench/librednn-bench; nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dtype half --layout nhwc --dir fwd,bwd --runs 20 --json $OUT/pool-half-nhwc.json --markdown $OUT/pool-half-nhwc.md > /tmp/p1.txt 2>&1; echo "pool half nhwc rc $?" | tee -a $OUT/summary.txt
timeout 60 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/resnet50-pool.tsv --n 256 --dtype float --layout nchw --dir fwd,bwd --runs 20 --json $OUT/pool-float-nchw.json --markdown $OUT/pool-float-nchw.md > /tmp/p2.txt 2>&1; echo "pool float nchw rc $?" | tee -a $OUT/summary.txt
timeout 120 $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,bwd_filter --runs 8 --json $OUT/rnn-vs-nvidia.json --markdown $OUT/rnn-vs-nvidia.md > /tmp/r1.txt 2>&1; echo "rnn rc $?" | tee -a $OUT/summary.txt
for f in pool-half-nhwc pool-float-nchw rnn-vs-nvidia; do echo "== $f" | tee -a $OUT/summary.txt; grep -h "^| [a-z]" $OUT/$f.md | cut -d'|' -f2,3,5,8,11 | tee -a $OUT/summary.txt; done
python3 tools/bench/issue15_bars.py $OUT/rnn-vs-nvidia.json > $OUT/bars-rnn.md 2>&1
t bench
cp /tmp/gpu-lane.txt $OUT/gpu-lane.txt
