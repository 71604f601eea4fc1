// cudnnCreate/Destroy/SetStream/GetStream, version queries and error strings, through the shim.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdlib>
#include <cstring>

TEST(Version, ReportsApiLevel8907) {
    EXPECT_EQ(cudnnGetVersion(), 8907u);
    EXPECT_EQ(CUDNN_VERSION, 8907);
    int major = -1, minor = -1, patch = -1;
    ASSERT_EQ(cudnnGetProperty(MAJOR_VERSION, &major), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetProperty(MINOR_VERSION, &minor), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetProperty(PATCH_LEVEL, &patch), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(major * 1000 + minor * 100 + patch, 8907);
    EXPECT_EQ(cudnnGetMaxDeviceVersion(), 900u);
}

TEST(Version, GetPropertyRejectsBadArguments) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetProperty(MAJOR_VERSION, nullptr), "cudnnGetProperty",
                    "value is NULL");
    int value = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetProperty(static_cast<libraryPropertyType>(7), &value),
                    "not a library property");
}

TEST(ErrorString, NamesEveryStatus) {
    const char *expected[] = {"CUDNN_STATUS_SUCCESS",
                              "CUDNN_STATUS_NOT_INITIALIZED",
                              "CUDNN_STATUS_ALLOC_FAILED",
                              "CUDNN_STATUS_BAD_PARAM",
                              "CUDNN_STATUS_INTERNAL_ERROR",
                              "CUDNN_STATUS_INVALID_VALUE",
                              "CUDNN_STATUS_ARCH_MISMATCH",
                              "CUDNN_STATUS_MAPPING_ERROR",
                              "CUDNN_STATUS_EXECUTION_FAILED",
                              "CUDNN_STATUS_NOT_SUPPORTED",
                              "CUDNN_STATUS_LICENSE_ERROR",
                              "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
                              "CUDNN_STATUS_RUNTIME_IN_PROGRESS",
                              "CUDNN_STATUS_RUNTIME_FP_OVERFLOW",
                              "CUDNN_STATUS_VERSION_MISMATCH"};
    for (int s = 0; s <= 14; ++s) EXPECT_STREQ(cudnnGetErrorString(static_cast<cudnnStatus_t>(s)), expected[s]);
    EXPECT_STREQ(cudnnGetErrorString(static_cast<cudnnStatus_t>(999)), "CUDNN_UNKNOWN_STATUS");
}

TEST(Handle, CreateSetStreamGetStreamDestroy) {
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    ASSERT_NE(handle, nullptr);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(0x1);
    ASSERT_EQ(cudnnGetStream(handle, &stream), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(stream, nullptr);  // the default stream until one is set
    EXPECT_EQ(cudnnSetStream(handle, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

TEST(Handle, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreate(nullptr), "cudnnCreate", "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDestroy(nullptr), "cudnnDestroy");
    cudaStream_t stream;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetStream(nullptr, &stream), "cudnnGetStream");
}

TEST(Handle, HostStreamIsKeptAsGiven) {
    // On the host backend the stream is ignored but remembered, so that Get returns what Set got.
    setenv("LIBREDNN_BACKEND", "host", 1);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    unsetenv("LIBREDNN_BACKEND");
    cudaStream_t in = reinterpret_cast<cudaStream_t>(0x1234), out = nullptr;
    ASSERT_EQ(cudnnSetStream(handle, in), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetStream(handle, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out, in);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

TEST(Handle, UnknownBackendIsRejected) {
    setenv("LIBREDNN_BACKEND", "tpu", 1);
    cudnnHandle_t handle = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreate(&handle), "LIBREDNN_BACKEND=tpu");
    unsetenv("LIBREDNN_BACKEND");
}

TEST(QueryRuntimeError, ReportsNoErrorAndRejectsTag) {
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    cudnnStatus_t rstatus = CUDNN_STATUS_INTERNAL_ERROR;
    EXPECT_EQ(cudnnQueryRuntimeError(handle, &rstatus, CUDNN_ERRQUERY_NONBLOCKING, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(rstatus, CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnQueryRuntimeError(handle, &rstatus, CUDNN_ERRQUERY_NONBLOCKING,
                                           reinterpret_cast<cudnnRuntimeTag_t *>(&rstatus)),
                    "tag must be NULL");
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}
