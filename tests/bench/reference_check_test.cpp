// Check mode against LibreDNN's host references (no --vs): the tensor-op families run src/reference/
// on the inputs the library read, LibreDNN's own library agrees with them, and a library 0.1% off is
// reported 0.1% off; families without a reference say so.
#include "bench_test_util.hpp"
#include "check.hpp"
#include "problem.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <regex>

namespace librednn::bench {
namespace {

using test::contains;
using test::read_file;
using test::run_bench;
using test::TempDir;

std::unique_ptr<Problem> parsed(const std::string &text) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, ProblemDefaults{}, &problem, &error), ParseResult::ok) << text << ": " << error;
    return problem;
}

// The number after `"key": ` in a JSON text, or NaN.
double json_number(const std::string &json, const std::string &key) {
    std::smatch match;
    if (!std::regex_search(json, match, std::regex("\"" + key + "\": ([-0-9.e+]+)"))) return NAN;
    return std::stod(match[1]);
}

// A new seed of the random inputs for every run (printed with each failure).
std::string fresh_seed() { return std::to_string(std::random_device{}() % 1000000 + 1); }

// Runs `problem` alone in host check mode on `library` and returns the JSON result file.
std::string check_alone(const std::string &library, const std::string &problem, const std::string &seed) {
    TempDir dir;
    const auto run = run_bench(
        {"--lib", library, "--host", "--check", "--seed", seed, "--problem", problem, "--json", dir.file("r.json")});
    EXPECT_EQ(run.exit_code, 0) << problem << "\n" << run.out << run.err;
    return read_file(dir.file("r.json"));
}

TEST(BenchReferenceCheck, ReluReferenceFillsTheOutputFromTheInputs) {
    const auto problem = parsed("op=act mode=relu n=1 c=1 h=1 w=4 alpha=2");
    ASSERT_TRUE(problem);
    const Reference reference = reference_for(*problem);
    ASSERT_TRUE(reference.compute) << reference.unavailable;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    HostTensors tensors = {{-1.5, 0.25, 3, -0}, {nan, nan, nan, nan}};
    ASSERT_TRUE(reference.compute(&tensors).ok());
    EXPECT_EQ(tensors[1], (std::vector<double>{0, 0.5, 6, 0}));
    EXPECT_EQ(tensors[0], (std::vector<double>{-1.5, 0.25, 3, -0}));  // inputs untouched
}

TEST(BenchReferenceCheck, BroadcastAddTensorReferenceAddsTheBiasPerChannel) {
    const auto problem = parsed("op=add_tensor adims=1x2x1x1 n=1 c=2 h=1 w=2 beta=1");
    ASSERT_TRUE(problem);
    const Reference reference = reference_for(*problem);
    ASSERT_TRUE(reference.compute) << reference.unavailable;
    HostTensors tensors = {{10, 20}, {1, 2, 3, 4}};
    ASSERT_TRUE(reference.compute(&tensors).ok());
    EXPECT_EQ(tensors[1], (std::vector<double>{11, 12, 23, 24}));
}

TEST(BenchReferenceCheck, FamiliesWithoutAReferenceSaySo) {
    for (const std::string text : {"op=conv dir=fwd n=2 c=8 h=8 w=8 k=8 r=3 s=3 pad=1x1",
                                   "op=bn phase=train_fwd n=2 c=8 h=4 w=4", "op=pool mode=max n=2 c=8 h=4 w=4"}) {
        const auto problem = parsed(text);
        ASSERT_TRUE(problem);
        const Reference reference = reference_for(*problem);
        EXPECT_FALSE(reference.compute) << text;
        EXPECT_EQ(reference.unavailable, "no reference yet") << text;
    }
}

// LibreDNN's own library on the host against its own references: float results within 1e-6.
TEST(BenchReferenceCheck, LibreDNNAgreesWithItsReferencesOnTensorOps) {
    const std::vector<std::string> problems = {
        "op=act mode=sigmoid n=2 c=8 h=4 w=4",
        "op=act mode=elu coef=0.5 n=2 c=8 h=4 w=4 beta=0.5",
        "op=act dir=bwd mode=tanh n=2 c=8 h=4 w=4",
        "op=act dir=bwd mode=swish layout=nhwc n=2 c=8 h=4 w=4",
        "op=softmax n=2 c=8 h=3 w=3",
        "op=softmax dir=bwd algo=log mode=channel n=2 c=8 h=3 w=3",
        "op=op_tensor tensor_op=mul bdims=1x8x1x1 n=2 c=8 h=4 w=4 alpha2=3",
        "op=op_tensor tensor_op=max n=2 c=8 h=4 w=4 beta=1",
        "op=add_tensor adims=1x8x1x1 n=2 c=8 h=4 w=4",
        "op=transform from=nchw to=nhwc n=2 c=8 h=4 w=4",
        "op=transform from=nhwc to=nchw n=2 c=8 h=4 w=4 alpha=2 beta=0.5",
    };
    const std::string seed = fresh_seed();
    for (const std::string &problem : problems) {
        const std::string json = check_alone(LIBREDNN_BENCH_CUDNN, problem, seed);
        EXPECT_TRUE(contains(json, "\"against\": \"reference\", \"compared\": true"))
            << problem << " (seed " << seed << ")\n"
            << json;
        EXPECT_LE(json_number(json, "relative_error"), 1e-6) << problem << " (seed " << seed << ")\n" << json;
        EXPECT_TRUE(contains(json, "\"nan_mismatches\": 0")) << problem << "\n" << json;
    }
}

// The test double that scales every output by 1.001 is reported 0.1% off the reference.
TEST(BenchReferenceCheck, AScaledLibraryIsReportedAsFarFromTheReferenceAsItIs) {
    const std::string seed = fresh_seed();
    const std::string problem = "op=act mode=sigmoid n=2 c=8 h=8 w=8";
    const std::string json = check_alone(LIBREDNN_BENCH_FAKE_V8_SCALED, problem, seed);
    EXPECT_TRUE(contains(json, "\"against\": \"reference\", \"compared\": true")) << json;
    const double relative = json_number(json, "relative_error");
    EXPECT_GT(relative, 0.9e-3) << problem << " (seed " << seed << ")\n" << json;
    EXPECT_LT(relative, 1.1e-3) << problem << " (seed " << seed << ")\n" << json;
    EXPECT_GT(json_number(json, "max_error"), 0) << json;
    EXPECT_TRUE(contains(json, "\"worst\": \"y\"")) << json;
    // The unscaled double computes the same sigmoid: it agrees to float rounding.
    const std::string exact = check_alone(LIBREDNN_BENCH_FAKE_V8, problem, seed);
    EXPECT_LE(json_number(exact, "relative_error"), 1e-6) << exact;
}

}  // namespace
}  // namespace librednn::bench
