#!/usr/bin/env bash
# Prepared 2026-12-07 for the next session with device time (not run). Main as it stands, on whatever GPU is lent
# (the issues' bars are the H200's; an H100's numbers are reported as such): full build, the whole gpu lane, then
# issue 15's set against NVIDIA (inference and training steps, bench/sets/rnn.tsv) and NVIDIA's persistent algorithm
# (bench/sets/rnn-persist.tsv), tabulated by tools/bench/issue15_bars.py. Everything in one archive ($OUT/all.tgz:
# the device returns few files). Run from the repository root, timeout 600. call-2.sh follows on the warm machine.
source "$(dirname "$0")/common.sh" o
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build.txt 2>&1 || { tail -30 $O/build.txt | tee -a $S; exit 1; }
gzip -f $O/build.txt
t build
(cd build && LIBREDNN_LOG_DISPATCH=0 timeout 330 ctest -L gpu -j4 --output-on-failure > $O/gpu-lane.txt 2>&1; echo "rc $?" >> $O/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" $O/gpu-lane.txt | tail -20 | tee -a $S
t lane
b=build/tools/bench/librednn-bench
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
left=$(( 560 - (SECONDS-start) ))
[ $left -gt 40 ] && { timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 8 --json $O/rnn.json --markdown $O/rnn.md > $O/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $S; }
left=$(( 585 - (SECONDS-start) ))
[ $left -gt 15 ] && { timeout $left $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 8 --json $O/rnn-persist.json > $O/rnn-persist.txt 2>&1; echo "rnn persist rc $?" | tee -a $S; }
python3 tools/bench/issue15_bars.py $O/rnn.json --persist $O/rnn-persist.json > $O/bars-rnn.md 2>&1
grep -E "Geometric|rows meet" $O/bars-rnn.md | tee -a $S
t done
