# Shared by the install tests: a fresh install of the build under a temporary prefix.
set -euo pipefail
build_dir=$1
source_dir=$2
probe=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset LD_LIBRARY_PATH CUDNN_LOGERR_DBG CUDNN_LOGWARN_DBG CUDNN_LOGINFO_DBG CUDNN_LOGDEST_DBG

install_to() {
    cmake --install "$build_dir" --prefix "$1" >/dev/null
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

expect_contains() {  # TEXT WORD...: every word must occur in TEXT
    local text=$1
    shift
    for word in "$@"; do
        grep -qF -- "$word" <<<"$text" || fail "expected '$word' in:
$text"
    done
}
