// A CUDA handle on a user stream: the handle picks the CUDA backend, takes the stream and hands it back.
#include "api_test_util.hpp"
#include "gpu_test_util.hpp"

#include <cudnn.h>

#include <cstdlib>

TEST(GpuHandle, PicksCudaBackendWhenDeviceIsPresent) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    librednn::test::LogCapture capture(CUDNN_SEV_INFO_EN);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(capture.contains({"cudnnCreate", "returned: CUDNN_STATUS_SUCCESS"})) << capture.all();
    capture.clear();
    ASSERT_EQ(cudnnSetStream(handle, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(capture.contains({"backend=cuda", "device=0"})) << capture.all();
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

TEST(GpuHandle, TakesAndReturnsUserStream) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    setenv("LIBREDNN_BACKEND", "cuda", 1);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    unsetenv("LIBREDNN_BACKEND");
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudnnSetStream(handle, stream), CUDNN_STATUS_SUCCESS);
    cudaStream_t got = nullptr;
    ASSERT_EQ(cudnnGetStream(handle, &got), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got, stream);
    // The library's CUDA runtime (linked statically) and the application's share the stream: a
    // blocking runtime-error query synchronises it through the library.
    cudnnStatus_t rstatus = CUDNN_STATUS_INTERNAL_ERROR;
    EXPECT_EQ(cudnnQueryRuntimeError(handle, &rstatus, CUDNN_ERRQUERY_BLOCKING, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(rstatus, CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(GpuHandle, HostBackendCanBeForcedOnGpuMachine) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    setenv("LIBREDNN_BACKEND", "host", 1);
    librednn::test::LogCapture capture(CUDNN_SEV_INFO_EN);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    unsetenv("LIBREDNN_BACKEND");
    ASSERT_EQ(cudnnSetStream(handle, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(capture.contains({"backend=host"})) << capture.all();
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}
