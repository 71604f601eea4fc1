# Sourced by this directory's call-N.sh (run from the repository root on the device, $OUT set): CUDA on PATH, a
# results folder /tmp/$1 whose summary.txt `t` appends the elapsed time to, the folder archived into $OUT/all.tgz
# (the device returns few files) and the summary copied beside it when the script exits, the GPU's name first.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
O=/tmp/$1
mkdir -p $O
S=$O/summary.txt
t() { echo "$1 $((SECONDS-start)) s" | tee -a $S; }
trap 'tar czf $OUT/all.tgz -C /tmp '"$1"'; cp $S $OUT/summary.txt' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee -a $S
git log --oneline -1 | tee -a $S  # the device's .git may lag the working tree: the session's note names the commit
