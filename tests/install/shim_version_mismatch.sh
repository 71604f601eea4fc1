#!/usr/bin/env bash
# cudnnCnnInferVersionCheck returns CUDNN_STATUS_VERSION_MISMATCH when cnn_infer and ops_infer come
# from different builds. A second build is simulated by rewriting the build id inside a copy of cnn_infer.
source "$(dirname "$0")/common.sh"
prefix=$work/prefix
install_to "$prefix"

out=$("$probe" "$prefix/lib/libcudnn.so.8" cnn-infer-version-check)
expect_contains "$out" "cudnnCnnInferVersionCheck: CUDNN_STATUS_SUCCESS"

python3 - "$prefix/lib/libcudnn_cnn_infer.so.8.9.7" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
marker = b"LIBREDNN_BUILD_ID="
at = data.find(marker)
assert at >= 0, "no build id marker in " + path
start = at + len(marker)
data[start:start + 16] = b"0123456789abcdef" if data[start:start + 16] != b"0123456789abcdef" else b"fedcba9876543210"
open(path, "wb").write(bytes(data))
PY
out=$("$probe" "$prefix/lib/libcudnn.so.8" cnn-infer-version-check)
echo "$out"
expect_contains "$out" "cudnnCnnInferVersionCheck: CUDNN_STATUS_VERSION_MISMATCH" "different LibreDNN builds"
echo "version mismatch: OK"
