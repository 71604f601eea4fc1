// Tests for the per-installation checks: broken installations built on the fly in temporary
// directories (copies of LibreDNN's libraries, synthetic ELF files, fixture libraries), each diagnosis.
#include "installation.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::find_check;
using testing::TempDir;
using testing::text_of;
using tools::testing::SyntheticElf;

const char *const kNineStems[] = {"cudnn",
                                  "cudnn_ops",
                                  "cudnn_cnn",
                                  "cudnn_adv",
                                  "cudnn_graph",
                                  "cudnn_engines_precompiled",
                                  "cudnn_engines_runtime_compiled",
                                  "cudnn_heuristic"};

std::string fixture(const std::string &name) { return std::string(LIBREDNN_DOCTOR_FIXTURE_DIR) + "/" + name; }

// Examines the one installation in `dir` and keeps the report.
struct Examined {
    Report report;
    InstallationFacts facts;
    std::vector<Installation> installations;

    const Check &check(const std::string &id) const {
        static const Check missing{"missing", Verdict::info, "", "check " + id + " was not reported", {}, "", false};
        const Check *found = find_check(report, id);
        return found ? *found : missing;
    }
};

Examined examine(const std::string &dir, const LoaderEnvironment &loader, const CudaFacts &cuda = {},
                 bool load = true) {
    Examined out;
    out.installations = find_installations({{dir, "--lib"}});
    if (out.installations.empty()) return out;
    const InstallationContext context{loader, out.installations, cuda, "", load};
    out.facts = examine_installation(out.installations.front(), context, &out.report);
    return out;
}

// This machine's loader (for libc and friends), without the test's own LD_LIBRARY_PATH.
LoaderEnvironment machine_loader() {
    LoaderEnvironment loader = current_loader_environment("", {});
    loader.ld_library_path.clear();
    return loader;
}

// An empty machine: no cache, one empty system directory of our own.
LoaderEnvironment isolated_loader(const std::string &system_dir) {
    LoaderEnvironment loader;
    loader.cache.source = "none";
    loader.system_dirs = {system_dir};
    return loader;
}

// A cuDNN set of synthetic ELF files (loadable by nobody), lib<stem>.so.<major> -> .so.<version>.
void write_synthetic_set(const std::string &dir, int major, const std::string &version,
                         const std::vector<std::string> &stems, const std::vector<std::string> &needed = {},
                         const std::string &runpath = {}) {
    testing::make_dirs(dir);
    for (const std::string &stem : stems) {
        const std::string soname = "lib" + stem + ".so." + std::to_string(major);
        SyntheticElf elf;
        elf.soname = soname;
        elf.needed = needed;
        elf.runpath = runpath;
        testing::write_bytes(dir + "/" + soname.substr(0, soname.size() - 1) + version, elf.build());
        testing::link_to(soname.substr(0, soname.size() - 1) + version, dir + "/" + soname);
    }
}

std::vector<std::string> eight_stems() {
    return {"cudnn",           "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
            "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train"};
}

TEST(Installation, LibreDnnCopyPassesEveryCheck) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    const Examined e = examine(temp / "prefix/lib", machine_loader());
    EXPECT_TRUE(e.facts.librednn);
    EXPECT_EQ(e.facts.version.text(), "8.9.7");
    for (const char *id : {"install.complete", "install.files", "install.links", "install.versions", "install.loads",
                           "install.dependencies", "install.headers"}) {
        EXPECT_EQ(e.check(id).verdict, Verdict::pass) << id << ": " << text_of(e.check(id));
    }
    EXPECT_NE(e.check("install.versions").summary.find("one LibreDNN build"), std::string::npos);
    EXPECT_EQ(e.facts.failures, 0);
}

