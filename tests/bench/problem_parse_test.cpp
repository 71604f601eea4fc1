// Problem strings of every op: parsing, defaults, the round trip (problem -> string -> same problem),
// strings as LibreDNN's dispatch log prints them, and rejections that name the bad key.
#include "problem.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace librednn::bench {
namespace {

std::unique_ptr<Problem> parse_ok(const std::string &text, const ProblemDefaults &defaults = {}) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, defaults, &problem, &error), ParseResult::ok) << text << ": " << error;
    return problem;
}

std::string parse_error(const std::string &text, const ProblemDefaults &defaults = {}) {
    std::unique_ptr<Problem> problem;
    std::string error;
    EXPECT_EQ(parse_problem(text, defaults, &problem, &error), ParseResult::error) << text;
    return error;
}

const char *const kOneOfEachOp[] = {
    "op=conv dir=fwd dtype=half layout=nhwc n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 stride=1x1 dil=1x1 g=1 "
    "math=tensor_op algo=heuristic",
    "op=conv dir=bwd_data dtype=float n=8 c=32 h=17 w=9 k=16 r=5 s=3 pad=2x1 stride=2x2 dil=1x1 g=4 algo=1",
    "op=conv dir=bwd_filter dtype=bfloat16 layout=nhwc n=4 c=8 h=9 w=9 k=8 r=3 s=3 dil=2x2 pad=2x2 math=fma algo=find",
    "op=conv dtype=int8 layout=nhwc n=1 c=4 h=5 w=5 k=4 r=1 mode=conv compute=int32 alpha=0.5 beta=1",
    "op=bn mode=spatial phase=inference dtype=half layout=nhwc n=32 c=64 h=112 w=112",
    "op=bn mode=per_activation phase=train_fwd n=2 c=3 h=4 w=5 eps=0.001 factor=0.25",
    "op=bn mode=spatial_persistent phase=bwd dtype=double n=2 c=3 h=4 w=5",
    "op=act mode=relu dir=fwd n=2 c=3 h=4 w=5",
    "op=act mode=clipped_relu dir=bwd n=2 c=3 h=4 w=5 coef=6",
    "op=act mode=swish n=2 c=3 h=4 w=5 swish_beta=1.5",
    "op=act dir=fwd mode=relu nan=not_propagate dtype=half dims=32x64x112x112 xstrides=802816x1x7168x64 "
    "ystrides=802816x1x7168x64 alpha=1 beta=0",
    "op=softmax algo=log mode=channel dir=bwd n=2 c=10 h=1 w=1",
    "op=softmax n=4096 c=32000 h=1 w=1",
    "op=softmax dir=fwd algo=accurate mode=instance dtype=float dims=4096x32000x1x1 layout=nchw",
    "op=pool mode=max dir=fwd n=32 c=64 h=112 w=112 window=3x3 pad=1x1 stride=2x2",
    "op=pool mode=avg_excl dir=bwd n=2 c=3 h=8 w=8 window=2x2 nan=propagate",
    "op=lrn dir=fwd dtype=float dims=2x16x7x7 xstrides=784x49x7x1 ystrides=784x49x7x1 lrn_n=5 lrn_alpha=0.0001 "
    "lrn_beta=0.75 lrn_k=2 alpha=1 beta=0",
    "op=lrn dir=bwd dtype=half layout=nhwc n=2 c=16 h=4 w=4 lrn_n=4 lrn_k=1 beta=0.5",
    "op=divnorm dir=bwd dtype=float dims=2x16x7x7 xstrides=784x49x7x1 dxstrides=784x49x7x1 lrn_n=5 "
    "lrn_alpha=0.0001 lrn_beta=0.75 lrn_k=2 alpha=1 beta=0 dmeans=none",
    "op=divnorm dir=fwd n=2 c=8 h=5 w=5 means=none",
    "op=spatial_tf stage=grid dir=bwd dtype=float dims=8x3x32x32",
    "op=spatial_tf stage=sampler dir=fwd dtype=half dims=8x3x32x32 xdims=8x3x64x64 xstrides=12288x1x192x3 "
    "ystrides=3072x1024x32x1 alpha=1 beta=0",
    "op=op_tensor tensor_op=mul bdims=1x3x1x1 n=2 c=3 h=4 w=5 alpha1=2 alpha2=0.5 beta=1",
    "op=op_tensor tensor_op=sqrt dtype=double compute=double n=2 c=3 h=4 w=5",
    "op=add adims=1x3x1x1 n=2 c=3 h=4 w=5",
    "op=add_tensor dtype=half layout=nhwc n=2 c=3 h=4 w=5 beta=0",
    "op=add_tensor dtype=float dims=32x256x56x56 adims=1x256x1x1 astrides=256x1x1x1 cstrides=802816x3136x56x1 "
    "alpha=1 beta=1",
    "op=transform from=nchw to=nhwc dtype=half n=2 c=3 h=4 w=5",
    "op=transform dtype=float dims=2x3x4x5 xstrides=60x1x15x3 ytype=half ystrides=60x20x5x1",
    "op=transform dtype=half dims=2x3x5x5 to=nhwc pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2",
    "op=transform dims=2x12x3x3 fold=2x2 fold_dir=unfold pad_before=0x0x-1x0",
    "op=reduce dims=128x256x56x56 cdims=1x256x1x1",
    "op=reduce reduce_op=max indices=1 nan=propagate dtype=half layout=nhwc dims=8x16x7x7 cdims=1x16x1x1",
    "op=reduce reduce_op=norm2 dtype=bfloat16 ctype=float n=4 c=8 h=4 w=4 cdims=4x1x1x1 alpha=0.5 beta=1",
    "op=reduce reduce_op=avg dtype=double dims=4096x32000x1x1 cdims=4096x1x1x1",
    "op=copy dtype=half dims=2x3x4x5",
    "op=ctc_loss dtype=float dims=50x4x29 probsstrides=116x29x1 gradstrides=116x29x1 norm=softmax nan=not_propagate "
    "algo=det max_label=12 label_lengths=12x7x0x9 input_lengths=50x50x31x44",
    "op=copy n=2 c=3 h=4 w=5",
    "op=set_tensor dtype=half layout=nhwc dims=2x3x4x5 value=0.1",
    "op=set_tensor dtype=int8 n=2 c=3 h=4 w=5 value=-7",
    "op=set_tensor dims=2x3x4x5",
    "op=scale_tensor dtype=double dims=2x3x4x5 alpha=0.1",
    "op=scale_tensor dtype=bfloat16 layout=nhwc dims=2x3x4x5 alpha=3",
    "op=rnn dir=fwd cell=lstm dirs=2 layers=2 input=5 hidden=8 proj=6 seq=4 batch=3 lengths=4x2x1 hx=yes",
    "op=rnn dir=step cell=gru dtype=half math_type=tensor_op input=4 hidden=4 seq=2 batch=2 hy=yes",
    "op=rnn dir=bwd_weights cell=tanh algo=persist_static layout=batch_major_unpacked input=3 hidden=4 fill=-1",
};

