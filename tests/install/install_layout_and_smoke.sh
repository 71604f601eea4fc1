#!/usr/bin/env bash
# cmake --install gives NVIDIA's tarball layout; a C99 program built with plain cc against it,
# linked with -lcudnn, runs; pkg-config and find_package(LibreDNN) find it.
source "$(dirname "$0")/common.sh"
prefix=$work/prefix
install_to "$prefix"

for lib in cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train; do
    [ -f "$prefix/lib/lib$lib.so.8.9.7" ] && [ ! -L "$prefix/lib/lib$lib.so.8.9.7" ] || fail "lib$lib.so.8.9.7 missing"
    [ "$(readlink "$prefix/lib/lib$lib.so.8")" = "lib$lib.so.8.9.7" ] || fail "lib$lib.so.8 is not a link to lib$lib.so.8.9.7"
    [ "$(readlink "$prefix/lib/lib$lib.so")" = "lib$lib.so.8" ] || fail "lib$lib.so is not a link to lib$lib.so.8"
done
[ -f "$prefix/lib/libcudnn_static.a" ] || fail "libcudnn_static.a missing"
for h in cudnn.h cudnn_version.h cudnn_ops_infer.h cudnn_ops_train.h cudnn_cnn_infer.h cudnn_cnn_train.h \
         cudnn_adv_infer.h cudnn_adv_train.h cudnn_backend.h; do
    [ -f "$prefix/include/$h" ] || fail "include/$h missing"
done

# The drop-in smoke test: plain cc, C99, -lcudnn, no CUDA include path.
cc -std=c99 -Wall -Werror "$source_dir/examples/smoke.c" -I "$prefix/include" -L "$prefix/lib" -lcudnn -o "$work/smoke"
out=$(LD_LIBRARY_PATH="$prefix/lib" LIBREDNN_BACKEND=host "$work/smoke")
echo "$out"
expect_contains "$out" "cuDNN version 8907" "7x7/2 convolution to 32x64x112x112" "CUDNN_STATUS_BAD_PARAM" "smoke: OK"

# The same program linked statically: libcudnn_static.a, plus the CUDA runtime as with NVIDIA's.
static_libs=("$prefix/lib/libcudnn_static.a" -lstdc++ -lm -ldl -lpthread)
if [ "${LIBREDNN_HAVE_CUDA:-0}" = "1" ]; then
    static_libs+=("$LIBREDNN_CUDA_LIBRARY_DIR/libcudart_static.a" -lrt)
fi
cc -std=c99 "$source_dir/examples/smoke.c" -I "$prefix/include" "${static_libs[@]}" -o "$work/smoke_static"
out=$(LIBREDNN_BACKEND=host "$work/smoke_static")
expect_contains "$out" "cuDNN version 8907" "smoke: OK"
readelf -d "$work/smoke_static" | grep -q 'libcudnn' && fail "the static smoke program still needs a libcudnn shared library"

# pkg-config
if command -v pkg-config >/dev/null; then
    flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs cudnn)
    expect_contains "$flags" "-lcudnn" "-I"
    # shellcheck disable=SC2086
    cc -std=c99 "$source_dir/examples/smoke.c" $flags -o "$work/smoke_pc"
fi

# find_package(LibreDNN)
mkdir -p "$work/consumer"
cat >"$work/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(LibreDNN 8.9 REQUIRED)
add_executable(smoke smoke.c)
target_link_libraries(smoke PRIVATE LibreDNN::cudnn)
CMAKE
cp "$source_dir/examples/smoke.c" "$work/consumer/"
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer/build" >/dev/null
out=$(LIBREDNN_BACKEND=host "$work/consumer/build/smoke")
expect_contains "$out" "smoke: OK"
echo "install layout, smoke program, pkg-config and CMake package: OK"
