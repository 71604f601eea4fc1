// Tests for "which copy does the loader pick": for a program without RPATH, and with --for through a
// dependency chain with RUNPATH and $ORIGIN, shadowed by LD_LIBRARY_PATH, or broken.
#include "loader_order.hpp"

#include <gtest/gtest.h>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::find_check;
using testing::TempDir;
using testing::text_of;
using tools::testing::SyntheticElf;

void write_cudnn8(const std::string &dir, const std::string &version) {
    testing::make_dirs(dir);
    for (const char *stem : {"cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train",
                             "cudnn_adv_infer", "cudnn_adv_train"}) {
        const std::string base = std::string("lib") + stem + ".so.";
        SyntheticElf elf;
        elf.soname = base + "8";
        testing::write_bytes(dir + "/" + base + version, elf.build());
        testing::link_to(base + version, dir + "/" + base + "8");
    }
}

struct World {
    TempDir temp;
    LoaderEnvironment loader;
    std::vector<Installation> installations;
    std::vector<InstallationFacts> facts;
    Report report;

    // The libraries NVIDIA's cuDNN 8 opens at run time are in the system directory, so that the copies
    // examined here are healthy unless a test breaks them.
    World() {
        loader.cache.source = "none";
        loader.system_dirs = {temp / "system"};
        testing::make_dirs(temp / "system");
        for (const char *name : {"libnvrtc.so", "libz.so.1"})
            testing::write_bytes(temp / "system/" + name, SyntheticElf{}.build());
    }
    void examine(const std::vector<std::string> &dirs) {
        std::vector<Place> places;
        for (const std::string &dir : dirs) places.push_back({dir, "--lib"});
        installations = find_installations(places);
        const CudaFacts cuda;
        const InstallationContext context{loader, installations, cuda, "", false};
        for (const Installation &installation : installations) {
            facts.push_back(examine_installation(installation, context, &report));
        }
    }
};

TEST(LoaderOrder, DefaultProgramGetsTheLdLibraryPathCopyAndOthersAreListed) {
    World w;
    write_cudnn8(w.temp / "system", "8.9.7");
    write_cudnn8(w.temp / "conda", "8.6.0");
    w.loader.ld_library_path = {w.temp / "conda"};
    w.examine({w.temp / "system", w.temp / "conda"});
    report_default_loading(w.installations, w.facts, w.loader, &w.report);
    const Check *check = find_check(w.report, "loader.libcudnn.so.8");
    ASSERT_NE(check, nullptr);
    EXPECT_EQ(check->verdict, Verdict::pass);
    EXPECT_NE(check->summary.find(w.temp / "conda/libcudnn.so.8"), std::string::npos) << check->summary;
    EXPECT_NE(check->summary.find("via LD_LIBRARY_PATH"), std::string::npos) << check->summary;
    EXPECT_NE(text_of(*check).find("not chosen: NVIDIA cuDNN 8.9.7 at " + w.temp.path() + "/system"), std::string::npos)
        << text_of(*check);
}

TEST(LoaderOrder, SubLibrariesFromAnotherCopyAreFail) {
    World w;
    write_cudnn8(w.temp / "system", "8.9.7");
    testing::make_dirs(w.temp / "partial");
    // A partial copy first on LD_LIBRARY_PATH: only cnn_infer, of another release.
    testing::write_bytes(w.temp / "partial/libcudnn_cnn_infer.so.8", SyntheticElf{}.build());
    w.loader.ld_library_path = {w.temp / "partial"};
    w.examine({w.temp / "system", w.temp / "partial"});
    report_default_loading(w.installations, w.facts, w.loader, &w.report);
    const Check *check = find_check(w.report, "loader.libcudnn.so.8.sublibraries");
    ASSERT_NE(check, nullptr);
    EXPECT_EQ(check->verdict, Verdict::fail);
    EXPECT_NE(text_of(*check).find("libcudnn_cnn_infer.so.8 comes from " + w.temp.path() + "/partial"),
              std::string::npos)
        << text_of(*check);
}

TEST(LoaderOrder, ForFollowsTheChainThroughRunpathAndOrigin) {
    World w;
    write_cudnn8(w.temp / "app/lib/cudnn", "8.9.7");
    SyntheticElf framework;
    framework.soname = "libframework.so";
    framework.needed = {"libcudnn.so.8"};
    framework.runpath = "$ORIGIN/cudnn";
    testing::write_bytes(w.temp / "app/lib/libframework.so", framework.build());
    SyntheticElf extension;
    extension.needed = {"libframework.so"};
    extension.runpath = "$ORIGIN/lib";
    testing::write_bytes(w.temp / "app/extension.so", extension.build());
    w.examine({w.temp / "app/lib/cudnn"});
    report_program_loading(w.temp / "app/extension.so", w.installations, w.facts, w.loader, &w.report);
    const Check *check = find_check(w.report, "for.libcudnn.so.8");
    ASSERT_NE(check, nullptr);
    EXPECT_EQ(check->verdict, Verdict::pass) << text_of(*check);
    EXPECT_NE(check->summary.find("extension.so -> libframework.so -> libcudnn.so.8 = " + w.temp.path() +
                                  "/app/lib/cudnn/libcudnn.so.8"),
              std::string::npos)
        << check->summary;
    EXPECT_NE(check->summary.find("via DT_RUNPATH of libframework.so"), std::string::npos) << check->summary;
    EXPECT_TRUE(check->show_details);

    // A copy on LD_LIBRARY_PATH wins over DT_RUNPATH.
    World shadowed;
    write_cudnn8(shadowed.temp / "other", "8.6.0");
    shadowed.loader.ld_library_path = {shadowed.temp / "other"};
    shadowed.examine({w.temp / "app/lib/cudnn", shadowed.temp / "other"});
    report_program_loading(w.temp / "app/extension.so", shadowed.installations, shadowed.facts, shadowed.loader,
                           &shadowed.report);
    check = find_check(shadowed.report, "for.libcudnn.so.8");
    ASSERT_NE(check, nullptr);
    EXPECT_NE(
        check->summary.find(shadowed.temp.path() + "/other/libcudnn.so.8 (NVIDIA cuDNN 8.6.0), via LD_LIBRARY_PATH"),
        std::string::npos)
        << check->summary;
}

TEST(LoaderOrder, ForReportsMissingDependenciesAndProgramsWithoutCudnn) {
    World w;
    SyntheticElf program;
    program.type = 2;
    program.needed = {"libmissing.so.4"};
    testing::write_bytes(w.temp / "program", program.build());
    report_program_loading(w.temp / "program", w.installations, w.facts, w.loader, &w.report);
    const Check *missing = find_check(w.report, "for.missing");
    ASSERT_NE(missing, nullptr);
    EXPECT_EQ(missing->verdict, Verdict::fail);
    EXPECT_NE(text_of(*missing).find("libmissing.so.4 (needed by program)"), std::string::npos);
    const Check *none = find_check(w.report, "for.cudnn");
    ASSERT_NE(none, nullptr);
    EXPECT_NE(none->summary.find("does not link cuDNN"), std::string::npos);

    report_program_loading(w.temp / "nothing-here", w.installations, w.facts, w.loader, &w.report);
    ASSERT_NE(find_check(w.report, "for.read"), nullptr);
    EXPECT_EQ(find_check(w.report, "for.read")->verdict, Verdict::fail);
}

}  // namespace
}  // namespace librednn::doctor
