#!/usr/bin/env bash
# Prepared 2026-12-07 for the next session with device time (not run). Main as it stands, on whatever GPU is lent
# (the issues' bars are the H200's; an H100's numbers are reported as such): full build, the whole gpu lane, then
# issue 15's set against NVIDIA (inference and training steps, bench/sets/rnn.tsv) and NVIDIA's persistent algorithm
# (bench/sets/rnn-persist.tsv), tabulated by tools/bench/issue15_bars.py. Everything in one archive ($OUT/all.tgz:
# the device returns few files). Run from the repository root, timeout 600. call-2.sh follows on the warm machine.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS; mkdir -p /tmp/o; S=/tmp/o/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
trap 'tar czf $OUT/all.tgz -C /tmp o; cp $S $OUT/summary.txt' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee -a $S
git log --oneline -1 | tee -a $S   # the device's .git may lag the working tree: the commit is the session's note
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/o/build.txt 2>&1 || { tail -30 /tmp/o/build.txt | tee -a $S; exit 1; }
gzip -f /tmp/o/build.txt
t build
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 330 ctest -L gpu -j4 --output-on-failure > /tmp/o/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/o/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" /tmp/o/gpu-lane.txt | tail -20 | tee -a $S
t lane
b=build/tools/bench/librednn-bench
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
left=$(( 560 - (SECONDS-start) ))
[ $left -gt 40 ] && { timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 8 --json /tmp/o/rnn.json --markdown /tmp/o/rnn.md > /tmp/o/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $S; }
left=$(( 585 - (SECONDS-start) ))
[ $left -gt 15 ] && { timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 8 --json /tmp/o/rnn-persist.json > /tmp/o/rnn-persist.txt 2>&1; echo "rnn persist rc $?" | tee -a $S; }
python3 tools/bench/issue15_bars.py /tmp/o/rnn.json --persist /tmp/o/rnn-persist.json > /tmp/o/bars-rnn.md 2>&1
grep -E "Geometric|rows meet" /tmp/o/bars-rnn.md | tee -a $S
t done