TEST(Installation, MissingSubLibraryIsFailNamingWhatItProvides) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    for (const char *suffix : {"", ".8", ".8.9.7"})
        ::unlink((temp / "prefix/lib/libcudnn_cnn_infer.so").append(suffix).c_str());
    const Examined e = examine(temp / "prefix/lib", machine_loader(), {}, false);
    const Check &check = e.check("install.complete");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(text_of(check).find("libcudnn_cnn_infer.so.8: convolution forward"), std::string::npos) << text_of(check);
    EXPECT_NE(text_of(check).find("CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING"), std::string::npos);
}

TEST(Installation, DanglingSonameLinkIsFail) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    ::unlink((temp / "prefix/lib/libcudnn_adv_train.so.8.9.7").c_str());
    const Examined e = examine(temp / "prefix/lib", machine_loader(), {}, false);
    EXPECT_EQ(e.check("install.links").verdict, Verdict::fail);
    EXPECT_NE(text_of(e.check("install.links"))
                  .find("libcudnn_adv_train.so.8 -> libcudnn_adv_train.so.8.9.7 points to nothing"),
              std::string::npos)
        << text_of(e.check("install.links"));
    EXPECT_EQ(e.check("install.complete").verdict, Verdict::fail);
}

TEST(Installation, MissingSonameLinkBesideTheVersionedFileIsFail) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    ::unlink((temp / "prefix/lib/libcudnn_ops_train.so.8").c_str());
    const Examined e = examine(temp / "prefix/lib", machine_loader(), {}, false);
    EXPECT_EQ(e.check("install.links").verdict, Verdict::fail);
    EXPECT_NE(text_of(e.check("install.links")).find("libcudnn_ops_train.so.8 is missing although"), std::string::npos)
        << text_of(e.check("install.links"));
    EXPECT_NE(e.check("install.links").fix.find("ldconfig"), std::string::npos);
}

TEST(Installation, LibraryOfAnotherLibreDnnBuildIsFailAndFailsToLoadTogether) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    ASSERT_TRUE(testing::rewrite_build_id(temp / "prefix/lib/libcudnn_cnn_train.so.8.9.7"));
    const Examined e = examine(temp / "prefix/lib", machine_loader(), {}, false);
    const Check &check = e.check("install.versions");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(check.summary.find("2 different LibreDNN builds"), std::string::npos) << text_of(check);
    EXPECT_NE(text_of(check).find("libcudnn_cnn_train.so.8"), std::string::npos);
}

TEST(Installation, SubLibrariesOfTwoReleasesAreFail) {
    TempDir temp;
    const std::string dir = temp / "lib";
    std::vector<std::string> stems = eight_stems();
    write_synthetic_set(dir, 8, "8.9.7", {stems.begin(), stems.begin() + 3});
    write_synthetic_set(dir, 8, "8.9.2", {stems.begin() + 3, stems.end()});
    const Examined e = examine(dir, isolated_loader(temp / "system"), {}, false);
    EXPECT_EQ(e.check("install.complete").verdict, Verdict::pass);
    const Check &check = e.check("install.versions");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(text_of(check).find("8.9.2: libcudnn_cnn_infer.so.8"), std::string::npos) << text_of(check);
    EXPECT_NE(text_of(check).find("8.9.7: libcudnn.so.8"), std::string::npos) << text_of(check);
}

