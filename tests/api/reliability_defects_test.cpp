// Regression tests for the defects a random-argument run over the C API found (issue 16): each test is
// named after the defect and holds the input that showed it. Under the sanitizer build (scripts/test.sh)
// a read past an array or of freed memory fails the test even where the result looks right.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// Defect 1: cudnnDestroy finished its trace after the handle was freed, reading its stream and device.
TEST(ReliabilityDefect, DestroyWithInfoLoggingReadsNoFreedHandle) {
    std::vector<cudnnDebug_t> debug;
    auto collect = [](cudnnSeverity_t, void *udata, const cudnnDebug_t *dbg, const char *) {
        static_cast<std::vector<cudnnDebug_t> *>(udata)->push_back(*dbg);
    };
    unsigned old_mask = 0;
    void *old_udata = nullptr;
    cudnnCallback_t old_fn = nullptr;
    cudnnGetCallback(&old_mask, &old_udata, &old_fn);
    ASSERT_EQ(cudnnSetCallback(CUDNN_SEV_INFO_EN, &debug, collect), CUDNN_STATUS_SUCCESS);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(1);  // never dereferenced: read back only
    cudnnGetStream(handle, &stream);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
    cudnnSetCallback(old_mask, old_udata, old_fn);
    ASSERT_FALSE(debug.empty());
    // The destroy trace reports the handle as it was when the call began.
    EXPECT_EQ(debug.back().handle, handle);
    EXPECT_EQ(debug.back().stream, stream);
}
