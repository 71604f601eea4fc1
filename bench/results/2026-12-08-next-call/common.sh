# Sourced by this directory's call-N.sh (run from the repository root on the device, $OUT set): CUDA on PATH, a
# results folder /tmp/$1 whose summary.txt `t` appends the elapsed time to, archived into $OUT/all.tgz with the
# summary beside it when the script exits; `left N` / `upto N M` the seconds DEADLINE leaves (less N; at most M).
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
DEADLINE=${DEADLINE:-585}
O=/tmp/$1
mkdir -p $O
S=$O/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
left() { echo $(( DEADLINE - (SECONDS-start) - ${1:-0} )); }
upto() { local v=$(left $1); echo $(( v < $2 ? v : $2 )); }
trap 'tar czf $OUT/all.tgz -C /tmp '"$1"'; cp $S $OUT/summary.txt' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee -a $S
libs="cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train"
b=build/tools/bench/librednn-bench
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9
# Builds the libraries, the bench and both test programs into build/ (what a patch touched gets its new time and is
# rebuilt; the device restores untouched files with their old times, so every call applies the same patches again).
build() { LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="$libs librednn-bench librednn_op_tests librednn_gpu_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build-$1.txt 2>&1 || { tail -30 $O/build-$1.txt | tee -a $S; exit 1; }; gzip -f $O/build-$1.txt; t "build $1"; }
# The op tests on CUDA: $1 tag, $2 filter, $3 timeout, then environment assignments.
ops() { local tag=$1 filter=$2 limit=$3; shift 3; [ $limit -lt 20 ] && limit=20; env "$@" LIBREDNN_OP_TEST_BACKEND=cuda timeout $limit build/tests/librednn_op_tests --gtest_filter="$filter" --gtest_brief=1 > $O/ops-$tag.txt 2>&1; echo "$tag ($filter) rc $? $(grep -E '^\[  (PASSED|FAILED) ' $O/ops-$tag.txt | tr '\n' ' ')" | tee -a $S; }
gpu() { timeout 90 build/tests/gpu/librednn_gpu_tests --gtest_filter="$1" --gtest_brief=1 > $O/gpu-$2.txt 2>&1; echo "gpu $1 rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $O/gpu-$2.txt | tr '\n' ' ')" | tee -a $S; }