TEST(Installation, WrongElfClassTruncationAndNonElfFilesAreFail) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    const std::string lib = temp / "prefix/lib";
    SyntheticElf thirty_two;
    thirty_two.is64 = false;
    thirty_two.machine = 3;
    ::unlink((lib + "/libcudnn_adv_infer.so.8.9.7").c_str());
    testing::write_bytes(lib + "/libcudnn_adv_infer.so.8.9.7", thirty_two.build());
    const std::string whole = testing::read_file(lib + "/libcudnn_ops_train.so.8.9.7");
    ::unlink((lib + "/libcudnn_ops_train.so.8.9.7").c_str());
    testing::write_file(lib + "/libcudnn_ops_train.so.8.9.7", whole.substr(0, whole.size() / 2));
    ::unlink((lib + "/libcudnn_cnn_train.so.8.9.7").c_str());
    testing::write_file(lib + "/libcudnn_cnn_train.so.8.9.7",
                        "version https://git-lfs.github.com/spec/v1\noid sha256:0\n");

    const Examined e = examine(lib, machine_loader());
    const std::string files = text_of(e.check("install.files"));
    EXPECT_EQ(e.check("install.files").verdict, Verdict::fail);
    EXPECT_NE(files.find("3 of 7 libraries are unusable"), std::string::npos) << files;
    EXPECT_NE(files.find("libcudnn_adv_infer.so.8 is a 32-bit i386 library"), std::string::npos) << files;
    EXPECT_NE(files.find("libcudnn_ops_train.so.8 is damaged: file is truncated"), std::string::npos) << files;
    EXPECT_NE(files.find("libcudnn_cnn_train.so.8 is not an ELF file"), std::string::npos) << files;
    // The loader agrees: none of the three loads, nor adv_train, which needs adv_infer; the truncated
    // library may even crash the process that maps it (SIGBUS), which only a child survives.
    const std::string loads = text_of(e.check("install.loads"));
    EXPECT_EQ(e.check("install.loads").verdict, Verdict::fail);
    EXPECT_NE(loads.find("4 of 7 libraries do not load"), std::string::npos) << loads;
    EXPECT_NE(loads.find("libcudnn_adv_train.so.8: libcudnn_adv_infer.so.8: wrong ELF class: ELFCLASS32"),
              std::string::npos)
        << loads;
    EXPECT_NE(loads.find("libcudnn_cnn_train.so.8: " + lib + "/libcudnn_cnn_train.so.8: file too short"),
              std::string::npos)
        << loads;
}

TEST(Installation, UnresolvedDependencyIsFail) {
    TempDir temp;
    const std::string dir = temp / "lib";
    write_synthetic_set(dir, 8, "8.9.7", eight_stems(), {"libcublas.so.11"});
    const Examined e = examine(dir, isolated_loader(temp / "system"), {}, false);
    const Check &check = e.check("install.dependencies");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(text_of(check).find("libcudnn_ops_infer.so.8 needs libcublas.so.11, which the loader cannot find"),
              std::string::npos)
        << text_of(check);
}

TEST(Installation, SiblingShadowedFromLdLibraryPathIsFailWhenItsReleaseDiffers) {
    TempDir temp;
    const std::string ours = temp / "ours", theirs = temp / "theirs";
    std::vector<std::string> stems(std::begin(kNineStems), std::end(kNineStems));
    write_synthetic_set(ours, 9, "9.19.0", stems, {"libcudnn_graph.so.9"}, "$ORIGIN");
    write_synthetic_set(theirs, 9, "9.1.0", {"cudnn_graph"});
    LoaderEnvironment loader = isolated_loader(temp / "system");
    Examined e = examine(ours, loader, {}, false);
    EXPECT_EQ(e.check("install.dependencies").verdict, Verdict::pass) << text_of(e.check("install.dependencies"));

    loader.ld_library_path = {theirs};  // searched before DT_RUNPATH
    e = examine(ours, loader, {}, false);
    const Check &check = e.check("install.dependencies");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(text_of(check).find("loads libcudnn_graph.so.9 from " + theirs), std::string::npos) << text_of(check);
    EXPECT_NE(text_of(check).find("release 9.1.0 instead of 9.19.0"), std::string::npos) << text_of(check);
    EXPECT_NE(check.fix.find("LD_LIBRARY_PATH"), std::string::npos);
}

