// Check mode against LibreDNN's host references (no --vs): the tensor-op families (reductions, sets and
// scales among them) run src/reference/ on the inputs the library read, LibreDNN's own library agrees
// with them, and a library 0.1% off is reported 0.1% off; families without a reference say so.
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

TEST(BenchReferenceCheck, MaxReductionReferenceWritesTheMaximumAndTheFirstPositionOfIt) {
    const auto problem = parsed("op=reduce reduce_op=max indices=1 n=1 c=2 h=1 w=4 cdims=1x2x1x1 alpha=2");
    ASSERT_TRUE(problem);
    const Reference reference = reference_for(*problem);
    ASSERT_TRUE(reference.compute) << reference.unavailable;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    HostTensors tensors = {{1, 5, -2, 5, -1, -3, -0.5, -4}, {nan, nan}, {77, 77}};
    ASSERT_TRUE(reference.compute(&tensors).ok());
    EXPECT_EQ(tensors[1], (std::vector<double>{10, -1}));
    EXPECT_EQ(tensors[2], (std::vector<double>{1, 2}));  // the first of the two 5s; -0.5
}

TEST(BenchReferenceCheck, PerChannelSumReferenceBlendsWithC) {
    const auto problem = parsed("op=reduce n=2 c=2 h=1 w=2 cdims=1x2x1x1 beta=1");
    ASSERT_TRUE(problem);
    const Reference reference = reference_for(*problem);
    ASSERT_TRUE(reference.compute) << reference.unavailable;
    HostTensors tensors = {{1, 2, 10, 20, 3, 4, 30, 40}, {100, 200}};
    ASSERT_TRUE(reference.compute(&tensors).ok());
    EXPECT_EQ(tensors[1], (std::vector<double>{110, 300}));
}

TEST(BenchReferenceCheck, CopyReferenceWritesXIntoY) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto copy = parsed("op=copy dtype=half n=1 c=1 h=1 w=3");
    ASSERT_TRUE(copy);
    const Reference reference = reference_for(*copy);
    ASSERT_TRUE(reference.compute) << reference.unavailable;
    HostTensors tensors = {{1.5, -2, 0.25}, {nan, 7, nan}};
    ASSERT_TRUE(reference.compute(&tensors).ok());
    EXPECT_EQ(tensors[1], (std::vector<double>{1.5, -2, 0.25}));
}

TEST(BenchReferenceCheck, SetReferenceOverwritesYAndScaleReferenceScalesIt) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto set = parsed("op=set_tensor n=1 c=1 h=1 w=3 value=-2.5");
    ASSERT_TRUE(set);
    const Reference set_reference = reference_for(*set);
    ASSERT_TRUE(set_reference.compute) << set_reference.unavailable;
    HostTensors y = {{nan, 7, nan}};
    ASSERT_TRUE(set_reference.compute(&y).ok());
    EXPECT_EQ(y[0], (std::vector<double>{-2.5, -2.5, -2.5}));
    const auto scale = parsed("op=scale_tensor n=1 c=1 h=1 w=3 alpha=-2");
    ASSERT_TRUE(scale);
    const Reference scale_reference = reference_for(*scale);
    ASSERT_TRUE(scale_reference.compute) << scale_reference.unavailable;
    HostTensors x = {{1, -0.5, 3}};
    ASSERT_TRUE(scale_reference.compute(&x).ok());
    EXPECT_EQ(x[0], (std::vector<double>{-2, 1, -6}));
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
        "op=transform dtype=half dims=2x3x5x5 to=nhwc pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2",
        "op=transform dims=2x12x3x3 fold=2x2 fold_dir=unfold pad_before=0x0x-1x0",
        "op=reduce n=2 c=8 h=4 w=4 cdims=1x8x1x1",
        "op=reduce reduce_op=max indices=1 dtype=half layout=nhwc n=2 c=8 h=4 w=4 cdims=1x8x1x1",
        "op=reduce reduce_op=amax indices=1 n=16 c=300 h=1 w=1 cdims=16x1x1x1 alpha=0.5 beta=0.5",
        "op=reduce reduce_op=min indices=1 dtype=int8 n=4 c=8 h=4 w=4 cdims=4x8x1x1",
        "op=reduce reduce_op=norm2 dtype=bfloat16 ctype=float n=4 c=8 h=4 w=4 cdims=4x1x1x1",
        "op=reduce reduce_op=avg dtype=double n=2 c=8 h=4 w=4 cdims=2x1x4x4",
        "op=set_tensor dtype=half layout=nhwc n=2 c=8 h=4 w=4 value=0.1",
        "op=set_tensor dtype=int8 n=2 c=8 h=4 w=4 value=-3",
        "op=scale_tensor n=2 c=8 h=4 w=4 alpha=0.1",
        "op=scale_tensor dtype=bfloat16 layout=nhwc n=2 c=8 h=4 w=4 alpha=-3",
        "op=copy dtype=int8 n=2 c=8 h=4 w=4",
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
