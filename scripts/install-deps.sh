#!/usr/bin/env bash
# Installs what building and testing LibreDNN needs on Debian/Ubuntu (run as root, or with sudo):
# a C/C++ compiler, CMake >= 3.25, Ninja, GoogleTest, Python 3, pkg-config and patch. The CUDA toolkit is
# optional (without it LibreDNN builds the host backend only) and is not installed here.
set -euo pipefail
need=()
command -v c++ >/dev/null || need+=(g++)
command -v cc >/dev/null || need+=(gcc)
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v python3 >/dev/null || need+=(python3)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v patch >/dev/null || need+=(patch)
[ -f /usr/include/gtest/gtest.h ] || [ -d /usr/src/googletest ] || need+=(libgtest-dev)
if [ ${#need[@]} -eq 0 ]; then
    echo "install-deps: everything is present"
    exit 0
fi
echo "install-deps: installing ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