TEST(Installation, NvidiaCudnn8WithoutNvrtcCudaOrZlibIsFail) {
    TempDir temp;
    const std::string dir = temp / "lib", system = temp / "system";
    write_synthetic_set(dir, 8, "8.9.7", eight_stems());
    testing::make_dirs(system);
    CudaFacts cuda;
    cuda.driver_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
    Examined e = examine(dir, isolated_loader(system), cuda, false);
    EXPECT_FALSE(e.facts.librednn);
    const Check &check = e.check("install.runtime_libraries");
    EXPECT_EQ(check.verdict, Verdict::fail);
    const std::string text = text_of(check);
    EXPECT_NE(
        text.find("libnvrtc.so is not found: cnn_infer opens it for runtime-compiled kernels and aborts the process"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("libcuda.so is not found"), std::string::npos) << text;
    EXPECT_NE(text.find("libz.so.1 is not found"), std::string::npos) << text;

    for (const char *name : {"libnvrtc.so", "libcuda.so", "libz.so.1"}) {
        testing::write_bytes(system + "/" + name, SyntheticElf{}.build());
    }
    e = examine(dir, isolated_loader(system), cuda, false);
    EXPECT_EQ(e.check("install.runtime_libraries").verdict, Verdict::pass)
        << text_of(e.check("install.runtime_libraries"));
}

TEST(Installation, HeadersBesideTheLibrariesMustMatchThem) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    testing::write_file(temp / "prefix/include/cudnn_version.h",
                        "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n");
    const Examined e = examine(temp / "prefix/lib", machine_loader());
    const Check &check = e.check("install.headers");
    EXPECT_EQ(check.verdict, Verdict::fail);
    EXPECT_NE(check.summary.find("declares 8.6.0 but the libraries beside it are 8.9.7"), std::string::npos)
        << check.summary;
}

TEST(Installation, LoadedVersionsDriverAndGpuAreChecked) {
    TempDir temp;
    const std::string dir = temp / "lib";
    testing::make_dirs(dir);
    for (const char *stem : kNineStems) {
        testing::copy_file(fixture("libdoctor_fake_cudnn_91900.so"), dir + "/lib" + stem + ".so.9");
    }
    CudaFacts cuda;
    cuda.driver_path = "/fake/libcuda.so.1";
    cuda.driver_version = 12040;
    cuda.init_result = 0;
    cuda.gpus = {{0, "Old GPU", 6, 1, 8ull << 30}};
    const Examined e = examine(dir, isolated_loader(temp / "system"), cuda);
    EXPECT_EQ(e.facts.version.text(), "9.19.0");
    EXPECT_EQ(e.check("install.versions").summary, "every library is 9.19.0 (cudnnGetVersion 91900)");
    EXPECT_EQ(e.check("install.loads").verdict, Verdict::pass) << text_of(e.check("install.loads"));
    const Check &driver = e.check("install.cuda");
    EXPECT_EQ(driver.verdict, Verdict::fail);
    EXPECT_NE(driver.summary.find("built with CUDA 13.1"), std::string::npos) << driver.summary;
    EXPECT_NE(driver.summary.find("the driver supports only CUDA 12.4"), std::string::npos) << driver.summary;
    const Check &gpu = e.check("install.gpu");
    EXPECT_EQ(gpu.verdict, Verdict::fail);
    EXPECT_NE(gpu.summary.find("older than CUDA 13 supports (7.5 and newer)"), std::string::npos) << gpu.summary;
}

TEST(Installation, LibraryThatAbortsWhileLoadingIsReportedAndTheDoctorSurvives) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    const std::string victim = temp / "prefix/lib/libcudnn_cnn_infer.so.8.9.7";
    ::unlink(victim.c_str());
    testing::copy_file(fixture("libdoctor_aborting_library.so"), victim);
    const Examined e = examine(temp / "prefix/lib", machine_loader());
    const Check &check = e.check("install.loads");
    EXPECT_EQ(check.verdict, Verdict::fail);
    const std::string text = text_of(check);
    EXPECT_NE(text.find("libcudnn_cnn_infer.so.8: the process loading it was killed by signal 6"), std::string::npos)
        << text;
    EXPECT_NE(text.find("Could not load library libcudnn_cnn_infer.so.8"), std::string::npos) << text;
}

}  // namespace
}  // namespace librednn::doctor
