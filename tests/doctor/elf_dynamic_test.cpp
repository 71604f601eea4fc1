// Tests for the positioned-read ELF reader that walks dependency trees: what it reads, and damage.
#include "elf_dynamic.hpp"

#include <gtest/gtest.h>

#include <random>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::TempDir;
using tools::testing::SyntheticElf;

TEST(ElfDynamic, ReadsClassMachineSonameNeededRpathAndRunpath) {
    TempDir temp;
    for (const bool is64 : {true, false}) {
        SyntheticElf elf;
        elf.is64 = is64;
        elf.machine = is64 ? 62 : 3;
        elf.soname = "libcudnn.so.8";
        elf.needed = {"libcudnn_ops_infer.so.8", "libc.so.6"};
        elf.rpath = "/opt/a";
        elf.runpath = "$ORIGIN";
        testing::write_bytes(temp / "lib.so", elf.build());
        ElfDynamic info;
        std::string error;
        ASSERT_TRUE(read_elf_dynamic(temp / "lib.so", &info, &error)) << error;
        EXPECT_EQ(info.elf_class, is64 ? 64 : 32);
        EXPECT_EQ(info.machine, is64 ? 62 : 3);
        EXPECT_EQ(info.soname, "libcudnn.so.8");
        EXPECT_EQ(info.needed, (std::vector<std::string>{"libcudnn_ops_infer.so.8", "libc.so.6"}));
        EXPECT_EQ(info.rpath, "/opt/a");
        EXPECT_EQ(info.runpath, "$ORIGIN");
    }
}

TEST(ElfDynamic, TruncationAndRandomDamageFailCleanly) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    TempDir temp;
    SyntheticElf elf;
    elf.needed = {"libz.so.1"};
    elf.runpath = "$ORIGIN";
    const std::vector<uint8_t> image = elf.build();
    ElfDynamic info;
    std::string error;
    for (size_t length = 0; length < image.size(); length += 7) {
        testing::write_bytes(temp / "cut.so", std::vector<uint8_t>(image.begin(), image.begin() + length));
        EXPECT_FALSE(read_elf_dynamic(temp / "cut.so", &info, &error) && info.needed.size() == 1 &&
                     info.runpath == "$ORIGIN")
            << "length " << length;
    }
    for (int round = 0; round < 300; ++round) {
        std::vector<uint8_t> damaged = image;
        damaged[random() % damaged.size()] = static_cast<uint8_t>(random());
        damaged[random() % 128] = static_cast<uint8_t>(random());
        testing::write_bytes(temp / "damaged.so", damaged);
        read_elf_dynamic(temp / "damaged.so", &info, &error);  // must return, whatever it decides
    }
    EXPECT_FALSE(read_elf_dynamic(temp / "missing.so", &info, &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace librednn::doctor
