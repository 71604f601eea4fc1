// Loading cuDNN libraries by path: LibreDNN's from the build tree, NVIDIA's cuDNN 9 where installed,
// status codes of both numberings by name, and missing functions reported instead of called.
#include "loader.hpp"
#include "memory.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace librednn::bench {
namespace {

TEST(BenchLoader, NamesCudnn8StatusCodes) {
    EXPECT_EQ(status_name(0, 8), "CUDNN_STATUS_SUCCESS");
    EXPECT_EQ(status_name(3, 8), "CUDNN_STATUS_BAD_PARAM");
    EXPECT_EQ(status_name(9, 8), "CUDNN_STATUS_NOT_SUPPORTED");
    EXPECT_EQ(status_name(11, 8), "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING");
    EXPECT_EQ(status_name(14, 8), "CUDNN_STATUS_VERSION_MISMATCH");
    EXPECT_EQ(status_name(3000, 8), "unknown status 3000");
    EXPECT_EQ(status_class(9, 8), StatusClass::not_supported);
    EXPECT_EQ(status_class(3, 8), StatusClass::bad_param);
    EXPECT_EQ(status_class(8, 8), StatusClass::other);
}

TEST(BenchLoader, NamesCudnn9StatusCodesByThousands) {
    EXPECT_EQ(status_name(0, 9), "CUDNN_STATUS_SUCCESS");
    EXPECT_EQ(status_name(1001, 9), "CUDNN_STATUS_NOT_INITIALIZED");
    EXPECT_EQ(status_name(2000, 9), "CUDNN_STATUS_BAD_PARAM");
    EXPECT_EQ(status_name(2002, 9), "CUDNN_STATUS_BAD_PARAM_NULL_POINTER");
    EXPECT_EQ(status_name(3000, 9), "CUDNN_STATUS_NOT_SUPPORTED");
    EXPECT_EQ(status_name(3002, 9), "CUDNN_STATUS_NOT_SUPPORTED_SHAPE");
    EXPECT_EQ(status_name(4000, 9), "CUDNN_STATUS_INTERNAL_ERROR");
    EXPECT_EQ(status_name(5000, 9), "CUDNN_STATUS_EXECUTION_FAILED");
    EXPECT_EQ(status_name(3999, 9), "CUDNN_STATUS_NOT_SUPPORTED family (3999)");
    EXPECT_EQ(status_name(9, 9), "unknown status 9");
    EXPECT_EQ(status_class(3002, 9), StatusClass::not_supported);
    EXPECT_EQ(status_class(2006, 9), StatusClass::bad_param);
    EXPECT_EQ(status_class(5001, 9), StatusClass::other);
    EXPECT_EQ(status_class(9, 9), StatusClass::other);
}

TEST(BenchLoader, TellsTheMajorVersionFromCudnnGetVersion) {
    EXPECT_EQ(major_of_version(8907), 8);
    EXPECT_EQ(major_of_version(8600), 8);
    EXPECT_EQ(major_of_version(91900), 9);
    EXPECT_EQ(major_of_version(90100), 9);
}

TEST(BenchLoader, LoadsLibreDNNFromTheBuildTreeAndResolvesEveryEntryPoint) {
    std::string error;
    const auto library = Library::open(LIBREDNN_BENCH_CUDNN, &error);
    ASSERT_TRUE(library) << error;
    EXPECT_TRUE(library->is_librednn());
    EXPECT_EQ(library->version(), 8907);
    EXPECT_EQ(library->major_version(), 8);
    EXPECT_NE(library->describe().find("LibreDNN (cuDNN API 8.9.7) at "), std::string::npos) << library->describe();
    // LibreDNN's shim exports all 264 functions, so every one the bench uses resolves.
#define EXPECT_RESOLVED(name) EXPECT_NE(library->api().name, nullptr) << #name;
    LIBREDNN_BENCH_CUDNN_FUNCTIONS(EXPECT_RESOLVED)
#undef EXPECT_RESOLVED
    EXPECT_TRUE(library->load_sub_libraries().empty());
}

TEST(BenchLoader, AMissingFunctionIsReportedAsNotProvided) {
    std::string error;
    const auto library = Library::open(LIBREDNN_BENCH_FAKE_V8, &error);
    ASSERT_TRUE(library) << error;
    EXPECT_EQ(library->api().cudnnPoolingForward, nullptr);
    cudnnPoolingDescriptor_t pooling = nullptr;
    const Outcome outcome = BENCH_CALL(*library, cudnnCreatePoolingDescriptor, &pooling);
    EXPECT_EQ(outcome.kind(), Outcome::Kind::unsupported);
    EXPECT_EQ(outcome.message(), "not provided by this library: it has no cudnnCreatePoolingDescriptor");
}

TEST(BenchLoader, StatusesReadInTheLoadedLibrarysNumbering) {
    std::string error;
    const auto v9 = Library::open(LIBREDNN_BENCH_FAKE_V9, &error);
    ASSERT_TRUE(v9) << error;
    EXPECT_EQ(v9->major_version(), 9);
    Outcome outcome = v9->outcome_of("cudnnX", 3000);
    EXPECT_EQ(outcome.kind(), Outcome::Kind::unsupported);
    EXPECT_EQ(outcome.message(), "not supported: cudnnX returned CUDNN_STATUS_NOT_SUPPORTED");
    outcome = v9->outcome_of("cudnnX", 2000);
    EXPECT_EQ(outcome.kind(), Outcome::Kind::failed);
    EXPECT_EQ(outcome.message(), "cudnnX returned CUDNN_STATUS_BAD_PARAM");
    const auto v8 = Library::open(LIBREDNN_BENCH_FAKE_V8, &error);
    ASSERT_TRUE(v8) << error;
    EXPECT_EQ(v8->outcome_of("cudnnX", 3).message(), "cudnnX returned CUDNN_STATUS_BAD_PARAM");
}

TEST(BenchLoader, AttachesTheReasonLibreDNNLogged) {
    std::string error;
    const auto library = Library::open(LIBREDNN_BENCH_FAKE_V8, &error);
    ASSERT_TRUE(library) << error;
    cudnnHandle_t handle = nullptr;
    ASSERT_TRUE(BENCH_CALL(*library, cudnnCreate, &handle).ok());
    const Outcome outcome =
        BENCH_CALL(*library, cudnnTransformTensor, handle, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    EXPECT_EQ(outcome.message(),
              "not supported: cudnnTransformTensor returned CUDNN_STATUS_NOT_SUPPORTED (the fake has no transform)");
    library->api().cudnnDestroy(handle);
}

TEST(BenchLoader, RefusesFilesThatAreNotACudnn) {
    std::string error;
    EXPECT_FALSE(Library::open("/nonexistent/libcudnn.so.8", &error));
    EXPECT_NE(error.find("cannot load /nonexistent/libcudnn.so.8"), std::string::npos) << error;
    EXPECT_FALSE(Library::open("libm.so.6", &error));
    EXPECT_NE(error.find("libm.so.6 is not a cuDNN library: it has no cudnnGetVersion"), std::string::npos) << error;
}

TEST(BenchLoader, LoadsNvidiaCudnn9AndReadsItsStatusCodes) {
    const std::string path = LIBREDNN_BENCH_NVIDIA_CUDNN9;
    if (path.empty() || access(path.c_str(), R_OK) != 0) GTEST_SKIP() << "no NVIDIA cuDNN 9 beside the CUDA toolkit";
    std::string error;
    const auto library = Library::open(path, &error);
    ASSERT_TRUE(library) << error;
    EXPECT_FALSE(library->is_librednn());
    EXPECT_EQ(library->major_version(), 9);
    EXPECT_NE(library->describe().find("NVIDIA cuDNN 9."), std::string::npos) << library->describe();
    if (cuda_device_usable()) return;
    // Without a GPU its handle cannot be created, and the bench says so in cuDNN 9's words.
    cudnnHandle_t handle = nullptr;
    const Outcome outcome = BENCH_CALL(*library, cudnnCreate, &handle);
    EXPECT_EQ(outcome.kind(), Outcome::Kind::failed);
    EXPECT_EQ(outcome.message(), "cudnnCreate returned CUDNN_STATUS_NOT_INITIALIZED");
}

}  // namespace
}  // namespace librednn::bench
