#!/usr/bin/env bash
# Builds LibreDNN and runs every test: the main build (CUDA backend where nvcc exists; tests labelled
# gpu report as skipped without a GPU), then a host-only AddressSanitizer + UndefinedBehaviorSanitizer
# build running the unit, API and ABI tests, then a host-only ThreadSanitizer build running the API tests and
# most op tests with four host worker threads, then a short libFuzzer run of the C API (clang only; the
# target and its seeds in tests/fuzz/, docs/FUZZING.md), then the mutation check (every deliberate
# mistake in tests/mutations/ must make its tests fail). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LIBREDNN_JOBS:-$(nproc)}

echo "== main build (build/)"
LIBREDNN_BUILD_DIR=build scripts/build.sh
ctest --test-dir build -j "$jobs" --output-on-failure

echo "== sanitizer build (build-asan/: host backend, ASan + UBSan)"
# -O1 -g1 (line tables): half the compile time of -O2 -g, which matters on CI's two cores, with stack traces
# that still name file and line. cudnn-doctor is left out here: its tests are excluded below anyway.
LIBREDNN_BUILD_DIR=build-asan scripts/build.sh -DLIBREDNN_CUDA=OFF -DLIBREDNN_SANITIZE=address,undefined \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DLIBREDNN_DOCTOR=OFF
# Install tests and the examples link plain programs against the instrumented libraries (without the
# sanitizer runtime they cannot load them), and the doctor's tests load
# deliberately broken libraries in child processes whose loader behaves differently under ASan: both
# run in the main build.
# intercept_tls_get_addr=0: LeakSanitizer's tracking of dynamic TLS (the sub-libraries the shim loads with
# dlopen) reads a bogus block on this glibc and crashes at exit ("DTLS 6 at 0x000000000238-...", "Tracer
# caught signal 11") after every test passed; leak checking itself stays on.
ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan -j "$jobs" --output-on-failure -LE "install|gpu|doctor|examples"

echo "== thread sanitizer build (build-tsan/: host backend, TSan; API and op tests only)"
# Concurrent handles (tests/api/thread_safety_test.cpp) and the host solvers' worker threads (parallel_for,
# four of them whatever the cores) under ThreadSanitizer. -O1 -g1 as above, and only the two test binaries
# the stage runs are built. LIBREDNN_ONEDNN=0: Debian's oneDNN and the OpenMP runtime under it are not
# instrumented, so TSan cannot see OpenMP's synchronisation and reports every buffer its threads write;
# LibreDNN's own convolution solvers run instead. Left out: four op tests that take minutes under TSan
# (convolutions with long sums, the RNN central-difference checks, the reductions' fast paths); the other
# RNN backward tests still run the parallel backward.
LIBREDNN_BUILD_DIR=build-tsan LIBREDNN_TARGETS="librednn_api_tests librednn_op_tests" scripts/build.sh \
    -DLIBREDNN_CUDA=OFF -DLIBREDNN_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DLIBREDNN_DOCTOR=OFF
tsan=(env LIBREDNN_ONEDNN=0 LIBREDNN_HOST_THREADS=4 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1)
slow='Convolution.LongSumsMatchReference:RnnBackward.MatchesCentralDifferencesOnRandomNetworks'
slow+=':RnnBackward.MatchesCentralDifferencesForEachCellDirectionAndLayout'
slow+=':ReduceTensor.MatchesReferenceOnTheLayoutsWithFastPaths'
# The first-use race alone first, so that it is the process's first use of LibreDNN.
"${tsan[@]}" build-tsan/tests/librednn_api_tests --gtest_brief=1 --gtest_filter=ThreadSafety.ThreadsRacingOnFirstUse*
"${tsan[@]}" build-tsan/tests/librednn_api_tests --gtest_brief=1
"${tsan[@]}" build-tsan/tests/librednn_op_tests --gtest_brief=1 --gtest_filter="-$slow"

echo "== fuzzing (build-fuzz/: clang, host backend, libFuzzer + ASan + UBSan, ${LIBREDNN_FUZZ_SECONDS:-60} s)"
if command -v clang++ >/dev/null && echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer - -o /tmp/librednn-fuzz-probe 2>/dev/null; then
    CC=clang CXX=clang++ LIBREDNN_BUILD_DIR=build-fuzz LIBREDNN_TARGETS=librednn_api_fuzzer scripts/build.sh \
        -DLIBREDNN_CUDA=OFF -DLIBREDNN_SANITIZE=address,undefined -DLIBREDNN_FUZZ=ON -DLIBREDNN_TESTS=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo
    rm -rf build-fuzz/corpus build-fuzz/artifacts && mkdir -p build-fuzz/corpus build-fuzz/artifacts
    cp tests/fuzz/corpus/api/* build-fuzz/corpus/
    # intercept_tls_get_addr=0 as in the sanitizer stage: with oneDNN loaded (host convolutions), LeakSanitizer's
    # dynamic-TLS tracking crashes at exit ("Tracer caught signal 11") after the run; leak checking stays on.
    ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 \
    build-fuzz/tests/fuzz/librednn_api_fuzzer build-fuzz/corpus -max_total_time="${LIBREDNN_FUZZ_SECONDS:-60}" \
        -timeout=20 -rss_limit_mb=2048 -max_len=512 -artifact_prefix=build-fuzz/artifacts/ -print_final_stats=1 \
        2>build-fuzz/fuzz.log || { tail -60 build-fuzz/fuzz.log; echo "fuzzing found a problem: build-fuzz/artifacts/"; exit 1; }
    grep -E "DONE|^stat::number_of_executed_units" build-fuzz/fuzz.log || true
else
    echo "skipped: no clang++ with libFuzzer here"
fi

echo "== mutation check (build-mutation/: host backend, tests/mutations/*.patch)"
python3 scripts/mutation_check.py
