// Tests for cuDNN's library names, sets and version numbers.
#include "cudnn_names.hpp"

#include <gtest/gtest.h>

namespace librednn::doctor {
namespace {

TEST(CudnnNames, ParsesVersionedSonameAndDevelopmentNames) {
    LibraryName name;
    ASSERT_TRUE(parse_library_name("libcudnn_ops_infer.so.8.9.7", &name));
    EXPECT_EQ(name.stem, "cudnn_ops_infer");
    EXPECT_EQ(name.version.text(), "8.9.7");
    ASSERT_TRUE(parse_library_name("libcudnn.so.9", &name));
    EXPECT_EQ(name.stem, "cudnn");
    EXPECT_EQ(name.version.text(), "9");
    ASSERT_TRUE(parse_library_name("libcudnn_engines_precompiled.so", &name));
    EXPECT_FALSE(name.version.known());
}

TEST(CudnnNames, RejectsFilesTheLoaderNeverUses) {
    LibraryName name;
    EXPECT_FALSE(parse_library_name("libcudnn.so.8.bak", &name));
    EXPECT_FALSE(parse_library_name("libcudnn_static.a", &name));
    EXPECT_FALSE(parse_library_name("libcudnnx.soup", &name));
    EXPECT_FALSE(parse_library_name("libcublas.so.12", &name));
}

TEST(CudnnNames, DecodesCudnnVersionNumbersOfBothEncodings) {
    EXPECT_EQ(decode_cudnn_version(8907).text(), "8.9.7");
    EXPECT_EQ(decode_cudnn_version(7605).text(), "7.6.5");
    EXPECT_EQ(decode_cudnn_version(91900).text(), "9.19.0");
    EXPECT_EQ(decode_cudnn_version(90100).text(), "9.1.0");
    EXPECT_FALSE(decode_cudnn_version(0).known());
    EXPECT_EQ(decode_cuda_version(12040).text(), "12.4");
    EXPECT_EQ(decode_cuda_version(13010).text(), "13.1");
}

TEST(CudnnNames, VersionsAreCompatibleInTheirKnownParts) {
    EXPECT_TRUE(parse_version("9").compatible_with(parse_version("9.19.0")));
    EXPECT_FALSE(parse_version("8.9.7").compatible_with(parse_version("8.9.2")));
    EXPECT_FALSE(parse_version("8").compatible_with(parse_version("9.1")));
}

TEST(CudnnNames, SetsHoldSevenAndEightLibraries) {
    EXPECT_EQ(library_set(8).size(), 7u);
    EXPECT_EQ(library_set(9).size(), 8u);
    EXPECT_EQ(library_set(7).size(), 1u);
    EXPECT_EQ(soname_of("cudnn_cnn_infer", 8), "libcudnn_cnn_infer.so.8");
    EXPECT_EQ(dll_name_of("cudnn_ops_infer", 8), "cudnn_ops_infer64_8.dll");
    EXPECT_EQ(dll_name_of("cudnn", 9), "cudnn64_9.dll");
}

}  // namespace
}  // namespace librednn::doctor
