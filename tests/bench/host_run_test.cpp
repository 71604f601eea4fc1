// Whole runs on the host (host memory, wall-clock timing), as CI runs them: against LibreDNN's own
// libcudnn.so.8 (whose operations answer NOT_SUPPORTED until they land) and against test doubles that
// compute a few operations, for the timing, the side-by-side ratio, check mode and the result files.
#include "bench_test_util.hpp"
#include "problem.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>
#include <set>

namespace librednn::bench {
namespace {

using test::contains;
using test::read_file;
using test::run_bench;
using test::TempDir;

const std::string kSets = LIBREDNN_BENCH_SETS;

// One problem of every op family, small enough for any machine.
const std::vector<std::string> kEveryOp = {
    "--problem", "op=conv dir=fwd n=2 c=8 h=8 w=8 k=8 r=3 s=3 pad=1x1",
    "--problem", "op=conv dir=bwd_data n=2 c=8 h=8 w=8 k=8 r=3 s=3 pad=1x1 algo=1",
    "--problem", "op=conv dir=bwd_filter n=2 c=8 h=8 w=8 k=8 r=1 algo=find",
    "--problem", "op=bn phase=train_fwd n=2 c=8 h=4 w=4",
    "--problem", "op=act mode=relu dir=bwd n=2 c=8 h=4 w=4",
    "--problem", "op=softmax n=2 c=8 h=1 w=1",
    "--problem", "op=pool mode=max dir=bwd n=2 c=8 h=4 w=4",
    "--problem", "op=op_tensor tensor_op=add n=2 c=8 h=4 w=4",
    "--problem", "op=add_tensor adims=1x8x1x1 n=2 c=8 h=4 w=4",
    "--problem", "op=transform from=nchw to=nhwc n=2 c=8 h=4 w=4",
    "--problem", "op=reduce reduce_op=max indices=1 dtype=half layout=nhwc n=2 c=8 h=4 w=4 cdims=1x8x1x1",
    "--problem", "op=set_tensor dtype=half n=2 c=8 h=4 w=4 value=0.5",
    "--problem", "op=scale_tensor layout=nhwc n=2 c=8 h=4 w=4 alpha=0.5",
    "--problem", "op=transform dims=2x3x5x5 to=nhwc pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2",
    "--problem", "op=rnn cell=lstm layers=2 input=6 hidden=8 seq=3 batch=2 hx=yes cx=yes hy=yes cy=yes",
    "--problem", "op=rnn dir=bwd_weights cell=gru input=4 hidden=6 seq=3 batch=2 hx=yes",
    "--problem", "op=lrn dir=bwd n=2 c=8 h=4 w=4 lrn_n=3",
    "--problem", "op=divnorm dir=bwd n=2 c=8 h=4 w=4 lrn_n=3",
    "--problem", "op=spatial_tf stage=sampler dir=bwd dims=2x3x4x4 xdims=2x3x6x5",
    "--problem", "op=ctc_loss dtype=float dims=6x2x5 norm=softmax max_label=3 label_lengths=3x2 input_lengths=6x4",
};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string> &more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// The number after `"key": ` in a JSON text, or NaN.
double json_number(const std::string &json, const std::string &key) {
    std::smatch match;
    if (!std::regex_search(json, match, std::regex("\"" + key + "\": ([-0-9.e+]+)"))) return NAN;
    return std::stod(match[1]);
}

// Operations LibreDNN does not implement yet answer NOT_SUPPORTED: each is reported on its own line and
// the run still succeeds. Those it implements run; none may fail.
TEST(BenchHostRun, LibreDNNRunsOrDeclinesEveryOpCleanlyAndTheRunExitsZero) {
    TempDir dir;
    const auto result = run_bench(with({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--runs", "3", "--warmup", "1",
                                        "--json", dir.file("r.json"), "--csv", dir.file("r.csv")},
                                       kEveryOp));
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "lib: LibreDNN (cuDNN API 8.9.7) at ")) << result.out;
    EXPECT_TRUE(contains(result.out, "host memory, wall-clock timing")) << result.out;
    EXPECT_TRUE(contains(result.out, "problem 10 (fwd): op=transform dtype=float dims=2x8x4x4")) << result.out;
    const std::string json = read_file(dir.file("r.json"));
    EXPECT_TRUE(contains(json, "\"librednn\": true")) << json;
    EXPECT_TRUE(contains(json, "\"problem\": \"op=bn mode=spatial phase=train_fwd")) << json;
    const std::regex status("\"status\": \"(ok|unsupported|failed)\"");
    int ran_or_declined = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), status); it != std::sregex_iterator(); ++it) {
        EXPECT_NE((*it)[1], "failed") << json;
        ++ran_or_declined;
    }
    EXPECT_EQ(ran_or_declined, 20) << json;
    // A declined problem names the call and the status, or the function the library lacks.
    const std::regex unsupported("\"status\": \"unsupported\", \"message\": \"([^\"]*)\"");
    const std::regex reason(
        "not supported: cudnn[A-Za-z_0-9]+ returned CUDNN_STATUS_NOT_SUPPORTED.*|"
        "not provided by this library: it has no cudnn[A-Za-z_0-9]+");
    for (auto it = std::sregex_iterator(json.begin(), json.end(), unsupported); it != std::sregex_iterator(); ++it)
        EXPECT_TRUE(std::regex_match((*it)[1].str(), reason)) << (*it)[1];
    const std::string csv = read_file(dir.file("r.csv"));
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 21) << csv;  // header + 20 problems
}

