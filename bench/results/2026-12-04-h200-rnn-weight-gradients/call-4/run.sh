#!/usr/bin/env bash
# Call 4: main after the availability checks' refactor (DeviceQuestion) — the gpu lane; and the tensor memory
# accelerator's kernel with a deliberate mistake (gpu-4-mutation.patch: B's k offset within a slice wrong for two of
# its four steps), built beside it: GemmTf32.TensorMemoryAcceleratorMatchesDoubleProduct must fail, and the RNN
# tests with TF32 operands everywhere.
set -u
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
t() { echo "$1 $((SECONDS-start)) s" | tee -a $OUT/summary.txt; }
mkdir -p /tmp/mut && tar --exclude=./build -cf - . | tar -xf - -C /tmp/mut
(cd /tmp/mut && patch -p1 -s < gpu-4-mutation.patch && LIBREDNN_BUILD_DIR=build LIBREDNN_TARGETS="librednn_gpu_tests librednn_op_tests" scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mbuild.txt 2>&1; echo "mutated build rc $?" >> /tmp/mbuild.txt) &
LIBREDNN_BUILD_DIR=build scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
rm -f $OUT/build.txt
t build
(cd build && timeout 280 ctest -L gpu -j4 --output-on-failure > /tmp/gpu-lane.txt 2>&1; echo "rc $?" >> /tmp/gpu-lane.txt)
grep -E "tests passed|^rc |Failed|\*\*\*" /tmp/gpu-lane.txt | tee -a $OUT/summary.txt
t lane
wait; tail -1 /tmp/mbuild.txt | tee -a $OUT/summary.txt
timeout 100 /tmp/mut/build/tests/gpu/librednn_gpu_tests --gtest_filter='GemmTf32.TensorMemory*' > /tmp/mut-gemm.txt 2>&1; echo "rc $?" >> /tmp/mut-gemm.txt
echo "mutated gemm: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/mut-gemm.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS=1 LIBREDNN_TEST_SEED=1231 LIBREDNN_OP_TEST_BACKEND=cuda timeout 100 /tmp/mut/build/tests/librednn_op_tests --gtest_filter='Rnn*' > /tmp/mut-rnn.txt 2>&1; echo "rc $?" >> /tmp/mut-rnn.txt
echo "mutated rnn, tf32 operands: $(grep -E 'PASSED|FAILED  \]|^rc ' /tmp/mut-rnn.txt | tr '\n' ' ')" | tee -a $OUT/summary.txt
grep -E "FAILED  \] Rnn" /tmp/mut-rnn.txt | head -8 | tee -a $OUT/summary.txt
t done
tar czf $OUT/logs.tgz -C /tmp gpu-lane.txt mbuild.txt mut-gemm.txt mut-rnn.txt 2>/dev/null
