#!/usr/bin/env bash
# Installs what building and testing LibreDNN needs on Debian/Ubuntu (run as root, or with sudo):
# a C/C++ compiler, CMake >= 3.25, Ninja, GoogleTest, Python 3, pkg-config and patch. The CUDA toolkit is
# optional (without it LibreDNN builds the host backend only) and is not installed here. oneDNN (libdnnl-dev,
# Debian 12's 2.6) makes host convolutions fast; it is installed where the package manager has it, and
# nothing needs it to build: the library loads it at run time and runs its own code without it.
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
optional=()
ls /usr/lib/*/libdnnl.so.2 >/dev/null 2>&1 || [ -e /usr/lib/libdnnl.so.2 ] || optional+=(libdnnl-dev)
if [ ${#need[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ]; then
    echo "install-deps: everything is present"
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
if ! command -v apt-get >/dev/null; then
    [ ${#need[@]} -eq 0 ] && { echo "install-deps: no apt-get; without oneDNN the host backend runs its own code"; exit 0; }
    echo "install-deps: no apt-get to install ${need[*]}" >&2
    exit 1
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "install-deps: installing ${need[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
for package in "${optional[@]}"; do
    # Optional: where the package (or the registry) is missing, the build goes on without it.
    [ ${#need[@]} -gt 0 ] || $sudo apt-get update -qq || true
    if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package"; then
        echo "install-deps: installed $package"
    else
        echo "install-deps: $package could not be installed; the host backend will run its own convolutions"
    fi
done
