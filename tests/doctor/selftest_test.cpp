// Tests for the self-test's verdicts: a library that computes wrongly is FAIL, one that answers
// NOT_SUPPORTED (cuDNN 8's 9 or cuDNN 9's 3000) is WARN "not provided", a missing function is FAIL.
#include "selftest.hpp"

#include <gtest/gtest.h>

#include "doctor_test_util.hpp"

namespace librednn::doctor {
namespace {

using testing::find_check;
using testing::TempDir;
using testing::text_of;

// The fixture library as the only library of an installation, self-tested up to level 2.
Report self_test_fixture(const std::string &fixture, const std::string &soname) {
    TempDir temp;
    testing::make_dirs(temp / "lib");
    testing::copy_file(std::string(LIBREDNN_DOCTOR_FIXTURE_DIR) + "/" + fixture, temp / "lib/" + soname);
    LoaderEnvironment loader;
    loader.cache.source = "none";
    const std::vector<Installation> installations = find_installations({{temp / "lib", "--lib"}});
    EXPECT_EQ(installations.size(), 1u);
    const CudaFacts cuda;
    const InstallationContext context{loader, installations, cuda, "", true};
    Report report;
    const InstallationFacts facts = examine_installation(installations.front(), context, &report);
    EXPECT_TRUE(facts.librednn);
    SelfTestOptions options;
    options.level = 2;
    options.seed = 5;
    run_self_test(facts, cuda, options, &report);
    return report;
}

TEST(SelfTest, WrongResultsAreFailNotProvidedIsWarnMissingFunctionIsFail) {
    const Report report = self_test_fixture("libdoctor_fake_compute_8907.so", "libcudnn.so.8");
    ASSERT_NE(find_check(report, "selftest.load"), nullptr);
    EXPECT_EQ(find_check(report, "selftest.load")->verdict, Verdict::pass);
    EXPECT_EQ(find_check(report, "selftest.handle")->verdict, Verdict::pass);

    const Check *softmax = find_check(report, "selftest.softmax.host");
    ASSERT_NE(softmax, nullptr);
    EXPECT_EQ(softmax->verdict, Verdict::fail);
    EXPECT_NE(softmax->summary.find("wrong results: accurate/channel: relative error"), std::string::npos)
        << softmax->summary;
    EXPECT_NE(softmax->summary.find("worst at element"), std::string::npos);

    const Check *pooling = find_check(report, "selftest.pooling.host");
    ASSERT_NE(pooling, nullptr);
    EXPECT_EQ(pooling->verdict, Verdict::warn);
    EXPECT_NE(
        pooling->summary.find("not provided by this library (cudnnPoolingForward: CUDNN_STATUS_NOT_SUPPORTED (9))"),
        std::string::npos)
        << pooling->summary;

    const Check *convolution = find_check(report, "selftest.convolution.host");
    ASSERT_NE(convolution, nullptr);
    EXPECT_EQ(convolution->verdict, Verdict::fail);
    EXPECT_NE(convolution->summary.find("the library does not export cudnnConvolutionForward"), std::string::npos)
        << text_of(*convolution);
    EXPECT_EQ(report.exit_status(false), 1);
}

TEST(SelfTest, CudnnNineNotSupportedCodesAreRecognised) {
    const Report report = self_test_fixture("libdoctor_fake_compute_91900.so", "libcudnn.so.9");
    const Check *pooling = find_check(report, "selftest.pooling.host");
    ASSERT_NE(pooling, nullptr);
    EXPECT_EQ(pooling->verdict, Verdict::warn) << pooling->summary;
    EXPECT_NE(pooling->summary.find("(3000)"), std::string::npos) << pooling->summary;
}

TEST(SelfTest, SpeedLevelSaysSkippedWithoutGpu) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    LoaderEnvironment loader = current_loader_environment("", {});
    loader.ld_library_path.clear();
    const std::vector<Installation> installations = find_installations({{temp / "prefix/lib", "--lib"}});
    const CudaFacts no_gpu;
    const InstallationContext context{loader, installations, no_gpu, "", true};
    Report report;
    const InstallationFacts facts = examine_installation(installations.front(), context, &report);
    SelfTestOptions options;
    options.level = 3;
    run_self_test(facts, no_gpu, options, &report);
    const Check *speed = find_check(report, "selftest.speed");
    ASSERT_NE(speed, nullptr);
    EXPECT_EQ(speed->verdict, Verdict::skip);
    EXPECT_EQ(speed->summary, "skipped: no GPU");
}

}  // namespace
}  // namespace librednn::doctor