TEST(BenchProblem, EveryOpRoundTripsThroughItsCanonicalString) {
    for (const char *text : kOneOfEachOp) {
        const std::unique_ptr<Problem> problem = parse_ok(text);
        ASSERT_TRUE(problem) << text;
        const std::string canonical = problem->text();
        const std::unique_ptr<Problem> again = parse_ok(canonical);
        ASSERT_TRUE(again) << canonical;
        EXPECT_EQ(again->text(), canonical) << "from " << text;
        EXPECT_EQ(again->describe(), problem->describe()) << canonical;
        // The canonical string is complete: defaults no longer matter.
        ProblemDefaults other;
        other.n = 7;
        other.dtype = "double";
        other.layout = "nhwc";
        other.math = "fma";
        other.algo = "find";
        const std::unique_ptr<Problem> elsewhere = parse_ok(canonical, other);
        ASSERT_TRUE(elsewhere);
        EXPECT_EQ(elsewhere->text(), canonical);
    }
}

TEST(BenchProblem, TheIssueExampleParsesWithEveryKeyKept) {
    const auto problem = parse_ok(
        "op=conv dir=fwd dtype=half layout=nhwc n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 stride=1x1 dil=1x1 g=1 "
        "math=tensor_op algo=heuristic");
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->text(),
              "op=conv dir=fwd dtype=half layout=nhwc n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 stride=1x1 dil=1x1 g=1 "
              "mode=xcorr compute=float math=tensor_op algo=heuristic alpha=1 beta=0");
}

