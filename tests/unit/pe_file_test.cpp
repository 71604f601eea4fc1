// Tests for the PE reader: synthetic PE32/PE32+ images, damage of every kind, files that are not PE.
#include "pe_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../doctor/synthetic_pe.hpp"

namespace librednn::tools {
namespace {

using testing::SyntheticPe;

SyntheticPe cudnn_like_dll() {
    SyntheticPe pe;
    pe.imports = {"cublas64_11.dll", "cublasLt64_11.dll", "zlibwapi.dll", "KERNEL32.dll", "MSVCP140.dll"};
    pe.delay_imports = {"nvrtc64_112_0.dll"};
    pe.with_version = true;
    const uint16_t file[4] = {8, 9, 7, 29}, product[4] = {8, 9, 7, 0};
    std::copy(file, file + 4, pe.file_version);
    std::copy(product, product + 4, pe.product_version);
    return pe;
}

TEST(PeFile, ReadsMachineImportsDelayImportsAndVersionOfPe32Plus) {
    PeInfo info;
    std::string error;
    ASSERT_TRUE(parse_pe(cudnn_like_dll().build(), &info, &error)) << error;
    EXPECT_TRUE(info.is_pe);
    EXPECT_EQ(info.machine, kPeMachineAmd64);
    EXPECT_EQ(info.machine_name, "x86-64 (AMD64)");
    EXPECT_TRUE(info.is_64bit);
    EXPECT_TRUE(info.is_dll);
    EXPECT_EQ(info.imports, (std::vector<std::string>{"cublas64_11.dll", "cublasLt64_11.dll", "zlibwapi.dll",
                                                      "KERNEL32.dll", "MSVCP140.dll"}));
    EXPECT_EQ(info.delay_imports, std::vector<std::string>{"nvrtc64_112_0.dll"});
    ASSERT_TRUE(info.has_version);
    EXPECT_EQ(info.file_version.text(), "8.9.7.29");
    EXPECT_EQ(info.product_version.text(), "8.9.7.0");
}

TEST(PeFile, ReadsPe32I386Image) {
    SyntheticPe pe;
    pe.machine = kPeMachineI386;
    pe.pe32_plus = false;
    pe.imports = {"KERNEL32.dll"};
    pe.with_version = true;
    pe.file_version[0] = 1;
    pe.file_version[1] = 2;
    pe.file_version[2] = 13;
    PeInfo info;
    std::string error;
    ASSERT_TRUE(parse_pe(pe.build(), &info, &error)) << error;
    EXPECT_EQ(info.machine_name, "x86 (i386)");
    EXPECT_FALSE(info.is_64bit);
    EXPECT_EQ(info.imports, std::vector<std::string>{"KERNEL32.dll"});
    EXPECT_EQ(info.file_version.text(), "1.2.13.0");
}

TEST(PeFile, ImageWithoutImportsOrVersionParsesWithNeither) {
    SyntheticPe pe;
    pe.machine = kPeMachineArm64;
    PeInfo info;
    std::string error;
    ASSERT_TRUE(parse_pe(pe.build(), &info, &error)) << error;
    EXPECT_EQ(info.machine_name, "ARM64");
    EXPECT_TRUE(info.imports.empty());
    EXPECT_FALSE(info.has_version);
}

TEST(PeFile, RejectsFilesThatAreNotPe) {
    PeInfo info;
    std::string error;
    const std::string text = "<html>404 Not Found</html>";
    EXPECT_FALSE(parse_pe(std::vector<uint8_t>(text.begin(), text.end()), &info, &error));
    EXPECT_FALSE(info.is_pe);
    EXPECT_NE(error.find("not a PE file"), std::string::npos) << error;

    std::vector<uint8_t> mz_only(128, 0);
    mz_only[0] = 'M';
    mz_only[1] = 'Z';
    mz_only[0x3c] = 0x40;
    EXPECT_FALSE(parse_pe(mz_only, &info, &error));
    EXPECT_NE(error.find("no PE signature"), std::string::npos) << error;

    EXPECT_FALSE(parse_pe({}, &info, &error));
}

TEST(PeFile, EveryTruncationFailsCleanlyAndNamesTheTruncation) {
    const std::vector<uint8_t> image = cudnn_like_dll().build();
    // The section's data ends where the version resource ends; any shorter file loses something.
    size_t truncation_errors = 0;
    for (size_t length = 0; length < image.size(); ++length) {
        PeInfo info;
        std::string error;
        const std::vector<uint8_t> prefix(image.begin(), image.begin() + length);
        if (!parse_pe(prefix, &info, &error)) {
            EXPECT_FALSE(error.empty()) << "length " << length;
            if (error.find("truncated") != std::string::npos || error.find("outside") != std::string::npos) {
                ++truncation_errors;
            }
        }
    }
    EXPECT_GT(truncation_errors, image.size() / 2);
}

TEST(PeFile, RandomDamageNeverCrashes) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const std::vector<uint8_t> image = cudnn_like_dll().build();
    for (int round = 0; round < 3000; ++round) {
        std::vector<uint8_t> damaged = image;
        const int flips = 1 + static_cast<int>(random() % 8);
        for (int i = 0; i < flips; ++i) {
            // Damage the headers and the section's first bytes, where the structure lives.
            const size_t at = random() % std::min<size_t>(damaged.size(), 0x400);
            damaged[at] = static_cast<uint8_t>(random());
        }
        PeInfo info;
        std::string error;
        parse_pe(damaged, &info, &error);  // must return, whatever it decides
    }
}

TEST(PeFile, ReadFileNamesMissingFileAndReadsRealOne) {
    PeInfo info;
    std::string error;
    EXPECT_FALSE(read_pe_file("/nonexistent/cudnn64_8.dll", &info, &error));
    EXPECT_NE(error.find("cannot open /nonexistent/cudnn64_8.dll"), std::string::npos) << error;

    const std::string path = ::testing::TempDir() + "pe_file_test_cudnn64_8.dll";
    const std::vector<uint8_t> image = cudnn_like_dll().build();
    FILE *file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fwrite(image.data(), 1, image.size(), file);
    std::fclose(file);
    ASSERT_TRUE(read_pe_file(path, &info, &error)) << error;
    EXPECT_EQ(info.imports.size(), 5u);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace librednn::tools
