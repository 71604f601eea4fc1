// The command line: options parsed in-process, and the executable's messages and exit codes (2 for a
// bad command line or problem, with one sentence naming what is wrong).
#include "bench_test_util.hpp"
#include "cli.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace librednn::bench {
namespace {

using test::contains;
using test::run_bench;

Options parse_ok(const std::vector<std::string> &args) {
    Options options;
    std::string error;
    EXPECT_TRUE(parse_command_line(args, &options, &error)) << error;
    return options;
}

std::string parse_error(const std::vector<std::string> &args) {
    Options options;
    std::string error;
    EXPECT_FALSE(parse_command_line(args, &options, &error));
    return error;
}

TEST(BenchCommandLine, ReadsEveryOptionInBothSpellings) {
    const Options options = parse_ok({"--lib",
                                      "/a/libcudnn.so.9",
                                      "--vs=/b/libcudnn.so.8",
                                      "--set",
                                      "x.tsv",
                                      "--problem",
                                      "op=act n=1 c=1 h=1 w=1",
                                      "--n=256",
                                      "--dtype",
                                      "bfloat16",
                                      "--layout",
                                      "nhwc",
                                      "--dir",
                                      "fwd,bwd_data,fwd",
                                      "--math",
                                      "fma",
                                      "--find",
                                      "--check",
                                      "--host",
                                      "--runs",
                                      "50",
                                      "--warmup=0",
                                      "--seed",
                                      "7",
                                      "--json",
                                      "r.json",
                                      "--csv",
                                      "r.csv",
                                      "--markdown",
                                      "r.md"});
    EXPECT_EQ(options.lib, "/a/libcudnn.so.9");
    EXPECT_EQ(options.vs, "/b/libcudnn.so.8");
    EXPECT_EQ(options.sets, std::vector<std::string>{"x.tsv"});
    EXPECT_EQ(options.problems.size(), 1u);
    EXPECT_EQ(options.defaults.n, 256);
    EXPECT_EQ(options.defaults.dtype, "bfloat16");
    EXPECT_EQ(options.defaults.layout, "nhwc");
    EXPECT_EQ(options.dirs, (std::vector<std::string>{"fwd", "bwd_data"}));
    EXPECT_EQ(options.defaults.math, "fma");
    EXPECT_EQ(options.defaults.algo, "find");
    EXPECT_TRUE(options.check && options.host);
    EXPECT_EQ(options.runs, 50);
    EXPECT_EQ(options.warmup, 0);
    EXPECT_EQ(options.seed, 7u);
    EXPECT_EQ(options.json, "r.json");
    EXPECT_EQ(options.csv, "r.csv");
    EXPECT_EQ(options.markdown, "r.md");
    const Options defaults = parse_ok({"--set", "x.tsv"});
    EXPECT_EQ(defaults.lib, "libcudnn.so.8");
    EXPECT_EQ(defaults.runs, 30);
    EXPECT_EQ(defaults.dirs, std::vector<std::string>{"fwd"});
    EXPECT_EQ(defaults.defaults.algo, "heuristic");
    EXPECT_FALSE(defaults.check);
}

TEST(BenchCommandLine, RejectsBadOptionsWithOneSentence) {
    EXPECT_EQ(parse_error({"--set", "x", "--frobnicate"}), "unknown option '--frobnicate'");
    EXPECT_EQ(parse_error({"--set"}), "--set needs a value");
    EXPECT_EQ(parse_error({"--set", "x", "--dtype", "fp16"}),
              "--dtype must be float, double, half, bfloat16 or int8, got 'fp16'");
    EXPECT_EQ(parse_error({"--set", "x", "--dir", "fwd,up"}),
              "--dir takes a comma list of fwd, bwd, bwd_data, bwd_filter, inference, step; got 'up'");
    EXPECT_EQ(parse_error({"--set", "x", "--runs", "0"}), "--runs must be an integer >= 1, got '0'");
    EXPECT_EQ(parse_error({"--set", "x", "--perf", "--check"}),
              "--perf and --check exclude each other: choose one mode");
    EXPECT_EQ(parse_error({"--set", "x", "--find=yes"}), "--find takes no value");
    EXPECT_EQ(parse_error({}), "nothing to run: give --problem STRING or --set FILE");
}

TEST(BenchExecutable, HelpListsTheOptionsAndExitsZero) {
    const auto result = run_bench({"--help"});
    EXPECT_EQ(result.exit_code, 0);
    for (const char *option : {"--lib", "--vs", "--problem", "--set", "--check", "--perf", "--json", "--find"})
        EXPECT_TRUE(contains(result.out, option)) << option;
}

TEST(BenchExecutable, AnUnknownKeyExitsTwoNamingTheKey) {
    const auto result = run_bench({"--problem", "op=conv n=1 c=2 h=3 w=4 k=2 pda=1x1", "--list"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "librednn-bench: op=conv: unknown key 'pda'")) << result.err;
    EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(BenchExecutable, ABadValueExitsTwoSayingWhatTheKeyTakes) {
    auto result = run_bench({"--problem", "op=act mode=rleu n=1 c=2 h=3 w=4"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err,
                         "key 'mode' must be one of sigmoid|relu|tanh|clipped_relu|elu|identity|swish; "
                         "got 'rleu'"))
        << result.err;
    result = run_bench({"--problem", "op=act n=1 c=2 h=3 w=4 garbage"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "token 'garbage' is not key=value")) << result.err;
    result = run_bench({"--set", "/nonexistent/set.tsv"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "cannot read the problem set /nonexistent/set.tsv")) << result.err;
    result = run_bench({"--problem", "op=act n=1 c=2 h=3 w=4", "--layout", "chwn"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(contains(result.err, "--layout must be nchw or nhwc, got 'chwn'")) << result.err;
    EXPECT_TRUE(contains(result.err, "--help")) << result.err;
}

TEST(BenchExecutable, ListPrintsProblemStringsThatParseBackUnchanged) {
    const auto result = run_bench({"--list", "--set", std::string(LIBREDNN_BENCH_SETS) + "/resnet50-conv.tsv", "--dir",
                                   "fwd,bwd_filter", "--dtype", "half", "--layout", "nhwc", "--n", "256"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::istringstream lines(result.out);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
        ++count;
        std::unique_ptr<Problem> problem;
        std::string error;
        ASSERT_EQ(parse_problem(line, ProblemDefaults{}, &problem, &error), ParseResult::ok) << line << ": " << error;
        EXPECT_EQ(problem->text(), line);
        EXPECT_TRUE(contains(line, "dtype=half layout=nhwc n=256 ")) << line;
    }
    EXPECT_EQ(count, 46);
}

TEST(BenchExecutable, ALibraryThatCannotBeLoadedExitsOne) {
    const auto result = run_bench({"--lib", "/nonexistent/libcudnn.so.8", "--problem", "op=act n=1 c=2 h=3 w=4"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(contains(result.err, "--lib: cannot load /nonexistent/libcudnn.so.8")) << result.err;
}

}  // namespace
}  // namespace librednn::bench