// Dispatch log -> bench -> same problem: every problem string LibreDNN logs while the bench runs parses
// in the bench and prints back unchanged, and every problem LibreDNN ran is logged as the bench prints it.
TEST(BenchHostRun, TheDispatchLogPrintsTheBenchsOwnProblemStrings) {
    TempDir dir;
    const auto result = run_bench(
        with({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--runs", "1", "--warmup", "0", "--json", dir.file("r.json")},
             kEveryOp),
        "LIBREDNN_LOG_DISPATCH=1");
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    std::set<std::string> logged;
    const std::regex line("LibreDNN dispatch \\([^)]+\\): (op=[^\n]*)");
    for (auto it = std::sregex_iterator(result.err.begin(), result.err.end(), line); it != std::sregex_iterator(); ++it)
        logged.insert((*it)[1].str());
    for (const std::string &text : logged) {
        std::unique_ptr<Problem> problem;
        std::string error;
        ASSERT_EQ(parse_problem(text, ProblemDefaults{}, &problem, &error), ParseResult::ok) << text << ": " << error;
        EXPECT_EQ(problem->text(), text);
    }
    const std::string json = read_file(dir.file("r.json"));
    const std::regex ran("\"problem\": \"([^\"]*)\"[^\n]*\n *\"lib\": \\{\"status\": \"ok\"");
    // A convolution logs the algorithm that ran (algo=1) where the bench's string may say how it was
    // chosen (algo=heuristic): compare without the key.
    const std::regex algo(" algo=[a-z0-9_]+");
    std::set<std::string> logged_any_algo;
    for (const std::string &text : logged) logged_any_algo.insert(std::regex_replace(text, algo, ""));
    int ran_count = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), ran); it != std::sregex_iterator(); ++it, ++ran_count)
        EXPECT_TRUE(logged_any_algo.count(std::regex_replace((*it)[1].str(), algo, ""))) << (*it)[1] << "\nlogged:\n"
                                                                                         << result.err.substr(0, 2000);
    if (ran_count == 0) GTEST_SKIP() << "LibreDNN runs none of these problems on the host yet";
}

// Whole sets in every direction and check mode, on a small convolution set (host convolutions are slow).
TEST(BenchHostRun, LibreDNNRunsWholeSetsInEveryDirection) {
    TempDir dir;
    const std::string set = dir.file("conv.tsv");
    std::ofstream(set) << "name\tcount\tc\th\tw\tk\tr\ts\tpad_h\tpad_w\tstride_h\tstride_w\tdil_h\tdil_w\tgroups\n"
                          "a\t2\t8\t8\t8\t8\t3\t3\t1\t1\t1\t1\t1\t1\t1\n"
                          "b.s2\t1\t8\t9\t9\t16\t1\t1\t0\t0\t2\t2\t1\t1\t1\n"
                          "c.dw\t1\t8\t8\t8\t8\t3\t3\t1\t1\t1\t1\t1\t1\t8\n";
    const auto conv = run_bench({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--set", set, "--n", "2", "--dir",
                                 "fwd,bwd_data,bwd_filter", "--runs", "2", "--warmup", "0"});
    ASSERT_EQ(conv.exit_code, 0) << conv.out << conv.err;
    EXPECT_TRUE(contains(conv.out, "bwd_filter  c.dw")) << conv.out;
    EXPECT_TRUE(contains(conv.out, "summary per direction")) << conv.out;
    const auto check = run_bench({"--lib", LIBREDNN_BENCH_CUDNN, "--host", "--check", "--set", set, "--n", "1"});
    ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_TRUE(contains(check.out, "librednn-bench check")) << check.out;
}

