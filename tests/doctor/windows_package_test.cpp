// Tests for --inspect: synthetic Windows cuDNN packages (PE DLLs with chosen machine, imports and version
// resources, headers, import libraries), complete and broken.
#include "windows_package.hpp"

#include <gtest/gtest.h>

#include "doctor_test_util.hpp"
#include "pe_file.hpp"
#include "synthetic_pe.hpp"

namespace librednn::doctor {
namespace {

using testing::find_check;
using testing::TempDir;
using testing::text_of;
using tools::testing::SyntheticPe;

const char *const kDlls8[] = {"cudnn64_8.dll",           "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll",
                              "cudnn_cnn_infer64_8.dll", "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll",
                              "cudnn_adv_train64_8.dll"};

SyntheticPe cudnn_dll(int cuda_major = 11) {
    SyntheticPe pe;
    const std::string suffix = std::to_string(cuda_major);
    pe.imports = {"cublas64_" + suffix + ".dll",
                  "cublasLt64_" + suffix + ".dll",
                  "zlibwapi.dll",
                  "KERNEL32.dll",
                  "MSVCP140.dll",
                  "VCRUNTIME140.dll"};
    pe.delay_imports = {"nvrtc64_" + suffix + "2_0.dll"};
    pe.with_version = true;
    const uint16_t version[4] = {8, 9, 7, 29};
    std::copy(version, version + 4, pe.file_version);
    std::copy(version, version + 4, pe.product_version);
    return pe;
}

// The layout of NVIDIA's cuDNN 8 zip: bin/*.dll, include/*.h, lib/x64/*.lib, plus zlibwapi.dll.
void write_package(const std::string &root) {
    testing::make_dirs(root + "/bin");
    testing::make_dirs(root + "/include");
    testing::make_dirs(root + "/lib/x64");
    for (const char *dll : kDlls8) testing::write_bytes(root + "/bin/" + dll, cudnn_dll().build());
    SyntheticPe zlib;
    zlib.imports = {"KERNEL32.dll"};
    testing::write_bytes(root + "/bin/zlibwapi.dll", zlib.build());
    testing::write_file(root + "/include/cudnn_version.h",
                        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
    for (const char *lib : {"cudnn.lib", "cudnn_ops_infer.lib", "cudnn_ops_train.lib", "cudnn_cnn_infer.lib",
                            "cudnn_cnn_train.lib", "cudnn_adv_infer.lib", "cudnn_adv_train.lib"}) {
        testing::write_file(root + "/lib/x64/" + lib, "!<arch>\n");
    }
}

TEST(WindowsPackage, CompleteCudnn8PackagePassesEveryCheck) {
    TempDir temp;
    write_package(temp.path());
    Report report;
    inspect_windows_package(temp.path(), &report);
    ASSERT_EQ(report.sections.size(), 1u);
    for (const Check &check : report.sections[0].checks) {
        EXPECT_TRUE(check.verdict == Verdict::pass || check.verdict == Verdict::info)
            << check.id << ": " << text_of(check);
    }
    const Check *imports = find_check(report, "windows.cuda_imports");
    ASSERT_NE(imports, nullptr);
    EXPECT_NE(imports->summary.find("built for CUDA 11"), std::string::npos) << imports->summary;
    EXPECT_NE(text_of(*imports).find("cublas64_11.dll"), std::string::npos);
    EXPECT_NE(find_check(report, "windows.msvc_runtime")->summary.find("msvcp140.dll"), std::string::npos);
    EXPECT_EQ(find_check(report, "windows.versions")->summary, "file version 8.9.7.29 in every DLL");
    EXPECT_EQ(report.sections[0].facts.at("cuda_major"), "11");
}

TEST(WindowsPackage, MissingDllWrongMachineAndMixedCudaAreFail) {
    TempDir temp;
    write_package(temp.path());
    ::unlink((temp.path() + "/bin/cudnn_cnn_train64_8.dll").c_str());
    SyntheticPe thirty_two = cudnn_dll();
    thirty_two.machine = tools::kPeMachineI386;
    thirty_two.pe32_plus = false;
    testing::write_bytes(temp.path() + "/bin/cudnn_adv_train64_8.dll", thirty_two.build());
    testing::write_bytes(temp.path() + "/bin/cudnn_adv_infer64_8.dll", cudnn_dll(12).build());
    Report report;
    inspect_windows_package(temp.path(), &report);
    EXPECT_EQ(find_check(report, "windows.complete")->verdict, Verdict::fail);
    EXPECT_NE(find_check(report, "windows.complete")->summary.find("cudnn_cnn_train64_8.dll"), std::string::npos);
    EXPECT_EQ(find_check(report, "windows.machine")->verdict, Verdict::fail);
    EXPECT_NE(text_of(*find_check(report, "windows.machine")).find("cudnn_adv_train64_8.dll: x86 (i386)"),
              std::string::npos);
    const Check *imports = find_check(report, "windows.cuda_imports");
    EXPECT_EQ(imports->verdict, Verdict::fail);
    EXPECT_NE(text_of(*imports).find("CUDA 12: cudnn_adv_infer64_8.dll"), std::string::npos) << text_of(*imports);
}

TEST(WindowsPackage, ZlibMissingIsWarnAndThirtyTwoBitZlibIsFail) {
    TempDir temp;
    write_package(temp.path());
    ::unlink((temp.path() + "/bin/zlibwapi.dll").c_str());
    Report missing;
    inspect_windows_package(temp.path(), &missing);
    EXPECT_EQ(find_check(missing, "windows.zlib")->verdict, Verdict::warn);
    EXPECT_NE(find_check(missing, "windows.zlib")->fix.find("64-bit zlibwapi.dll on PATH"), std::string::npos);

    SyntheticPe zlib;
    zlib.machine = tools::kPeMachineI386;
    zlib.pe32_plus = false;
    testing::write_bytes(temp.path() + "/zlibwapi.dll", zlib.build());
    Report wrong;
    inspect_windows_package(temp.path(), &wrong);
    EXPECT_EQ(find_check(wrong, "windows.zlib")->verdict, Verdict::fail);
    EXPECT_NE(find_check(wrong, "windows.zlib")->summary.find("is x86 (i386), not x64"), std::string::npos);
}

TEST(WindowsPackage, MixedVersionsAndMismatchedHeadersAreFail) {
    TempDir temp;
    write_package(temp.path());
    SyntheticPe older = cudnn_dll();
    older.file_version[2] = 2;
    testing::write_bytes(temp.path() + "/bin/cudnn_ops_train64_8.dll", older.build());
    testing::write_file(temp.path() + "/include/cudnn_version.h",
                        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n");
    Report report;
    inspect_windows_package(temp.path(), &report);
    EXPECT_EQ(find_check(report, "windows.versions")->verdict, Verdict::fail);
    EXPECT_NE(text_of(*find_check(report, "windows.versions")).find("8.9.2.29: cudnn_ops_train64_8.dll"),
              std::string::npos);
    // The DLLs disagree among themselves; the header is compared with none of them then.
    Report headers;
    ::unlink((temp.path() + "/bin/cudnn_ops_train64_8.dll").c_str());
    testing::write_bytes(temp.path() + "/bin/cudnn_ops_train64_8.dll", cudnn_dll().build());
    inspect_windows_package(temp.path(), &headers);
    EXPECT_EQ(find_check(headers, "windows.headers")->verdict, Verdict::fail);
    EXPECT_NE(find_check(headers, "windows.headers")->summary.find("declares 8.6.0, the DLLs are 8.9.7.29"),
              std::string::npos);
}

TEST(WindowsPackage, EachCudaVariantDirectoryOfCudnn9IsItsOwnSet) {
    TempDir temp;
    for (const char *variant : {"12.9", "13.0"}) {
        const std::string dir = temp.path() + "/bin/" + variant;
        testing::make_dirs(dir);
        for (const char *stem : {"cudnn", "cudnn_ops", "cudnn_cnn", "cudnn_adv", "cudnn_graph",
                                 "cudnn_engines_precompiled", "cudnn_engines_runtime_compiled", "cudnn_heuristic"}) {
            SyntheticPe pe;
            pe.imports = {std::string("cublasLt64_") + variant[0] + variant[1] + ".dll"};
            testing::write_bytes(dir + "/" + stem + "64_9.dll", pe.build());
        }
    }
    Report report;
    inspect_windows_package(temp.path(), &report);
    ASSERT_EQ(report.sections.size(), 2u);
    EXPECT_EQ(report.sections[0].facts.at("cuda_major"), "12");
    EXPECT_EQ(report.sections[1].facts.at("cuda_major"), "13");
    EXPECT_EQ(find_check(report, "windows.complete")->verdict, Verdict::pass);
}

TEST(WindowsPackage, DirectoryWithoutDllsIsFail) {
    TempDir temp;
    Report report;
    inspect_windows_package(temp.path(), &report);
    EXPECT_EQ(find_check(report, "windows.complete")->verdict, Verdict::fail);
    Report missing;
    inspect_windows_package(temp.path() + "/nothing", &missing);
    EXPECT_EQ(find_check(missing, "windows.read")->verdict, Verdict::fail);
}

TEST(WindowsPackage, CudaMajorsOfDllNames) {
    EXPECT_EQ(cuda_major_of_dll("cudart64_110.dll"), 11);
    EXPECT_EQ(cuda_major_of_dll("cublas64_12.dll"), 12);
    EXPECT_EQ(cuda_major_of_dll("cublaslt64_11.dll"), 11);
    EXPECT_EQ(cuda_major_of_dll("nvrtc64_112_0.dll"), 11);
    EXPECT_EQ(cuda_major_of_dll("kernel32.dll"), -1);
}

}  // namespace
}  // namespace librednn::doctor
