#!/usr/bin/env bash
# Prepared 2026-12-08 (not run). After call-1.sh, on the same machine or a fresh one: main + the patches named in
# PATCHES (default "input-products-split forward-wx-after-split state-moves", applied in that order; drop one that
# call 1 found wrong), the last of them A/B against the tree before it over bench/sets/rnn-persist.tsv (batch-1
# inference, the rows it aims at); then the whole build, issue 15's set against NVIDIA (inference and steps,
# bench/sets/rnn.tsv) and NVIDIA's persistent algorithm (bench/sets/rnn-persist.tsv) through
# tools/bench/issue15_bars.py, issue 14's table and an Nsight section run of its statistics kernel at 14 x 14, and the
# whole gpu lane (its OpsCuda runs carry the RNN op tests on CUDA). DEADLINE bounds it (default 585).
cd "$(git rev-parse --show-toplevel)"
source bench/results/2026-12-08-next-call/common.sh n2
P=bench/results/2026-12-08-next-call
set -- ${PATCHES:-input-products-split forward-wx-after-split state-moves}
while [ $# -gt 1 ]; do patch -p1 -s < $P/not-run-$1.patch || exit 1; echo "applied $1" | tee -a $S; shift; done
build before-last
rm -rf /tmp/before && mkdir -p /tmp/before && cp -a build/src/libcudnn*.so* /tmp/before/
patch -p1 -s < $P/not-run-$1.patch || exit 1; echo "applied $1 (last)" | tee -a $S
timeout $(left 300) bash -c "LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90" > $O/build-all.txt 2>&1; echo "build all rc $?" | tee -a $S; gzip -f $O/build-all.txt
t build
r=$(upto 400 40); [ $r -gt 15 ] && { timeout $r $b --lib build/src/libcudnn.so.8 --vs /tmp/before/libcudnn.so.8 --set bench/sets/rnn-persist.tsv --dir inference --runs 8 --json $O/ab-last.json --markdown $O/ab-last.md > $O/ab-last.txt 2>&1; echo "A/B $1 rc $?" | tee -a $S; grep -E "^\| inference" $O/ab-last.md | cut -d'|' -f3,5,8,11 | tee -a $S; }
r=$(upto 300 100); [ $r -gt 30 ] && { timeout $r $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn.tsv --dir inference,step --runs 8 --json $O/rnn.json --markdown $O/rnn.md > $O/rnn.txt 2>&1; echo "rnn rc $?" | tee -a $S; }
r=$(upto 260 40); [ $r -gt 15 ] && { timeout $r $b --lib build/src/libcudnn.so.8 --vs $nv --set bench/sets/rnn-persist.tsv --dir inference --runs 8 --json $O/rnn-persist.json > $O/rnn-persist.txt 2>&1; echo "rnn persist rc $?" | tee -a $S; }
python3 tools/bench/issue15_bars.py $O/rnn.json --persist $O/rnn-persist.json > $O/bars-rnn.md 2>&1
grep -E "Geometric|rows meet|\*\*no\*\*" $O/bars-rnn.md | cut -c1-160 | tee -a $S
t rnn
r=$(upto 240 60); [ $r -gt 30 ] && { RUNS=20 timeout $r tools/bench/issue14_results.sh $O/issue14 > $O/issue14.txt 2>&1; echo "issue14 rc $?" | tee -a $S; tail -n 1 $O/issue14/bars.md $O/issue14/bars-measured-copy.md | tee -a $S; }
t issue14
# Issue 14's next measurement: why the half NHWC statistics kernel reads x at half the copy's rate at 14 x 14 (stall
# reasons and memory workload of stats_nhwc_kernel, one training forward of l3.bn256).
r=$(upto 330 45); [ $r -gt 20 ] && { timeout $r ncu --clock-control none -k regex:stats_nhwc --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section SpeedOfLight --csv --page details $b --lib build/src/libcudnn.so.8 --problem "op=bn mode=spatial phase=train_fwd dtype=half dims=256x256x14x14 layout=nhwc eps=1e-05 factor=0.1 alpha=1 beta=0" --warmup 1 --runs 1 > $O/ncu-bn-stats-14x14.csv 2> $O/ncu-bn-stats-14x14.err; echo "ncu stats_nhwc rc $?" | tee -a $S; gzip -f $O/ncu-bn-stats-14x14.csv; }
t ncu
lane=$(upto 5 320)
[ $lane -gt 60 ] && (cd build && LIBREDNN_LOG_DISPATCH=0 timeout $lane ctest -L gpu -j4 --output-on-failure > $O/gpu-lane.txt 2>&1; echo "rc $?" >> $O/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*|Timeout" $O/gpu-lane.txt 2>/dev/null | tail -20 | tee -a $S
t done