TEST(BenchHostRun, TimesARunningOperationAndReportsItsBandwidth) {
    TempDir dir;
    const auto result =
        run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--problem", "op=act mode=relu n=4 c=16 h=32 w=32",
                   "--runs", "21", "--json", dir.file("r.json")});
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "GB/s")) << result.out;
    EXPECT_TRUE(contains(result.out, "median of 21 runs")) << result.out;
    const std::string json = read_file(dir.file("r.json"));
    EXPECT_TRUE(contains(json, "\"status\": \"ok\"")) << json;
    EXPECT_GT(json_number(json, "median_ms"), 0) << json;
    EXPECT_GT(json_number(json, "gbps"), 0) << json;
    EXPECT_EQ(json_number(json, "runs"), 21) << json;
    EXPECT_GE(json_number(json, "copies"), 1) << json;
    EXPECT_DOUBLE_EQ(json_number(json, "bytes"), 2.0 * 4 * 16 * 32 * 32 * 4) << json;
}

TEST(BenchHostRun, SideBySidePrintsBothFiguresTheRatioAndTheWholeSetTimes) {
    TempDir dir;
    const std::string set = dir.file("ops.tsv");
    std::ofstream(set) << "op\tname\tcount\tc\th\tw\tparams\nrelu\tr1\t3\t16\t16\t16\t\nrelu\tr2\t1\t32\t8\t8\t\n"
                          "maxpool\tp\t1\t16\t16\t16\twindow=2x2\n";
    const auto result = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--vs", LIBREDNN_BENCH_FAKE_V8_SCALED, "--host",
                                   "--set", set, "--n", "2", "--dir", "fwd,bwd", "--runs", "20", "--json",
                                   dir.file("r.json"), "--markdown", dir.file("r.md")});
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    for (const char *column : {"lib us", "lib rate", "vs us", "vs rate", "lib/vs", "geomean lib/vs", "total lib/vs"})
        EXPECT_TRUE(contains(result.out, column)) << column << "\n" << result.out;
    // The pooling problem is missing from both libraries: reported, not fatal.
    EXPECT_TRUE(contains(result.out, "not provided by this library: it has no cudnnCreatePoolingDescriptor"))
        << result.out;
    const std::string json = read_file(dir.file("r.json"));
    EXPECT_GT(json_number(json, "ratio"), 0) << json;
    EXPECT_GT(json_number(json, "geomean_ratio"), 0) << json;
    EXPECT_TRUE(contains(json, "\"group\": \"bwd\", \"problems\": 3")) << json;
    const std::string markdown = read_file(dir.file("r.md"));
    EXPECT_TRUE(contains(markdown, "| dir | problems |")) << markdown;
    EXPECT_TRUE(contains(markdown, "`op=act dir=bwd mode=relu")) << markdown;
}

TEST(BenchHostRun, CheckModeMeasuresHowFarLibIsFromVs) {
    TempDir dir;
    const auto off =
        run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8_SCALED, "--vs", LIBREDNN_BENCH_FAKE_V8, "--host", "--check",
                   "--problem", "op=act mode=sigmoid n=2 c=8 h=8 w=8", "--json", dir.file("off.json")});
    ASSERT_EQ(off.exit_code, 0) << off.out << off.err;
    const std::string json = read_file(dir.file("off.json"));
    const double relative = json_number(json, "relative_error");
    EXPECT_GT(relative, 0.9e-3) << json;  // the scaled double is 0.1% off
    EXPECT_LT(relative, 1.1e-3) << json;
    EXPECT_TRUE(contains(json, "\"worst\": \"y\"")) << json;
    const auto same = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--vs", LIBREDNN_BENCH_FAKE_V8, "--host", "--check",
                                 "--problem", "op=act mode=relu dir=bwd n=2 c=8 h=8 w=8", "--problem",
                                 "op=add_tensor adims=1x8x1x1 n=2 c=8 h=3 w=3", "--json", dir.file("same.json")});
    ASSERT_EQ(same.exit_code, 0) << same.out << same.err;
    EXPECT_TRUE(contains(same.out, "0.00e+00")) << same.out;
    EXPECT_EQ(json_number(read_file(dir.file("same.json")), "relative_error"), 0);
    const auto alone =
        run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--check", "--problem", "op=act n=2 c=8 h=8 w=8"});
    ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
    // Alone, lib is checked against LibreDNN's host reference (relu: exact on both sides).
    EXPECT_FALSE(contains(alone.out, "no reference yet")) << alone.out;
    EXPECT_TRUE(contains(alone.out, "0.00e+00")) << alone.out;
}