// LibreDNN's dispatch log builds its strings with ProblemString::set in its own key order and with
// its own number formatting; such a string re-runs as the same problem.
TEST(BenchProblem, AStringAsTheDispatchLogPrintsItParsesToTheSameProblem) {
    ProblemString logged;
    logged.set("op", "conv");
    logged.set("dtype", "half");
    logged.set("dir", "bwd_data");
    logged.set("layout", "nhwc");
    logged.set("n", 32);
    logged.set("c", 256);
    logged.set("h", 14);
    logged.set("w", 14);
    logged.set("k", 1024);
    logged.set("r", 1);
    logged.set("s", 1);
    logged.set_dims("pad", {0, 0});
    logged.set_dims("stride", {1, 1});
    logged.set_dims("dil", {1, 1});
    logged.set("g", 1);
    logged.set("compute", "float");
    logged.set("math", "tensor_op");
    logged.set("alpha", 1.0);
    logged.set("beta", 0.0);
    const auto from_log = parse_ok(logged.to_string());
    const auto from_set = parse_ok(
        "op=conv dir=bwd_data dtype=half layout=nhwc n=32 c=256 h=14 w=14 k=1024 r=1 s=1 "
        "math=tensor_op");
    ASSERT_TRUE(from_log && from_set);
    EXPECT_EQ(from_log->text(), from_set->text());

    ProblemString bn;
    bn.set("op", "bn");
    bn.set("phase", "train_fwd");
    bn.set("mode", "spatial");
    bn.set("dtype", "float");
    bn.set("layout", "nchw");
    bn.set("n", 8);
    bn.set("c", 16);
    bn.set("h", 7);
    bn.set("w", 7);
    bn.set("eps", 1e-5);
    bn.set("factor", 0.1);
    const auto logged_bn = parse_ok(bn.to_string());
    ASSERT_TRUE(logged_bn);
    EXPECT_EQ(logged_bn->text(),
              "op=bn mode=spatial phase=train_fwd dtype=float dims=8x16x7x7 xstrides=784x49x7x1 "
              "ystrides=784x49x7x1 eps=1e-05 factor=0.1 alpha=1 beta=0");
}

// Strings as LibreDNN's op problems print them (the canonical examples of docs/PROBLEMS.md) print back unchanged.
TEST(BenchProblem, OpStringsAsLibreDNNPrintsThemPrintBackUnchanged) {
    for (const char *logged :
         {"op=act dir=fwd mode=relu nan=not_propagate dtype=half dims=32x64x112x112 xstrides=802816x1x7168x64 "
          "ystrides=802816x1x7168x64 alpha=1 beta=0",
          "op=act dir=bwd mode=clipped_relu nan=propagate coef=6 dtype=float dims=2x3x4x5 ystrides=60x20x5x1 "
          "dystrides=60x20x5x1 xstrides=60x20x5x1 dxstrides=60x1x15x3 alpha=1 beta=0.5",
          "op=softmax dir=bwd algo=log mode=channel dtype=half dims=8x10x3x3 ystrides=90x9x3x1 dystrides=90x9x3x1 "
          "dxstrides=90x9x3x1 alpha=1 beta=0",
          "op=add_tensor dtype=float dims=32x256x56x56 adims=1x256x1x1 astrides=256x1x1x1 cstrides=802816x3136x56x1 "
          "alpha=1 beta=1",
          "op=op_tensor tensor_op=max compute=float nan=not_propagate dtype=half dims=2x3x4x5 astrides=60x20x5x1 "
          "bdims=1x3x1x1 bstrides=3x1x1x1 cstrides=60x20x5x1 alpha1=1 alpha2=2 beta=0",
          "op=transform dtype=float dims=2x3x4x5 xstrides=60x20x5x1 ytype=half ystrides=60x1x15x3 alpha=1 beta=0",
          "op=transform dtype=float dims=2x3x5x5 xstrides=75x25x5x1 ydims=2x32x3x3 ystrides=288x1x96x32 "
          "pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2 fold_dir=fold alpha=1 beta=0",
          "op=transform dtype=float dims=2x12x3x3 xstrides=108x9x3x1 ydims=2x3x5x6 ystrides=90x30x6x1 "
          "pad_before=0x0x-1x0 pad_after=0x0x0x0 fold=2x2 fold_dir=unfold alpha=1 beta=0",
          "op=reduce reduce_op=max compute=float nan=not_propagate indices=1 dtype=half dims=8x1000x1x1 "
          "astrides=1000x1x1x1 cdims=8x1x1x1 cstrides=1x1x1x1 alpha=1 beta=0",
          "op=reduce reduce_op=add compute=float nan=not_propagate indices=0 dtype=half dims=2x8x4x4 "
          "astrides=128x1x32x8 ctype=float cdims=1x8x1x1 cstrides=8x1x1x1 alpha=1 beta=0.5",
          "op=set_tensor dtype=half dims=2x8x4x4 ystrides=128x16x4x1 value=0.0999755859375",
          "op=scale_tensor dtype=float dims=2x8x4x4 ystrides=128x1x32x8 alpha=0.10000000149011612"}) {
        const auto problem = parse_ok(logged);
        ASSERT_TRUE(problem) << logged;
        EXPECT_EQ(problem->text(), logged);
    }
    // Strides of other than a packed NCHW or NHWC tensor are refused with the reason.
    const std::string error = parse_error(
        "op=act dir=fwd mode=relu dtype=float dims=2x3x4x5 xstrides=120x40x10x2 "
        "ystrides=60x20x5x1");
    EXPECT_NE(error.find("key 'xstrides' must be the strides of a packed NCHW (60x20x5x1) or NHWC (60x1x15x3) tensor"),
              std::string::npos)
        << error;
}

