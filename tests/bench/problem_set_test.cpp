// Problem-set files: both kinds of header, the op mapping of resnet50-ops.tsv, expansion over --dir,
// and rejections that name the file and line.
#include "bench_test_util.hpp"
#include "sets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

namespace librednn::bench {
namespace {

using test::TempDir;

const std::string kSets = LIBREDNN_BENCH_SETS;

std::vector<ProblemSource> read_ok(const std::string &path) {
    std::vector<ProblemSource> sources;
    std::string error;
    EXPECT_TRUE(read_problem_set(path, &sources, &error)) << error;
    return sources;
}

std::vector<Case> cases_ok(const std::vector<ProblemSource> &sources, const std::vector<std::string> &dirs,
                           const ProblemDefaults &defaults = {}) {
    std::vector<Case> cases;
    std::string error;
    EXPECT_TRUE(build_cases(sources, dirs, defaults, &cases, &error)) << error;
    return cases;
}

TEST(BenchSet, ResNet50ConvolutionsKeepNamesCountsAndGeometry) {
    const auto sources = read_ok(kSets + "/resnet50-conv.tsv");
    ASSERT_EQ(sources.size(), 23u);
    int64_t layers = 0;
    for (const ProblemSource &source : sources) layers += source.count;
    EXPECT_EQ(layers, 53);  // every convolution of ResNet-50
    ProblemDefaults defaults;
    defaults.dtype = "half";
    defaults.layout = "nhwc";
    defaults.math = "tensor_op";
    const auto cases = cases_ok(sources, {"fwd"}, defaults);
    ASSERT_EQ(cases.size(), 23u);
    EXPECT_EQ(cases[0].name, "conv1");
    EXPECT_EQ(cases[0].count, 1);
    EXPECT_EQ(cases[0].problem->text(),
              "op=conv dir=fwd dtype=half layout=nhwc n=32 c=3 h=224 w=224 k=64 r=7 s=7 pad=3x3 stride=2x2 dil=1x1 "
              "g=1 mode=xcorr compute=float math=tensor_op algo=heuristic alpha=1 beta=0");
    EXPECT_EQ(cases[2].name, "l1.c64k64r3");
    EXPECT_EQ(cases[2].count, 3);
}

TEST(BenchSet, EachDirectionIsAWholePassOverTheSet) {
    const auto sources = read_ok(kSets + "/resnet50-conv.tsv");
    const auto cases = cases_ok(sources, {"fwd", "bwd_data", "bwd_filter"});
    ASSERT_EQ(cases.size(), 69u);
    EXPECT_EQ(cases[0].group, "fwd");
    EXPECT_EQ(cases[23].group, "bwd_data");
    EXPECT_NE(cases[23].problem->text().find("dir=bwd_data"), std::string::npos);
    EXPECT_EQ(cases[68].group, "bwd_filter");
    // A direction convolutions do not have adds nothing.
    EXPECT_EQ(cases_ok(sources, {"bwd"}).size(), 0u);
}

TEST(BenchSet, ResNet50OpsMapOntoTheirProblems) {
    const auto sources = read_ok(kSets + "/resnet50-ops.tsv");
    ASSERT_EQ(sources.size(), 15u);
    ProblemDefaults defaults;
    defaults.n = 8;
    const auto forward = cases_ok(sources, {"inference"}, defaults);
    ASSERT_EQ(forward.size(), 15u);
    EXPECT_EQ(forward[0].problem->text(),
              "op=bn mode=spatial phase=inference dtype=float dims=8x64x112x112 "
              "xstrides=802816x12544x112x1 ystrides=802816x12544x112x1 eps=1e-05 alpha=1 "
              "beta=0");
    EXPECT_EQ(forward[1].problem->text(),
              "op=act dir=fwd mode=relu nan=not_propagate dtype=float dims=8x64x112x112 "
              "xstrides=802816x12544x112x1 ystrides=802816x12544x112x1 alpha=1 beta=0");
    EXPECT_EQ(forward[2].problem->text(),
              "op=pool dir=fwd mode=max nan=not_propagate dtype=float dims=8x64x112x112 "
              "xstrides=802816x12544x112x1 ydims=8x64x56x56 ystrides=200704x3136x56x1 "
              "window=3x3 pad=1x1 stride=2x2 alpha=1 beta=0");
    EXPECT_EQ(forward[5].problem->text(),
              "op=op_tensor tensor_op=add compute=float nan=not_propagate dtype=float "
              "dims=8x256x56x56 astrides=802816x3136x56x1 bstrides=802816x3136x56x1 "
              "cstrides=802816x3136x56x1 alpha1=1 alpha2=1 beta=0");
    EXPECT_EQ(forward[5].count, 3);
    EXPECT_EQ(forward[12].problem->text(),
              "op=pool dir=fwd mode=avg_incl nan=not_propagate dtype=float "
              "dims=8x2048x7x7 xstrides=100352x49x7x1 ydims=8x2048x1x1 "
              "ystrides=2048x1x1x1 window=7x7 pad=0x0 stride=1x1 alpha=1 beta=0");
    // rows= sets the batch of the language-model softmax, whatever --n says.
    EXPECT_EQ(forward[14].problem->text(),
              "op=softmax dir=fwd algo=accurate mode=instance dtype=float "
              "dims=4096x32000x1x1 xstrides=32000x1x1x1 ystrides=32000x1x1x1 alpha=1 "
              "beta=0");
    const auto training = cases_ok(sources, {"fwd", "bwd"}, defaults);
    // The backward pass has no residual add (its gradient passes through unchanged).
    ASSERT_EQ(training.size(), 15u + 14u);
    EXPECT_NE(training[0].problem->text().find("phase=train_fwd"), std::string::npos);
    EXPECT_NE(training[15].problem->text().find("phase=bwd"), std::string::npos);
}

TEST(BenchSet, EverySetShippedWithTheProjectParsesAndRoundTrips) {
    for (const char *name : {"resnet50-conv.tsv", "resnet50-ops.tsv", "mixed-conv.tsv", "rnn.tsv"}) {
        const auto sources = read_ok(kSets + "/" + name);
        EXPECT_FALSE(sources.empty()) << name;
        for (const Case &entry : cases_ok(sources, {"fwd", "bwd", "bwd_data", "bwd_filter", "inference", "step"})) {
            std::unique_ptr<Problem> again;
            std::string error;
            ASSERT_EQ(parse_problem(entry.problem->text(), ProblemDefaults{}, &again, &error), ParseResult::ok)
                << name << " " << entry.name << ": " << error;
            EXPECT_EQ(again->text(), entry.problem->text());
        }
    }
}

// bench/sets/tensor-ops-large.problems (one problem string a line, for tools/bench/compare_problems.sh):
// every line parses and round-trips, and its header's promise holds: each problem moves a tensor of at
// least 256 MiB.
TEST(BenchSet, TheLargeTensorOpSetParsesAndIsAsLargeAsItsHeaderSays) {
    std::ifstream in(kSets + "/tensor-ops-large.problems");
    ASSERT_TRUE(in) << "cannot read tensor-ops-large.problems";
    std::string line;
    std::set<std::string> ops;
    int problems = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        ++problems;
        std::unique_ptr<Problem> problem, again;
        std::string error;
        ASSERT_EQ(parse_problem(line, ProblemDefaults{}, &problem, &error), ParseResult::ok) << line << ": " << error;
        ASSERT_EQ(parse_problem(problem->text(), ProblemDefaults{}, &again, &error), ParseResult::ok) << error;
        EXPECT_EQ(again->text(), problem->text());
        ops.insert(problem->describe().entries().front().second);
        size_t largest = 0;
        for (const TensorSpec &tensor : problem->tensors()) largest = std::max(largest, tensor.bytes());
        EXPECT_GE(largest, size_t{256} << 20) << line;
    }
    EXPECT_GE(problems, 21);
    for (const char *op :
         {"act", "add_tensor", "op_tensor", "transform", "softmax", "reduce", "set_tensor", "scale_tensor"})
        EXPECT_TRUE(ops.count(op)) << op;
}

TEST(BenchSet, ProblemStringsAreMeasuredOnceAndNamedInOrder) {
    std::vector<ProblemSource> sources(3);
    std::string parse_error;
    ASSERT_TRUE(ProblemString::parse("op=act n=1 c=2 h=3 w=4", &sources[0].text, &parse_error));
    ASSERT_TRUE(ProblemString::parse("op=act dir=fwd n=1 c=2 h=3 w=4", &sources[1].text, &parse_error));
    ASSERT_TRUE(ProblemString::parse("op=transform n=1 c=2 h=3 w=4", &sources[2].text, &parse_error));
    const auto cases = cases_ok(sources, {"fwd", "bwd"});
    // act fwd (once, though given twice), act bwd; transform has no backward.
    ASSERT_EQ(cases.size(), 3u);
    EXPECT_EQ(cases[0].name, "problem 1");
    EXPECT_EQ(cases[1].name, "problem 3");
    EXPECT_EQ(cases[2].name, "problem 1");
    EXPECT_EQ(cases[2].group, "bwd");
    std::vector<Case> none;
    std::string error;
    EXPECT_FALSE(build_cases({sources[2]}, {"bwd"}, ProblemDefaults{}, &none, &error));
    EXPECT_NE(error.find("has no direction among --dir bwd"), std::string::npos) << error;
}

TEST(BenchSet, RejectsMalformedSetsNamingFileAndLine) {
    TempDir dir;
    const std::string path = dir.file("bad.tsv");
    std::vector<ProblemSource> sources;
    std::string error;
    std::ofstream(path) << "name\tcount\tc\th\tw\tk\tr\ts\n";
    EXPECT_FALSE(read_problem_set(path, &sources, &error));
    EXPECT_NE(error.find(path + ":1: the header has no 'pad_h' column"), std::string::npos) << error;
    std::ofstream(path)
        << "op\tname\tcount\tc\th\tw\tparams\n# comment\n\nrelu\ta\t1\t2\t3\t4\t\ngelu\tb\t1\t2\t3\t4\t\n";
    EXPECT_FALSE(read_problem_set(path, &sources, &error));
    EXPECT_NE(error.find(path + ":5: unknown op 'gelu'"), std::string::npos) << error;
    std::ofstream(path) << "op\tname\tcount\tc\th\tw\tparams\nrelu\ta\tmany\t2\t3\t4\t\n";
    EXPECT_FALSE(read_problem_set(path, &sources, &error));
    EXPECT_NE(error.find(":2: count must be a positive integer, got 'many'"), std::string::npos) << error;
    std::ofstream(path) << "";
    EXPECT_FALSE(read_problem_set(path, &sources, &error));
    EXPECT_NE(error.find("is empty"), std::string::npos) << error;
    EXPECT_FALSE(read_problem_set(dir.file("absent.tsv"), &sources, &error));
    EXPECT_NE(error.find("cannot read the problem set"), std::string::npos) << error;
    // A bad key value in a row fails when the row becomes a problem, naming the row.
    sources.clear();
    std::ofstream(path) << "op\tname\tcount\tc\th\tw\tparams\nmaxpool\tp\t1\t2\t3\t4\twindow=3\n";
    ASSERT_TRUE(read_problem_set(path, &sources, &error)) << error;
    std::vector<Case> cases;
    EXPECT_FALSE(build_cases(sources, {"fwd"}, ProblemDefaults{}, &cases, &error));
    EXPECT_NE(error.find("set row 'p': op=pool: key 'window' must be HxW"), std::string::npos) << error;
}

}  // namespace
}  // namespace librednn::bench