// op=copy times the bench's own copy and never calls the library: against the double that scales every
// output by 1.001, check mode finds it exact, and both columns of a comparison report it.
TEST(BenchHostRun, TheCopyProblemNeverCallsTheLibrary) {
    TempDir dir;
    const auto check = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8_SCALED, "--host", "--check", "--problem",
                                  "op=copy dtype=half dims=2x8x4x4", "--json", dir.file("check.json")});
    ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
    const std::string json = read_file(dir.file("check.json"));
    EXPECT_TRUE(contains(json, "\"against\": \"reference\", \"compared\": true")) << json;
    EXPECT_EQ(json_number(json, "relative_error"), 0) << json;
    const auto perf =
        run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--vs", LIBREDNN_BENCH_FAKE_V8_SCALED, "--host", "--runs", "3",
                   "--problem", "op=copy dims=4x8x16x16", "--json", dir.file("perf.json")});
    ASSERT_EQ(perf.exit_code, 0) << perf.out << perf.err;
    EXPECT_TRUE(contains(perf.out, "op=copy dtype=float dims=4x8x16x16")) << perf.out;
    EXPECT_GT(json_number(read_file(dir.file("perf.json")), "ratio"), 0) << perf.out;
}

// The test double's max reduction over w asks for a workspace and index memory (the bench allocates
// what the library asks for) and writes indices; check mode compares them with LibreDNN's reference,
// which takes the first of equal maxima where the double takes the last: on int8 data, full of ties,
// the indices differ.
TEST(BenchHostRun, ReductionsGetTheirWorkspaceAndCheckModeComparesTheirIndices) {
    TempDir dir;
    const std::string argmax = "op=reduce reduce_op=max indices=1 dims=2x4x3x50 cdims=2x4x3x1";
    const auto perf = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--runs", "3", "--problem", argmax,
                                 "--json", dir.file("perf.json")});
    ASSERT_EQ(perf.exit_code, 0) << perf.out << perf.err;
    const std::string perf_json = read_file(dir.file("perf.json"));
    EXPECT_TRUE(contains(perf_json, "\"status\": \"ok\"")) << perf_json;
    EXPECT_EQ(json_number(perf_json, "workspace"), 64) << perf_json;
    EXPECT_DOUBLE_EQ(json_number(perf_json, "bytes"), (2 * 4 * 3 * 50 + 2 * 4 * 3 * 2) * 4.0) << perf_json;

    // Without indices=1 the double still wants index memory: a buffer of its own, said in the algo column.
    const auto scratch = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--runs", "3", "--problem",
                                    "op=reduce reduce_op=max dims=2x4x3x50 cdims=2x4x3x1"});
    ASSERT_EQ(scratch.exit_code, 0) << scratch.out << scratch.err;
    EXPECT_TRUE(contains(scratch.out, "indices in a separate buffer of 96 bytes (not read back)")) << scratch.out;

    const std::string seed = std::to_string(std::random_device{}() % 1000000 + 1);
    const auto exact = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--check", "--seed", seed, "--problem",
                                  argmax, "--json", dir.file("exact.json")});
    ASSERT_EQ(exact.exit_code, 0) << exact.out << exact.err;
    const std::string exact_json = read_file(dir.file("exact.json"));
    EXPECT_TRUE(contains(exact_json, "\"against\": \"reference\", \"compared\": true")) << exact_json;
    EXPECT_EQ(json_number(exact_json, "relative_error"), 0) << "seed " << seed << "\n" << exact_json;

    const auto ties = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8, "--host", "--check", "--seed", seed, "--problem",
                                 "op=reduce reduce_op=max indices=1 dtype=int8 dims=2x4x3x50 cdims=2x4x3x1", "--json",
                                 dir.file("ties.json")});
    ASSERT_EQ(ties.exit_code, 0) << ties.out << ties.err;
    const std::string ties_json = read_file(dir.file("ties.json"));
    EXPECT_TRUE(contains(ties_json, "\"worst\": \"indices\"")) << "seed " << seed << "\n" << ties_json;
    EXPECT_GT(json_number(ties_json, "relative_error"), 0) << "seed " << seed << "\n" << ties_json;

    const auto scaled = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8_SCALED, "--vs", LIBREDNN_BENCH_FAKE_V8, "--host",
                                   "--check", "--seed", seed, "--problem", argmax, "--json", dir.file("scaled.json")});
    ASSERT_EQ(scaled.exit_code, 0) << scaled.out << scaled.err;
    const std::string scaled_json = read_file(dir.file("scaled.json"));
    EXPECT_TRUE(contains(scaled_json, "\"worst\": \"c\"")) << "seed " << seed << "\n" << scaled_json;
    EXPECT_GT(json_number(scaled_json, "relative_error"), 0.9e-3) << "seed " << seed << "\n" << scaled_json;
    EXPECT_LT(json_number(scaled_json, "relative_error"), 1.1e-3) << "seed " << seed << "\n" << scaled_json;
}

