#!/usr/bin/env bash
# libcudnn.so.8 loads sub-libraries on first use; with one missing, the call returns
# CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING and the log names the file and every place searched.
source "$(dirname "$0")/common.sh"
prefix=$work/prefix
install_to "$prefix"

# Complete install: the call reaches cnn_infer.
out=$("$probe" "$prefix/lib/libcudnn.so.8" create-convolution)
expect_contains "$out" "cudnnSetCallback: CUDNN_STATUS_SUCCESS" "cudnnCreateConvolutionDescriptor: CUDNN_STATUS_SUCCESS"

# Only the shim and ops_infer: functions of ops_infer work, those of cnn_infer say what is missing.
partial=$work/partial
mkdir -p "$partial"
cp -P "$prefix"/lib/libcudnn.so* "$prefix"/lib/libcudnn_ops_infer.so* "$partial/"
out=$("$probe" "$partial/libcudnn.so.8" create-convolution)
echo "$out"
expect_contains "$out" "cudnnSetCallback: CUDNN_STATUS_SUCCESS" \
    "cudnnCreateConvolutionDescriptor: CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING" \
    "libcudnn_cnn_infer.so.8 could not be loaded" "$partial/libcudnn_cnn_infer.so.8" "LD_LIBRARY_PATH" "ld.so.cache"

# Nothing but the shim: even ops_infer is missing, and nothing crashes.
alone=$work/alone
mkdir -p "$alone"
cp -P "$prefix"/lib/libcudnn.so* "$alone/"
out=$("$probe" "$alone/libcudnn.so.8" version)
echo "$out"
expect_contains "$out" "cudnnSetCallback: CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING" "cudnnGetVersion: 0"
echo "missing sub-libraries: OK"
