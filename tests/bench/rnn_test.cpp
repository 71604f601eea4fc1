// The RNN family of the bench: LibreDNN's RNN problem strings read and printed back unchanged, the bench's
// own dir=step, what each direction passes and counts, bench/sets/rnn.tsv, and whole runs against
// LibreDNN's host backend (and a library without RNNs, which the run reports and survives).
#include "bench_test_util.hpp"
#include "ops/rnn/problem.hpp"
#include "problem.hpp"
#include "sets.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

namespace librednn::bench {
namespace {

using test::contains;
using test::read_file;
using test::run_bench;
using test::TempDir;

std::unique_ptr<Problem> parse_ok(const std::string &text, const ProblemDefaults &defaults = {}) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, defaults, &problem, &error), ParseResult::ok) << text << ": " << error;
    return problem;
}

std::string parse_error(const std::string &text) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, ProblemDefaults{}, &problem, &error), ParseResult::error) << text;
    return error;
}

std::vector<std::string> tensor_names(const Problem &problem) {
    std::vector<std::string> names;
    for (const TensorSpec &spec : problem.tensors()) names.push_back(spec.name);
    return names;
}

// LibreDNN's RNN problems of several shapes, in each of the three calls, as its dispatch log prints them.
std::vector<RnnProblem> librednn_problems() {
    std::vector<RnnProblem> problems;
    RnnProblem lstm;
    lstm.net.cell = CUDNN_LSTM;
    lstm.net.bidirectional = true;
    lstm.net.layers = 2;
    lstm.net.input_size = 5;
    lstm.net.hidden_size = 8;
    lstm.net.proj_size = 6;
    lstm.net.data_type = CUDNN_DATA_HALF;
    lstm.net.math_type = CUDNN_TENSOR_OP_MATH;
    lstm.layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
    lstm.max_seq_length = 4;
    lstm.batch_size = 3;
    lstm.seq_lengths = {4, 2, 1};
    lstm.has_hx = lstm.has_cx = lstm.has_hy = lstm.has_cy = true;
    RnnProblem gru;
    gru.net.cell = CUDNN_GRU;
    gru.net.algo = CUDNN_RNN_ALGO_PERSIST_STATIC;
    gru.net.input_size = gru.net.hidden_size = gru.net.proj_size = 7;
    gru.net.skip_input = true;
    gru.net.bias_mode = CUDNN_RNN_SINGLE_REC_BIAS;
    gru.layout = CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED;
    gru.max_seq_length = 5;
    gru.batch_size = 2;
    gru.seq_lengths = {5, 3};
    gru.padding_fill = -1.5;
    gru.has_hx = true;
    for (RnnProblem p : {lstm, gru}) {
        p.training = false;
        problems.push_back(p);  // inference
        p.training = true;
        problems.push_back(p);
        p.direction = RnnDirection::backward_data;
        problems.push_back(p);
        p.direction = RnnDirection::backward_weights;
        p.has_cx = p.has_hy = p.has_cy = false;  // what cudnnRNNBackwardWeights_v8 passes
        problems.push_back(p);
    }
    return problems;
}

TEST(BenchRnn, LibreDNNsProblemStringsReadBackUnchanged) {
    for (const RnnProblem &p : librednn_problems()) {
        const std::string printed = to_problem_string(p).to_string();
        const std::unique_ptr<Problem> problem = parse_ok(printed);
        ASSERT_TRUE(problem) << printed;
        EXPECT_EQ(problem->text(), printed);
        // Command-line defaults do not touch a complete string.
        ProblemDefaults other;
        other.dir = "step";
        other.dtype = "double";
        other.math = "fma";
        EXPECT_EQ(parse_ok(printed, other)->text(), printed);
    }
}