TEST(BenchProblem, MissingKeysComeFromTheCommandLineDefaults) {
    ProblemDefaults defaults;
    defaults.n = 256;
    defaults.dtype = "bfloat16";
    defaults.layout = "nhwc";
    defaults.dir = "bwd_filter";
    defaults.math = "tensor_op";
    defaults.algo = "find";
    const auto conv = parse_ok("op=conv c=64 h=56 w=56 k=64 r=3 pad=1x1", defaults);
    ASSERT_TRUE(conv);
    EXPECT_EQ(conv->text(),
              "op=conv dir=bwd_filter dtype=bfloat16 layout=nhwc n=256 c=64 h=56 w=56 k=64 r=3 s=3 "
              "pad=1x1 stride=1x1 dil=1x1 g=1 mode=xcorr compute=float math=tensor_op algo=find "
              "alpha=1 beta=0");
    // Keys in the string win over the defaults.
    const auto fixed = parse_ok("op=conv n=2 dtype=float dir=fwd algo=0 c=8 h=8 w=8 k=8", defaults);
    ASSERT_TRUE(fixed);
    EXPECT_NE(fixed->text().find("dir=fwd dtype=float layout=nhwc n=2 "), std::string::npos) << fixed->text();
    EXPECT_NE(fixed->text().find("algo=0"), std::string::npos);
}