// A library that asks more than 4 bytes of index memory per element of C keeps its indices in a buffer
// of its own, which the bench does not read: check mode compares C alone and says so, against the
// reference and against --vs, whichever side keeps them.
TEST(BenchHostRun, IndicesALibraryKeepsInABufferOfItsOwnAreNotCompared) {
    TempDir dir;
    const std::string argmax = "op=reduce reduce_op=max indices=1 dims=2x4x3x50 cdims=2x4x3x1";
    const std::string seed = std::to_string(std::random_device{}() % 1000000 + 1);
    const std::string note = "indices not compared: lib keeps them in a buffer of its own (it asked for 192 bytes";
    const auto alone = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V8_WIDE_INDICES, "--host", "--check", "--seed", seed,
                                  "--problem", argmax, "--json", dir.file("alone.json")});
    ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
    const std::string alone_json = read_file(dir.file("alone.json"));
    EXPECT_TRUE(contains(alone_json, "\"against\": \"reference\", \"compared\": true")) << alone_json;
    EXPECT_TRUE(contains(alone_json, "\"worst\": \"c\"")) << alone_json;
    EXPECT_EQ(json_number(alone_json, "relative_error"), 0) << "seed " << seed << "\n" << alone_json;
    EXPECT_TRUE(contains(alone_json, note)) << alone_json;

    for (const bool wide_is_lib : {true, false}) {
        const char *wide = LIBREDNN_BENCH_FAKE_V8_WIDE_INDICES, *plain = LIBREDNN_BENCH_FAKE_V8;
        const auto pair = run_bench({"--lib", wide_is_lib ? wide : plain, "--vs", wide_is_lib ? plain : wide, "--host",
                                     "--check", "--seed", seed, "--problem", argmax, "--json", dir.file("vs.json")});
        ASSERT_EQ(pair.exit_code, 0) << pair.out << pair.err;
        const std::string vs_json = read_file(dir.file("vs.json"));
        EXPECT_TRUE(contains(vs_json, "\"against\": \"vs\", \"compared\": true")) << vs_json;
        EXPECT_TRUE(contains(vs_json, "\"worst\": \"c\"")) << vs_json;
        EXPECT_EQ(json_number(vs_json, "relative_error"), 0) << "seed " << seed << "\n" << vs_json;
        EXPECT_TRUE(contains(vs_json, wide_is_lib ? note : "indices not compared: vs keeps them")) << vs_json;
    }
}

TEST(BenchHostRun, CudaNineNumberedStatusesAreNamedAndAFailureExitsOne) {
    const auto result = run_bench({"--lib", LIBREDNN_BENCH_FAKE_V9, "--host", "--problem",
                                   "op=transform n=1 c=2 h=3 w=4", "--problem", "op=act mode=tanh n=1 c=2 h=3 w=4"});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_TRUE(contains(result.out, "not supported: cudnnTransformTensor returned CUDNN_STATUS_NOT_SUPPORTED"))
        << result.out;
    EXPECT_TRUE(contains(result.out,
                         "cudnnActivationForward returned CUDNN_STATUS_BAD_PARAM (the fake knows relu and "
                         "sigmoid)"))
        << result.out;
}

}  // namespace
}  // namespace librednn::bench