TEST(BenchRnn, StepIsTheBenchsOwnDirectionAndPrintsAsSuch) {
    const std::string text =
        "op=rnn dir=step cell=lstm layers=2 input=16 hidden=32 seq=5 batch=3 hx=yes cx=yes hy=yes cy=yes";
    const std::unique_ptr<Problem> step = parse_ok(text);
    ASSERT_TRUE(step);
    EXPECT_TRUE(contains(step->text(), "op=rnn dir=step cell=lstm algo=standard dirs=1 layers=2")) << step->text();
    EXPECT_TRUE(contains(step->text(), " train=yes ")) << step->text();
    EXPECT_EQ(parse_ok(step->text())->text(), step->text());
    EXPECT_EQ(tensor_names(*step), (std::vector<std::string>{"x", "hx", "cx", "weights", "dy", "dhy", "dcy", "y", "hy",
                                                             "cy", "dx", "dhx", "dcx", "dweights"}));
    // Without states: only what the calls take.
    const std::unique_ptr<Problem> bare = parse_ok("op=rnn dir=step cell=gru input=4 hidden=4 seq=2 batch=2");
    EXPECT_EQ(tensor_names(*bare), (std::vector<std::string>{"x", "weights", "dy", "y", "dx", "dweights"}));
    const std::unique_ptr<Problem> weights =
        parse_ok("op=rnn dir=bwd_weights cell=gru input=4 hidden=4 seq=2 batch=2 hx=yes");
    EXPECT_EQ(tensor_names(*weights), (std::vector<std::string>{"x", "hx", "weights", "y", "dy", "dweights"}));
    const std::unique_ptr<Problem> data = parse_ok("op=rnn dir=bwd_data cell=lstm input=4 hidden=4 hx=yes cy=yes");
    EXPECT_EQ(tensor_names(*data), (std::vector<std::string>{"x", "hx", "weights", "y", "dy", "dcy", "dx", "dhx"}));
    const std::unique_ptr<Problem> inference = parse_ok("op=rnn dir=fwd cell=relu input=4 hidden=4 hy=yes");
    EXPECT_EQ(tensor_names(*inference), (std::vector<std::string>{"x", "weights", "y", "hy"}));
}

// 2 * gates * hidden * (layer input + proj) per step, layer and direction, plus the projection's
// 2 * proj * hidden; a step is three times a forward.
TEST(BenchRnn, FlopsCountTheMatrixProductsOfEveryStep) {
    const std::string lstm = "op=rnn cell=lstm layers=2 input=32 hidden=64 seq=5 batch=3 lengths=5x4x1";
    const double per_step = 2.0 * 4 * 64 * (32 + 64) + 2.0 * 4 * 64 * (64 + 64);
    EXPECT_DOUBLE_EQ(parse_ok(lstm + " dir=fwd")->flops(), per_step * 10);
    EXPECT_DOUBLE_EQ(parse_ok(lstm + " dir=bwd_data")->flops(), per_step * 10);
    EXPECT_DOUBLE_EQ(parse_ok(lstm + " dir=step")->flops(), 3 * per_step * 10);
    // Bidirectional with a projection: layer 1 reads both directions' projected outputs.
    const double projected =
        2 * (2.0 * 4 * 16 * (8 + 12) + 2.0 * 12 * 16) + 2 * (2.0 * 4 * 16 * (24 + 12) + 2.0 * 12 * 16);
    EXPECT_DOUBLE_EQ(
        parse_ok("op=rnn dir=fwd cell=lstm dirs=2 layers=2 input=8 hidden=16 proj=12 seq=2 batch=1")->flops(),
        projected * 2);
    // CUDNN_SKIP_INPUT: layer 0 has no input product.
    EXPECT_DOUBLE_EQ(parse_ok("op=rnn dir=fwd cell=gru input_mode=skip input=8 hidden=8 seq=1 batch=1")->flops(),
                     2.0 * 3 * 8 * 8);
}