TEST(BenchProblem, TheDirectionMapsOntoEachOpOrSkipsIt) {
    ProblemDefaults defaults;
    std::unique_ptr<Problem> problem;
    std::string error;
    defaults.dir = "inference";
    ASSERT_EQ(parse_problem("op=bn n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::ok);
    EXPECT_NE(problem->text().find("phase=inference"), std::string::npos);
    ASSERT_EQ(parse_problem("op=conv n=1 c=2 h=3 w=4 k=2", defaults, &problem, &error), ParseResult::ok);
    EXPECT_NE(problem->text().find("dir=fwd"), std::string::npos);
    defaults.dir = "fwd";
    ASSERT_EQ(parse_problem("op=bn n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::ok);
    EXPECT_NE(problem->text().find("phase=train_fwd"), std::string::npos);
    defaults.dir = "bwd";
    ASSERT_EQ(parse_problem("op=pool n=1 c=2 h=4 w=4", defaults, &problem, &error), ParseResult::ok);
    EXPECT_NE(problem->text().find("dir=bwd"), std::string::npos);
    EXPECT_EQ(parse_problem("op=conv n=1 c=2 h=3 w=4 k=2", defaults, &problem, &error), ParseResult::not_applicable);
    EXPECT_EQ(parse_problem("op=op_tensor n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::not_applicable);
    defaults.dir = "bwd_filter";
    EXPECT_EQ(parse_problem("op=act n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::not_applicable);
    EXPECT_EQ(parse_problem("op=bn n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::not_applicable);
    // A direction in the string itself always applies.
    EXPECT_EQ(parse_problem("op=act dir=fwd n=1 c=2 h=3 w=4", defaults, &problem, &error), ParseResult::ok);
}

TEST(BenchProblem, ConvolutionCountsTwoFlopsPerTapAndOutputInEveryDirection) {
    // conv1 of ResNet-50 at N=32: 112x112 output, 7x7x3 taps, 64 filters.
    const double expected = 2.0 * 32 * 64 * 112 * 112 * 3 * 7 * 7;
    for (const char *dir : {"fwd", "bwd_data", "bwd_filter"}) {
        const auto problem =
            parse_ok(std::string("op=conv dir=") + dir + " n=32 c=3 h=224 w=224 k=64 r=7 s=7 pad=3x3 stride=2x2");
        ASSERT_TRUE(problem);
        EXPECT_DOUBLE_EQ(problem->flops(), expected) << dir;
    }
    // Groups divide the taps: a depthwise 3x3 over 32 channels.
    const auto depthwise = parse_ok("op=conv n=1 c=32 h=8 w=8 k=32 r=3 pad=1x1 g=32");
    ASSERT_TRUE(depthwise);
    EXPECT_DOUBLE_EQ(depthwise->flops(), 2.0 * 1 * 32 * 8 * 8 * 1 * 3 * 3);
}

TEST(BenchProblem, MemoryBoundOpsCountEachTensorTheyMustMoveOnce) {
    const double tensor = 2 * 3 * 4 * 5 * 4.0;  // float
    const auto relu = parse_ok("op=act mode=relu dims=2x3x4x5");
    EXPECT_DOUBLE_EQ(relu->flops(), 0);
    EXPECT_DOUBLE_EQ(bytes_moved(relu->tensors()), 2 * tensor);  // x read, y written
    const auto relu_backward = parse_ok("op=act mode=relu dir=bwd n=2 c=3 h=4 w=5");
    EXPECT_DOUBLE_EQ(bytes_moved(relu_backward->tensors()), 3 * tensor);  // y, dy read; dx written; x not needed
    const auto accumulate = parse_ok("op=act mode=relu n=2 c=3 h=4 w=5 beta=1");
    EXPECT_DOUBLE_EQ(bytes_moved(accumulate->tensors()), 3 * tensor);  // y is read too when beta != 0
    const auto bias = parse_ok("op=add_tensor adims=1x3x1x1 n=2 c=3 h=4 w=5");
    EXPECT_DOUBLE_EQ(bytes_moved(bias->tensors()), 2 * tensor + 3 * 4.0);  // c read and written, bias read
    const auto half = parse_ok("op=transform dtype=half n=2 c=3 h=4 w=5");
    EXPECT_DOUBLE_EQ(bytes_moved(half->tensors()), tensor);  // two half tensors
    const auto average_backward = parse_ok("op=pool mode=avg_incl dir=bwd n=2 c=3 h=4 w=4 window=2x2");
    EXPECT_DOUBLE_EQ(bytes_moved(average_backward->tensors()), (2 * 3 * 2 * 2 + 2 * 3 * 4 * 4) * 4.0);  // dy, dx
}

TEST(BenchProblem, ReductionsReadAOnceAndWriteCAndTheIndicesTheyAreAskedFor) {
    const double a = 2 * 3 * 4 * 5 * 4.0;  // float A
    const auto per_channel = parse_ok("op=reduce dims=2x3x4x5 cdims=1x3x1x1");
    EXPECT_DOUBLE_EQ(per_channel->flops(), 0);
    EXPECT_DOUBLE_EQ(bytes_moved(per_channel->tensors()), a + 3 * 4.0);
    const auto accumulate = parse_ok("op=reduce dims=2x3x4x5 cdims=1x3x1x1 beta=1");
    EXPECT_DOUBLE_EQ(bytes_moved(accumulate->tensors()), a + 2 * 3 * 4.0);  // C read too
    const auto argmax = parse_ok("op=reduce reduce_op=max indices=1 dtype=half dims=2x3x4x5 cdims=2x3x4x1");
    EXPECT_DOUBLE_EQ(bytes_moved(argmax->tensors()), a / 2 + 2 * 3 * 4 * (2 + 4.0));  // half C, 32-bit indices
    const auto without = parse_ok("op=reduce reduce_op=max dtype=half dims=2x3x4x5 cdims=2x3x4x1");
    EXPECT_DOUBLE_EQ(bytes_moved(without->tensors()), a / 2 + 2 * 3 * 4 * 2.0);
    ASSERT_EQ(argmax->tensors().size(), 3u);
    EXPECT_EQ(argmax->tensors()[2].name, "indices");
    EXPECT_EQ(argmax->tensors()[2].role, Role::output);
}

TEST(BenchProblem, SetWritesYOnlyAndScaleReadsAndWritesIt) {
    const double y = 2 * 3 * 4 * 5 * 2.0;  // half
    const auto set = parse_ok("op=set_tensor dtype=half dims=2x3x4x5 value=1");
    ASSERT_EQ(set->tensors().size(), 1u);
    EXPECT_EQ(set->tensors()[0].role, Role::output);
    EXPECT_DOUBLE_EQ(bytes_moved(set->tensors()), y);
    const auto scale = parse_ok("op=scale_tensor dtype=half dims=2x3x4x5 alpha=2");
    EXPECT_EQ(scale->tensors()[0].role, Role::inout);
    EXPECT_DOUBLE_EQ(bytes_moved(scale->tensors()), 2 * y);
}

TEST(BenchProblem, PaddedAndFoldedTransformsWriteAllOfYAndReadWhatCroppingKeepsOfX) {
    // 2x3x5x5 padded to 2x8x6x6, folded 2x2: y is 2x32x3x3, all written (padding too).
    const auto folded = parse_ok("op=transform dims=2x3x5x5 pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2");
    EXPECT_NE(folded->text().find(" ydims=2x32x3x3 "), std::string::npos) << folded->text();
    EXPECT_DOUBLE_EQ(bytes_moved(folded->tensors()), (2 * 3 * 5 * 5 + 2 * 32 * 3 * 3) * 4.0);
    // Folding rounds spatial dims up to whole blocks: 5x5 folded 2x2 is 3x3.
    const auto rounded = parse_ok("op=transform dims=1x1x5x5 fold=2x2");
    EXPECT_NE(rounded->text().find(" ydims=1x4x3x3 "), std::string::npos) << rounded->text();
    // Cropping one row and one column of 4x4 reads 3x3 of x.
    const auto cropped = parse_ok("op=transform dims=1x2x4x4 pad_before=0x0x-1x0 pad_after=0x0x0x-1");
    EXPECT_DOUBLE_EQ(bytes_moved(cropped->tensors()), (2 * 3 * 3 + 2 * 3 * 3) * 4.0);
    // Unfolding 2x12x3x3 by 2x2 gives 2x3x6x6.
    const auto unfolded = parse_ok("op=transform dims=2x12x3x3 fold=2x2 fold_dir=unfold");
    EXPECT_NE(unfolded->text().find(" ydims=2x3x6x6 "), std::string::npos) << unfolded->text();
    // Without padding or folding the string stays the plain transform's.
    const auto plain = parse_ok("op=transform dims=1x2x4x4 fold=1x1 fold_dir=unfold pad_before=0x0x0x0");
    EXPECT_EQ(plain->text(),
              "op=transform dtype=float dims=1x2x4x4 xstrides=32x16x4x1 ystrides=32x16x4x1 alpha=1 beta=0");
}

TEST(BenchProblem, SetAndScaleValuesPrintAsTheLibraryReceivesThem) {
    // cudnnSetTensor takes the value in y's type; cudnnScaleTensor takes alpha as a float (double data: a double).
    EXPECT_NE(parse_ok("op=set_tensor dtype=half dims=1x1x1x4 value=0.1")->text().find("value=0.0999755859375"),
              std::string::npos);
    EXPECT_NE(parse_ok("op=set_tensor dtype=double dims=1x1x1x4 value=0.1")->text().find("value=0.1"),
              std::string::npos);
    EXPECT_NE(parse_ok("op=scale_tensor dtype=half dims=1x1x1x4 alpha=0.1")->text().find("alpha=0.10000000149011612"),
              std::string::npos);
    EXPECT_NE(parse_ok("op=scale_tensor dtype=double dims=1x1x1x4 alpha=0.1")->text().find("alpha=0.1"),
              std::string::npos);
}

TEST(BenchProblem, RejectsUnknownKeysByName) {
    const std::string error = parse_error("op=conv n=1 c=2 h=3 w=4 k=2 pda=1x1");
    EXPECT_NE(error.find("unknown key 'pda'"), std::string::npos) << error;
    EXPECT_NE(error.find("op=conv"), std::string::npos) << error;
    // A key of another op is unknown here too.
    EXPECT_NE(parse_error("op=act n=1 c=2 h=3 w=4 window=3x3").find("'window'"), std::string::npos);
    EXPECT_NE(parse_error("op=act dims=1x2x3x4 n=1").find("not both"), std::string::npos);
    // layout= sets both tensors of a transform; with from= or to= one of them would be dropped.
    EXPECT_NE(parse_error("op=transform dims=1x2x3x4 from=nchw to=nhwc layout=nchw").find("not both"),
              std::string::npos);
}

TEST(BenchProblem, RejectsBadValuesNamingTheKeyAndWhatItTakes) {
    std::string error = parse_error("op=act mode=rleu n=1 c=2 h=3 w=4");
    EXPECT_NE(error.find("key 'mode' must be one of sigmoid|relu"), std::string::npos) << error;
    EXPECT_NE(error.find("got 'rleu'"), std::string::npos) << error;
    error = parse_error("op=conv n=1 c=2 h=3 w=4 k=2 pad=1");
    EXPECT_NE(error.find("key 'pad' must be HxW"), std::string::npos) << error;
    error = parse_error("op=conv n=0 c=2 h=3 w=4 k=2");
    EXPECT_NE(error.find("key 'n' must be an integer >= 1; got '0'"), std::string::npos) << error;
    error = parse_error("op=conv dtype=fp64 n=1 c=2 h=3 w=4 k=2");
    EXPECT_NE(error.find("key 'dtype'"), std::string::npos) << error;
    error = parse_error("op=conv dir=bwd_data algo=7 n=1 c=2 h=3 w=4 k=2");
    EXPECT_NE(error.find("algorithm number 0..5"), std::string::npos) << error;
    error = parse_error("op=bn alpha=x n=1 c=2 h=3 w=4");
    EXPECT_NE(error.find("key 'alpha' must be a number"), std::string::npos) << error;
    error = parse_error("op=pooling n=1 c=2 h=3 w=4");
    EXPECT_NE(error.find("unknown op 'pooling'"), std::string::npos) << error;
    error = parse_error("n=1 c=2 h=3 w=4");
    EXPECT_NE(error.find("no 'op' key"), std::string::npos) << error;
}

TEST(BenchProblem, RejectsShapesThatDoNotMakeAnOperation) {
    EXPECT_NE(parse_error("op=conv n=1 c=2 h=3 w=4 k=3 g=2").find("divisible by g=2"), std::string::npos);
    EXPECT_NE(parse_error("op=conv n=1 c=2 h=3 w=3 k=2 r=5").find("output would be empty"), std::string::npos);
    EXPECT_NE(parse_error("op=conv n=1 c=2 h=3 w=3 k=2 r=5 stride=3x3").find("output would be empty"),
              std::string::npos);
    EXPECT_NE(parse_error("op=conv n=1 c=2 h=5 w=5 k=2 r=3 dil=3x3").find("output would be empty"), std::string::npos);
    EXPECT_NE(parse_error("op=pool n=1 c=2 h=2 w=2 window=3x3").find("output would be empty"), std::string::npos);
    EXPECT_NE(parse_error("op=act n=1 c=2 h=3").find("missing key 'w'"), std::string::npos);
    EXPECT_NE(parse_error("op=conv n=1 c=2 h=3 w=4").find("missing key 'k'"), std::string::npos);
    EXPECT_NE(parse_error("op=act n=100000 c=1000 h=100 w=100").find("2^31-1"), std::string::npos);
}

TEST(BenchProblem, RejectsReductionsSetsAndTransformsThatDoNotMakeAnOperation) {
    EXPECT_NE(parse_error("op=reduce dims=2x3x4x5").find("cdims must give C extent 1 in the dims to reduce"),
              std::string::npos);
    EXPECT_NE(parse_error("op=reduce dims=2x3x4x5 cdims=1x2x1x1").find("cdims must equal dims or be 1"),
              std::string::npos);
    EXPECT_NE(parse_error("op=reduce indices=1 dims=2x3x4x5 cdims=1x3x1x1").find("indices=1 needs reduce_op=min"),
              std::string::npos);
    EXPECT_NE(parse_error("op=reduce reduce_op=sum dims=2x3x4x5 cdims=1x3x1x1").find("key 'reduce_op' must be one of"),
              std::string::npos);
    EXPECT_NE(parse_error("op=reduce indices=2 reduce_op=max dims=2x3x4x5 cdims=1x3x1x1").find("key 'indices'"),
              std::string::npos);
    EXPECT_NE(parse_error("op=scale_tensor dims=2x3x4x5").find("missing key 'alpha'"), std::string::npos);
    EXPECT_NE(parse_error("op=set_tensor dtype=int8 dims=2x3x4x5 value=0.5").find("whole number from -128 to 127"),
              std::string::npos);
    EXPECT_NE(parse_error("op=set_tensor dtype=int8 dims=2x3x4x5 value=300").find("got '300'"), std::string::npos);
    EXPECT_NE(parse_error("op=set_tensor dtype=half dims=2x3x4x5 value=70000").find("a number half holds"),
              std::string::npos);
    EXPECT_NE(parse_error("op=scale_tensor dims=2x3x4x5 alpha=1e39").find("beyond the range of a float"),
              std::string::npos);
    EXPECT_NE(parse_error("op=set_tensor dims=2x3x4x5 alpha=2").find("unknown key 'alpha'"), std::string::npos);
    EXPECT_NE(parse_error("op=scale_tensor dims=2x3x4x5 alpha=2 value=1").find("unknown key 'value'"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 pad_before=1x1").find("key 'pad_before' must be 4 integers"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 fold=0x2").find("key 'fold' must be 2 integers"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 pad_after=0x-3x0x0").find("padding leaves dim 1 empty"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x6x4x4 fold=2x2 fold_dir=unfold").find("not a multiple of the fold"),
              std::string::npos);
    // Pads beyond cuDNN's int and fold factors beyond 2^15 are refused before y's dims are worked out;
    // a y beyond 2^31-1 elements too, however far beyond.
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 pad_before=0x0x0x2147483648").find("key 'pad_before' must be"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 pad_after=0x0x0x99999999999999999999").find("key 'pad_after'"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x5 fold=1x32769").find("key 'fold' must be"), std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=1x1x1x1 pad_after=2147483647x2147483647x2147483647x2147483647")
                  .find("more than 2^31-1 elements"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=1x1x1x1 pad_before=0x2147483647x0x0 pad_after=0x2147483647x0x0 "
                          "fold=32768x32768")
                  .find("more than 2^31-1 elements"),
              std::string::npos);
    EXPECT_NE(parse_error("op=transform dims=2x3x4x4 fold=2x2 ydims=2x3x4x4").find("ydims must be x's dims padded"),
              std::string::npos);
    // Reductions, sets and scales have no backward direction.
    ProblemDefaults backward;
    backward.dir = "bwd";
    std::unique_ptr<Problem> problem;
    std::string error;
    for (const char *text :
         {"op=reduce dims=2x3x4x5 cdims=1x3x1x1", "op=set_tensor dims=2x3x4x5", "op=scale_tensor dims=2x3x4x5 alpha=2"})
        EXPECT_EQ(parse_problem(text, backward, &problem, &error), ParseResult::not_applicable) << text;
}

TEST(BenchProblem, KnownOpsAreTheDocumentedOnes) {
    EXPECT_EQ(known_ops(), (std::vector<std::string>{"conv", "bn", "act", "softmax", "pool", "lrn", "divnorm",
                                                     "spatial_tf", "op_tensor", "add_tensor", "transform", "reduce",
                                                     "set_tensor", "scale_tensor", "copy", "rnn", "ctc_loss"}));
}

}  // namespace
}  // namespace librednn::bench
