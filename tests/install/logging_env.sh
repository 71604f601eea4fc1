#!/usr/bin/env bash
# CUDNN_LOGINFO_DBG / CUDNN_LOGERR_DBG and CUDNN_LOGDEST_DBG (stdout, stderr or a file) as in cuDNN 8.
source "$(dirname "$0")/common.sh"
prefix=$work/prefix
install_to "$prefix"
cc -std=c99 "$source_dir/examples/smoke.c" -I "$prefix/include" -L "$prefix/lib" -lcudnn -o "$work/smoke"
export LD_LIBRARY_PATH=$prefix/lib LIBREDNN_BACKEND=host

# Nothing is logged unless asked.
out=$("$work/smoke" 2>&1)
grep -q '^[IE]!' <<<"$out" && fail "logged without being asked:
$out"

# Info and errors to a file.
CUDNN_LOGINFO_DBG=1 CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG="$work/log.txt" "$work/smoke" >/dev/null
log=$(cat "$work/log.txt")
expect_contains "$log" "I! LibreDNN (v8907) function cudnnCreate() called" "returned: CUDNN_STATUS_SUCCESS" \
    "E! LibreDNN (v8907) function cudnnSetTensor4dDescriptor() failed: CUDNN_STATUS_BAD_PARAM" "Process=" \
    "cudnnSetConvolution2dDescriptor() called"

# Errors only, to stdout.
out=$(CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stdout "$work/smoke" 2>/dev/null)
expect_contains "$out" "E! LibreDNN (v8907) function cudnnSetTensor4dDescriptor() failed"
grep -q '^I!' <<<"$out" && fail "info lines without CUDNN_LOGINFO_DBG"
echo "logging environment: OK"