TEST(BenchRnn, DirectionsOfTheCommandLineMapOntoTheCalls) {
    const std::string text = "op=rnn cell=gru input=4 hidden=4 seq=2 batch=2";
    ProblemDefaults defaults;
    defaults.dir = "inference";
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), "dir=fwd ")) << parse_ok(text, defaults)->text();
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), " train=no ")) << parse_ok(text, defaults)->text();
    defaults.dir = "fwd";  // as bn's fwd: the training forward
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), " train=yes ")) << parse_ok(text, defaults)->text();
    EXPECT_TRUE(contains(parse_ok(text + " train=no", defaults)->text(), " train=no "));
    defaults.dir = "bwd_data";
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), "dir=bwd_data "));
    defaults.dir = "bwd_filter";
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), "dir=bwd_weights "));
    // Backward weights takes hx alone: the other states of a string without dir= do not apply.
    EXPECT_TRUE(contains(parse_ok(text + " hx=yes hy=yes", defaults)->text(), " hx=yes cx=no hy=no cy=no"));
    defaults.dir = "step";
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), "dir=step "));
    defaults.dtype = "half";
    defaults.math = "tensor_op";
    EXPECT_TRUE(contains(parse_ok(text, defaults)->text(), " dtype=half math=float math_type=tensor_op "))
        << parse_ok(text, defaults)->text();
    defaults.dir = "bwd";
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, defaults, &problem, &error), ParseResult::not_applicable);
    // The other ops have no step.
    defaults.dir = "step";
    EXPECT_EQ(parse_problem("op=act n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::not_applicable);
    EXPECT_EQ(parse_problem("op=conv n=1 c=2 h=3 w=4 k=2", defaults, &problem, &error), ParseResult::not_applicable);
}

TEST(BenchRnn, RejectsWhatNoCallTakesNamingTheKey) {
    EXPECT_TRUE(contains(parse_error("op=rnn dir=sideways"), "op=rnn: key 'dir' must be fwd, bwd_data, bwd_weights"));
    EXPECT_TRUE(contains(parse_error("op=rnn dir=bwd_data train=no"), "train must be yes"));
    EXPECT_TRUE(contains(parse_error("op=rnn dir=bwd_weights cx=yes"), "cx, hy and cy must be no"));
    EXPECT_TRUE(contains(parse_error("op=rnn cell=lstm algo=fastest"), "op=rnn: algo=fastest"));
    EXPECT_TRUE(contains(parse_error("op=rnn cell=lstm math_type=quick"), "op=rnn: math_type=quick"));
    EXPECT_TRUE(contains(parse_error("op=rnn cell=lstm hiden=4"), "hiden"));
}

TEST(BenchRnn, TheRnnSetHoldsTheIssuesCasesInBothDirections) {
    std::vector<ProblemSource> sources;
    std::string error;
    ASSERT_TRUE(read_problem_set(std::string(LIBREDNN_BENCH_SETS) + "/rnn.tsv", &sources, &error)) << error;
    ASSERT_EQ(sources.size(), 16u);  // lstm, gru x hidden 512, 1024 x batch 64, 1 x half, float
    std::vector<Case> cases;
    ASSERT_TRUE(build_cases(sources, {"inference", "step"}, ProblemDefaults{}, &cases, &error)) << error;
    ASSERT_EQ(cases.size(), 32u);
    EXPECT_EQ(cases[0].name, "lstm.h512.b64.half");
    EXPECT_EQ(cases[0].group, "inference");
    EXPECT_EQ(cases[16].group, "step");
    for (const Case &entry : cases) {
        const std::string text = entry.problem->text();
        EXPECT_TRUE(contains(text, " layers=2 ")) << text;
        EXPECT_TRUE(contains(text, " seq=50 ")) << text;
        EXPECT_TRUE(contains(text, entry.group == "step" ? "dir=step " : "dir=fwd ")) << text;
        EXPECT_EQ(parse_ok(text)->text(), text);
        EXPECT_GT(entry.problem->flops(), 0) << text;
    }
}

TEST(BenchRnn, AProblemStringSetKeepsNamesAndCounts) {
    TempDir dir;
    const std::string path = dir.file("strings.tsv");
    std::ofstream(path) << "# a comment\nname\tcount\tproblem\nsmall\t3\top=rnn cell=gru input=4 hidden=4\n"
                           "relu\t1\top=act mode=relu n=1 c=2 h=3 w=4\n";
    std::vector<ProblemSource> sources;
    std::string error;
    ASSERT_TRUE(read_problem_set(path, &sources, &error)) << error;
    ASSERT_EQ(sources.size(), 2u);
    EXPECT_EQ(sources[0].name, "small");
    EXPECT_EQ(sources[0].count, 3);
    std::ofstream(path) << "name\tcount\tproblem\nbad\t1\tcell=gru\n";
    EXPECT_FALSE(read_problem_set(path, &sources, &error));
    EXPECT_TRUE(contains(error, path + ":2: the problem string has no 'op' key")) << error;
}

const std::vector<std::string> kRnnProblems = {
    "--problem",
    "op=rnn dir=fwd train=no cell=lstm dirs=2 layers=2 input=6 hidden=8 proj=5 seq=4 batch=3 hx=yes cx=yes",
    "--problem",
    "op=rnn dir=fwd train=yes cell=gru layers=2 input=5 hidden=6 seq=3 batch=2 hy=yes",
    "--problem",
    "op=rnn dir=bwd_data cell=tanh input=4 hidden=6 seq=3 batch=2 lengths=3x1 hx=yes hy=yes",
    "--problem",
    "op=rnn dir=bwd_weights cell=lstm dtype=half layers=2 input=4 hidden=6 seq=3 batch=2 hx=yes",
    "--problem",
    "op=rnn dir=step cell=lstm layers=2 input=6 hidden=8 seq=4 batch=3 hx=yes cx=yes hy=yes cy=yes",
    "--problem",
    "op=rnn dir=step cell=gru layout=seq_major_packed input=4 hidden=4 seq=3 batch=3 lengths=3x2x2",
};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string> &more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// Every direction runs on LibreDNN's host backend and reports a rate in TFLOP/s.
TEST(BenchRnnHostRun, EveryDirectionRunsOnLibreDNNsHostBackend) {
    TempDir dir;
    const auto result = run_bench(
        with({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--runs", "2", "--warmup", "0", "--json", dir.file("r.json")},
             kRnnProblems));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    const std::string json = read_file(dir.file("r.json"));
    const std::regex status("\"status\": \"(ok|unsupported|failed)\"");
    int ok = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), status); it != std::sregex_iterator(); ++it) {
        EXPECT_EQ((*it)[1], "ok") << json;
        ++ok;
    }
    EXPECT_EQ(ok, 6) << json;
    EXPECT_TRUE(contains(result.out, "TFLOP/s")) << result.out;
    EXPECT_TRUE(contains(result.out, "lib algo")) << result.out;
    EXPECT_TRUE(std::regex_search(result.out, std::regex("\nstep +problem 5 "))) << result.out;
}

