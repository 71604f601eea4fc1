// Every convolution string LibreDNN prints runs in librednn-bench (issue 13): random ConvProblems (1 to 3
// spatial dims, groups, strides, padding, dilation, both modes, float and int8 configurations, packed and
// strided tensors, the fused forward) go through LibreDNN's to_problem_string, parse in the bench, print
// back as the same problem, and run on LibreDNN's host backend with status ok.
#include "bench_test_util.hpp"
#include "ops/conv/problem.hpp"
#include "problem.hpp"

#include <gtest/gtest.h>

#include <random>
#include <regex>

namespace librednn::bench {
namespace {

using test::read_file;
using test::run_bench;
using test::TempDir;

int pick(std::mt19937 &rng, int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); }

// `geometry` with the strides of a packed tensor one larger in every spatial dim: strided, not packed.
TensorGeometry with_gaps(const TensorGeometry &geometry, PackedLayout layout) {
    int64_t padded[kMaxDims];
    for (int i = 0; i < geometry.nb_dims; ++i) padded[i] = geometry.dims[i] + (i >= 2 ? 1 : 0);
    TensorGeometry strided = packed_geometry(geometry.dtype, geometry.nb_dims, padded, layout);
    for (int i = 0; i < geometry.nb_dims; ++i) strided.dims[i] = geometry.dims[i];
    return strided;
}

enum class TypeConfig { float_data, double_data, half_data, bfloat16_data, int8, int8_float_output, int8x4 };

ConvProblem random_problem(std::mt19937 &rng) {
    ConvProblem p;
    const auto config = static_cast<TypeConfig>(pick(rng, 0, 6));
    const bool int8 = config == TypeConfig::int8 || config == TypeConfig::int8_float_output;
    const bool vectorised = config == TypeConfig::int8x4;
    p.direction = int8 || vectorised ? ConvDirection::forward : static_cast<ConvDirection>(pick(rng, 0, 2));
    p.spatial_dims = pick(rng, 1, 3);
    const int nb_dims = p.spatial_dims + 2;
    p.groups = pick(rng, 1, 2);
    const int channel_unit = vectorised ? 4 : 1;
    int64_t x_dims[kMaxDims] = {}, w_dims[kMaxDims] = {}, y_dims[kMaxDims] = {};
    x_dims[0] = pick(rng, 1, 2);
    x_dims[1] = p.groups * channel_unit * pick(rng, 1, 2);
    w_dims[0] = p.groups * channel_unit * pick(rng, 1, 2);
    w_dims[1] = x_dims[1] / p.groups;
    for (int i = 0; i < p.spatial_dims; ++i) {
        x_dims[i + 2] = pick(rng, 3, 6);
        w_dims[i + 2] = pick(rng, 1, 3);
        p.pad[i] = pick(rng, 0, 1);
        p.stride[i] = pick(rng, 1, 2);
        p.dilation[i] = pick(rng, 1, 2);
        if ((w_dims[i + 2] - 1) * p.dilation[i] + 1 > x_dims[i + 2] + 2 * p.pad[i]) p.dilation[i] = 1;
    }
    p.mode = pick(rng, 0, 1) ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
    conv_output_dims(p, x_dims, w_dims, y_dims);
    cudnnDataType_t x_type = CUDNN_DATA_FLOAT, w_type, y_type;
    PackedLayout layout = pick(rng, 0, 1) ? PackedLayout::nhwc : PackedLayout::nchw;
    PackedLayout filter_layout =
        pick(rng, 0, 2) == 0 ? (layout == PackedLayout::nhwc ? PackedLayout::nchw : PackedLayout::nhwc) : layout;
    p.compute_type = CUDNN_DATA_FLOAT;
    switch (config) {
        case TypeConfig::float_data: break;
        case TypeConfig::double_data: x_type = p.compute_type = CUDNN_DATA_DOUBLE; break;
        case TypeConfig::half_data:
            x_type = CUDNN_DATA_HALF;
            if (pick(rng, 0, 1)) p.compute_type = CUDNN_DATA_HALF;
            break;
        case TypeConfig::bfloat16_data: x_type = CUDNN_DATA_BFLOAT16; break;
        case TypeConfig::int8:
        case TypeConfig::int8_float_output:
            x_type = CUDNN_DATA_INT8;
            p.compute_type = CUDNN_DATA_INT32;
            layout = filter_layout = PackedLayout::nhwc;  // cuDNN's int8 convolutions read KRSC filters
            break;
        case TypeConfig::int8x4:
            x_type = CUDNN_DATA_INT8x4;
            p.compute_type = CUDNN_DATA_INT32;
            layout = filter_layout = PackedLayout::nchw_vect_c;
            break;
    }
    w_type = y_type = x_type;
    if (config == TypeConfig::int8_float_output) y_type = CUDNN_DATA_FLOAT;
    p.filter_format = filter_layout == PackedLayout::nhwc   ? CUDNN_TENSOR_NHWC
                      : filter_layout == PackedLayout::nchw ? CUDNN_TENSOR_NCHW
                                                            : CUDNN_TENSOR_NCHW_VECT_C;
    p.x = packed_geometry(x_type, nb_dims, x_dims, layout);
    p.w = packed_geometry(w_type, nb_dims, w_dims, filter_layout);
    p.y = packed_geometry(y_type, nb_dims, y_dims,
                          y_type == CUDNN_DATA_FLOAT && vectorised ? PackedLayout::nchw : layout);
    if (!vectorised && pick(rng, 0, 2) == 0) p.x = with_gaps(p.x, layout);
    if (!vectorised && pick(rng, 0, 2) == 0) p.y = with_gaps(p.y, layout);
    p.alpha = pick(rng, 0, 1) ? 1.0 : 0.5;
    p.beta = pick(rng, 0, 1) ? 0.0 : 1.0;
    if (p.direction == ConvDirection::forward && pick(rng, 0, 2) == 0) {
        ConvEpilogue &e = p.epilogue;
        e.fused = true;
        p.beta = 0;
        e.activation = pick(rng, 0, 1) ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY;
        e.alpha2 = pick(rng, 0, 1) ? 0.0 : 0.5;
        e.z = p.y;
        int64_t bias_dims[kMaxDims];
        for (int i = 0; i < nb_dims; ++i) bias_dims[i] = i == 1 ? y_dims[1] : 1;
        // int8 configurations add a float bias (cuDNN's rule); the others one of y's type.
        const cudnnDataType_t bias_type = int8 || vectorised ? CUDNN_DATA_FLOAT : y_type;
        e.bias = packed_geometry(bias_type, nb_dims, bias_dims, PackedLayout::nchw);
        // cuDNN fuses an identity activation with IMPLICIT_PRECOMP_GEMM alone.
        if (e.activation == CUDNN_ACTIVATION_IDENTITY) p.algorithm = 1;
    }
    return p;
}

std::vector<ConvProblem> random_problems(unsigned seed, int count) {
    std::mt19937 rng(seed);
    std::vector<ConvProblem> problems;
    for (int i = 0; i < count; ++i) problems.push_back(random_problem(rng));
    return problems;
}

constexpr unsigned kSeed = 13;
constexpr int kCount = 48;

TEST(BenchConvGrammar, EveryStringLibreDNNPrintsParsesAndDescribesTheSameProblem) {
    for (const ConvProblem &original : random_problems(kSeed, kCount)) {
        const std::string text = to_problem_string(original).to_string();
        std::unique_ptr<Problem> problem;
        std::string error;
        ASSERT_EQ(parse_problem(text, ProblemDefaults{}, &problem, &error), ParseResult::ok)
            << "seed " << kSeed << ": " << text << ": " << error;
        // describe() is LibreDNN's string (algo=heuristic where the problem named none) ...
        const ProblemString described = problem->describe();
        ConvProblem back;
        ASSERT_TRUE(parse_conv_problem(described, &back, &error)) << described.to_string() << ": " << error;
        EXPECT_TRUE(back == original) << text << "\nbecame " << described.to_string();
        // ... and the bench reads its own canonical string back unchanged, whatever the defaults.
        ProblemDefaults other;
        other.n = 7;
        other.dtype = "double";
        other.layout = "nhwc";
        other.algo = "find";
        std::unique_ptr<Problem> again;
        ASSERT_EQ(parse_problem(described.to_string(), other, &again, &error), ParseResult::ok) << error;
        EXPECT_EQ(again->text(), problem->text());
    }
}

// The 2-d grammar is sugar for the same ConvProblem: LibreDNN reads the bench's canonical string as the
// problem the bench runs.
TEST(BenchConvGrammar, TheBenchs2dStringsAreLibreDNNsStrings) {
    for (const std::string text : {"op=conv dir=fwd dtype=half layout=nhwc n=2 c=8 h=5 w=5 k=4 r=3 pad=1x1 algo=1",
                                   "op=conv dir=bwd_filter n=1 c=4 h=6 w=7 k=4 r=3 s=2 dil=2x1 g=2 mode=conv",
                                   "op=conv dtype=int8 layout=nhwc n=1 c=4 h=5 w=5 k=4 r=1 compute=int32 beta=1"}) {
        std::unique_ptr<Problem> problem;
        std::string error;
        ASSERT_EQ(parse_problem(text, ProblemDefaults{}, &problem, &error), ParseResult::ok) << error;
        ConvProblem value;
        ASSERT_TRUE(parse_conv_problem(problem->describe(), &value, &error)) << problem->text() << ": " << error;
        ProblemString printed = to_problem_string(value);
        if (value.algorithm < 0) {
            value.algorithm = 0;
            printed = to_problem_string(value);
            printed.set("algo", "heuristic");
        }
        EXPECT_EQ(printed.to_string(), problem->text()) << text;
    }
}

TEST(BenchConvGrammar, LibreDNNsKeysAreCheckedAsItsParserChecksThem) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem("op=conv dims=1x4x5 wdims=4x4x9", ProblemDefaults{}, &problem, &error), ParseResult::error);
    EXPECT_NE(error.find("op=conv: "), std::string::npos) << error;
    EXPECT_EQ(parse_problem("op=conv dir=bwd_data n=1 c=4 d=3 h=3 w=3 k=4 fused=bias_act", ProblemDefaults{}, &problem,
                            &error),
              ParseResult::error);
    EXPECT_NE(error.find("dir must be fwd"), std::string::npos) << error;
    EXPECT_EQ(parse_problem("op=conv n=1 c=4 d=3 h=3 w=3 k=4 pda=1x1x1", ProblemDefaults{}, &problem, &error),
              ParseResult::error);
    EXPECT_NE(error.find("pda"), std::string::npos) << error;
    // A 3-d string without n= takes --n, as the 2-d grammar does.
    ProblemDefaults defaults;
    defaults.n = 3;
    ASSERT_EQ(parse_problem("op=conv c=4 d=3 h=3 w=3 k=4", defaults, &problem, &error), ParseResult::ok) << error;
    EXPECT_EQ(problem->text(),
              "op=conv dir=fwd dtype=float layout=nchw n=3 c=4 d=3 h=3 w=3 k=4 t=1 r=1 s=1 pad=0x0x0 stride=1x1x1 "
              "dil=1x1x1 g=1 mode=xcorr compute=float math=default algo=heuristic alpha=1 beta=0");
}

// The random problems, all in one run of the bench against LibreDNN's host backend: each runs (ok).
TEST(BenchConvGrammar, LibreDNNRunsEveryStringItPrintsOnTheHost) {
    TempDir dir;
    std::vector<std::string> args = {"--lib",  LIBREDNN_BENCH_CUDNN, "--host", "--runs", "1", "--warmup", "0",
                                     "--json", dir.file("r.json")};
    for (const ConvProblem &p : random_problems(kSeed, kCount)) {
        args.push_back("--problem");
        args.push_back(to_problem_string(p).to_string());
    }
    const auto result = run_bench(args);
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    const std::string json = read_file(dir.file("r.json"));
    const std::regex entry("\"problem\": \"([^\"]*)\"[^\n]*\n *\"lib\": \\{\"status\": \"([a-z]+)\"([^\n]*)");
    int count = 0;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), entry); it != std::sregex_iterator(); ++it, ++count)
        EXPECT_EQ((*it)[2].str(), "ok") << "seed " << kSeed << ": " << (*it)[1] << (*it)[3];
    EXPECT_EQ(count, kCount) << json.substr(0, 3000);
}

}  // namespace
}  // namespace librednn::bench
