#!/usr/bin/env bash
# Prepared 2026-12-08 (not run). Main's libraries as the base; then not-run-input-products-split.patch (the layer
# input's products over all steps split k over idle SMs where few steps leave them idle: the forward's W x at batch 1
# was 32 tiles on 132 SMs, 49 us a layer on an H100) with its test and the RNN tests, and the A/B against main over
# bench/sets/rnn.tsv (inference, step); then not-run-forward-wx-after-split.patch (the W x patches of 2026-12-04/07
# rebased on it: half factors for half data's W x, the last wave's rows split, the bias pass's loads) with the seed
# that once failed, the RNN tests with the TF32 threshold at one step and without, GemmTf32.*, and its A/B against
# the split alone. DEADLINE bounds it (default 585). One archive.
cd "$(git rev-parse --show-toplevel)"
source bench/results/2026-12-08-next-call/common.sh n1
P=bench/results/2026-12-08-next-call
build main
rm -rf /tmp/base /tmp/split && mkdir -p /tmp/base /tmp/split && cp -a build/src/libcudnn*.so* /tmp/base/
patch -p1 -s < $P/not-run-input-products-split.patch || exit 1
build split
cp -a build/src/libcudnn*.so* /tmp/split/
gpu 'RnnPersistentSteps.*:GemmTf32.*' split
ops split 'Rnn*' $(upto 300 120)
LIBREDNN_LOG_DISPATCH=1 timeout 30 $b --lib build/src/libcudnn.so.8 --problem "$(grep "^lstm.h1024.b1.float	" bench/sets/rnn.tsv | cut -f3)" --dir inference --warmup 0 --runs 1 > $O/dispatch-split.txt 2>&1
a=$(upto 240 90); [ $a -gt 20 ] && { timeout $a $b --lib build/src/libcudnn.so.8 --vs /tmp/base/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 8 --json $O/ab-split.json --markdown $O/ab-split.md > $O/ab-split.txt 2>&1; echo "A/B split vs main rc $?" | tee -a $S; grep -A4 "^summary" $O/ab-split.txt | tee -a $S; grep -E "b1\." $O/ab-split.md | cut -d'|' -f2,3,5,8,11 | tee -a $S; }
t split
patch -p1 -s < $P/not-run-forward-wx-after-split.patch || exit 1
build wx
gpu 'RnnPersistentSteps.*:GemmTf32.*' wx
ops seed 'Rnn.ForwardOfFusedStepsMatchesReference:Rnn.BidirectionalHalfLayersAboveTheFirstMatchReference' 60 LIBREDNN_TEST_SEED=8649450464884946495 LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1
ops tf32 'Rnn*' $(upto 120 120) LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1
ops wx 'Rnn*' $(upto 80 120)
a=$(left 5); [ $a -gt 20 ] && { timeout $a $b --lib build/src/libcudnn.so.8 --vs /tmp/split/libcudnn.so.8 --set bench/sets/rnn.tsv --dir inference,step --runs 8 --json $O/ab-wx.json --markdown $O/ab-wx.md > $O/ab-wx.txt 2>&1; echo "A/B wx vs split rc $?" | tee -a $S; grep -A4 "^summary" $O/ab-wx.txt | tee -a $S; }
t done