// Check mode compares every output of the calls, the weight gradients too: LibreDNN against itself is exact.
TEST(BenchRnnHostRun, CheckModeComparesEveryOutputOfAStep) {
    TempDir dir;
    const auto result = run_bench(with({"--lib", LIBREDNN_BENCH_CUDNN, "--vs", LIBREDNN_BENCH_CUDNN, "--host",
                                        "--check", "--json", dir.file("r.json")},
                                       kRnnProblems));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    const std::string json = read_file(dir.file("r.json"));
    const std::regex compared("\"against\": \"vs\", \"compared\": true");
    EXPECT_EQ(std::distance(std::sregex_iterator(json.begin(), json.end(), compared), std::sregex_iterator()), 6)
        << json;
    EXPECT_FALSE(contains(result.out, "NaN in both")) << result.out;  // every output written
    EXPECT_TRUE(contains(json, "\"worst\": \"dweights\"") || contains(json, "\"worst\": \"y\"")) << json;
    const std::regex error("\"relative_error\": ([-0-9.e+]+)");
    int errors = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), error); it != std::sregex_iterator(); ++it, ++errors)
        EXPECT_EQ(std::stod((*it)[1]), 0.0) << json;
    EXPECT_EQ(errors, 6) << json;
    // Alone, there is no RNN reference in the bench yet: said, not fatal.
    const auto alone = run_bench({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--check", "--problem",
                                  "op=rnn dir=fwd cell=gru input=4 hidden=4 seq=2 batch=2"});
    ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
    EXPECT_TRUE(contains(alone.out, "no reference yet")) << alone.out;
}

// A library without the RNN calls (the test double) is reported on each line, and the run goes on.
TEST(BenchRnnHostRun, ALibraryWithoutRnnsIsReportedAndTheRunExitsZero) {
    const auto result = run_bench(with({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--runs", "2"}, kRnnProblems));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "not provided by this library: it has no cudnnCreateDropoutDescriptor"))
        << result.out;
}

}  // namespace
}  // namespace librednn::bench
