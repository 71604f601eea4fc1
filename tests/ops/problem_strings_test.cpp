// The op problems print as problem strings and parse back to equal problems; packed defaults and
// typos are handled.
#include "ops/activation/problem.hpp"
#include "ops/common/problem_hash.hpp"
#include "ops/reduce/problem.hpp"
#include "ops/softmax/problem.hpp"
#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
#include "ops/tensor/set_tensor_problem.hpp"
#include "ops/transform/problem.hpp"

#include <gtest/gtest.h>

namespace {

using namespace librednn;

template <class Problem, class Parse>
void expect_round_trip(const Problem &problem, Parse parse) {
    const ProblemString text = to_problem_string(problem);
    ProblemString reparsed_text;
    std::string error;
    ASSERT_TRUE(ProblemString::parse(text.to_string(), &reparsed_text, &error)) << error;
    Problem back;
    ASSERT_TRUE(parse(reparsed_text, &back, &error)) << text.to_string() << ": " << error;
    EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
    EXPECT_TRUE(back == problem);
    EXPECT_EQ(ProblemHash{}(back), ProblemHash{}(problem));
}

TensorGeometry geometry(cudnnDataType_t type, std::vector<int64_t> dims, PackedLayout layout = PackedLayout::nchw) {
    return packed_geometry(type, static_cast<int>(dims.size()), dims.data(), layout);
}

TEST(OpProblemStrings, EveryFamilyRoundTrips) {
    ActivationProblem act;
    act.direction = Direction::backward;
    act.mode = CUDNN_ACTIVATION_CLIPPED_RELU;
    act.coef = 6.0;
    act.x = act.y = act.dy = geometry(CUDNN_DATA_HALF, {2, 3, 4, 5});
    act.dx = geometry(CUDNN_DATA_HALF, {2, 3, 4, 5}, PackedLayout::nhwc);
    act.alpha = 0.5;
    act.beta = 1.0;
    expect_round_trip(act, parse_activation_problem);
    EXPECT_EQ(to_problem_string(act).to_string(),
              "op=act dir=bwd mode=clipped_relu nan=not_propagate coef=6 dtype=half dims=2x3x4x5 ystrides=60x20x5x1 "
              "dystrides=60x20x5x1 xstrides=60x20x5x1 dxstrides=60x1x15x3 alpha=0.5 beta=1");

    SoftmaxProblem softmax;
    softmax.algorithm = CUDNN_SOFTMAX_LOG;
    softmax.mode = CUDNN_SOFTMAX_MODE_CHANNEL;
    softmax.x = softmax.y = geometry(CUDNN_DATA_FLOAT, {8, 1000, 1, 1});
    expect_round_trip(softmax, parse_softmax_problem);

    AddTensorProblem add;
    add.a = geometry(CUDNN_DATA_FLOAT, {1, 64, 1, 1});
    add.c = geometry(CUDNN_DATA_FLOAT, {32, 64, 56, 56}, PackedLayout::nhwc);
    expect_round_trip(add, parse_add_tensor_problem);

    OpTensorProblem op;
    op.op = CUDNN_OP_TENSOR_MAX;
    op.nan_opt = CUDNN_PROPAGATE_NAN;
    op.a = geometry(CUDNN_DATA_INT8, {2, 3, 4, 5});
    op.b = geometry(CUDNN_DATA_INT8, {1, 3, 1, 1});
    op.c = geometry(CUDNN_DATA_FLOAT, {2, 3, 4, 5});
    op.alpha2 = -1.0;
    expect_round_trip(op, parse_op_tensor_problem);

    SetTensorProblem scale;
    scale.kind = SetTensorProblem::Kind::scale;
    scale.y = geometry(CUDNN_DATA_INT8x4, {2, 8, 3, 3}, PackedLayout::nchw_vect_c);
    scale.value = 0.25;
    expect_round_trip(scale, parse_set_tensor_problem);

    ReduceProblem reduce;
    reduce.op = CUDNN_REDUCE_TENSOR_AMAX;
    reduce.indices = true;
    reduce.a = geometry(CUDNN_DATA_HALF, {4, 16, 7, 7});
    reduce.c = geometry(CUDNN_DATA_FLOAT, {4, 16, 1, 1});
    expect_round_trip(reduce, parse_reduce_problem);

    TransformProblem transform;
    transform.x = geometry(CUDNN_DATA_FLOAT, {1, 3, 5, 5});
    transform.y = geometry(CUDNN_DATA_FLOAT, {1, 12, 3, 3}, PackedLayout::nhwc);
    transform.pad_after[2] = transform.pad_after[3] = 1;
    transform.fold[0] = transform.fold[1] = 2;
    expect_round_trip(transform, parse_transform_problem);
}

TEST(OpProblemStrings, MissingStridesMeanPackedInTheLayout) {
    ProblemString text;
    std::string error;
    ASSERT_TRUE(ProblemString::parse("op=act mode=relu dtype=half dims=2x3x4x5 layout=nhwc", &text, &error)) << error;
    ActivationProblem p;
    ASSERT_TRUE(parse_activation_problem(text, &p, &error)) << error;
    EXPECT_EQ(p.x, geometry(CUDNN_DATA_HALF, {2, 3, 4, 5}, PackedLayout::nhwc));
    EXPECT_EQ(p.y, p.x);
    EXPECT_EQ(p.alpha, 1.0);
    EXPECT_EQ(p.beta, 0.0);
}

TEST(OpProblemStrings, ActivationCoefficientsDefaultAsTheBenchReadsThem) {
    // A hand-written string without coef= means the same problem to LibreDNN and to librednn-bench.
    const std::pair<const char *, double> cases[] = {{"clipped_relu", 6.0}, {"elu", 1.0}, {"relu", 0.0}};
    for (const auto &[mode, coef] : cases) {
        ProblemString text;
        std::string error;
        ASSERT_TRUE(
            ProblemString::parse(std::string("op=act mode=") + mode + " dtype=float dims=1x2x3x4", &text, &error))
            << error;
        ActivationProblem p;
        ASSERT_TRUE(parse_activation_problem(text, &p, &error)) << error;
        EXPECT_EQ(p.coef, coef) << mode;
    }
}

TEST(OpProblemStrings, ComputeTypesDefaultToTheDataAsTheBenchReadsThem) {
    // Without compute=: double for double tensors (the only compute type cuDNN takes for them), else float.
    for (const char *dtype : {"double", "float", "half"}) {
        const cudnnDataType_t want = std::string(dtype) == "double" ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        ProblemString text;
        std::string error;
        ASSERT_TRUE(ProblemString::parse(
            std::string("op=reduce reduce_op=add dtype=") + dtype + " dims=2x3x4x5 cdims=1x3x1x1", &text, &error))
            << error;
        ReduceProblem reduce;
        ASSERT_TRUE(parse_reduce_problem(text, &reduce, &error)) << error;
        EXPECT_EQ(reduce.compute, want) << dtype;
        ASSERT_TRUE(ProblemString::parse(std::string("op=op_tensor tensor_op=mul dtype=") + dtype + " dims=2x3x4x5",
                                         &text, &error))
            << error;
        OpTensorProblem op;
        ASSERT_TRUE(parse_op_tensor_problem(text, &op, &error)) << error;
        EXPECT_EQ(op.compute, want) << dtype;
    }
}

TEST(OpProblemStrings, TheExamplesOfTheDocsParse) {
    // docs/PROBLEMS.md
    const std::string examples[] = {
        "op=act dir=fwd mode=relu nan=not_propagate dtype=half dims=32x64x112x112 xstrides=802816x1x7168x64 "
        "ystrides=802816x1x7168x64 alpha=1 beta=0",
        "op=softmax dir=fwd algo=accurate mode=instance dtype=float dims=4096x32000x1x1 layout=nchw",
        "op=add_tensor dtype=float dims=32x256x56x56 adims=1x256x1x1 astrides=256x1x1x1 cstrides=802816x3136x56x1 "
        "alpha=1 beta=1",
        "op=reduce reduce_op=max compute=float nan=not_propagate indices=1 dtype=half dims=8x1000x1x1 cdims=8x1x1x1 "
        "layout=nchw",
        "op=transform dtype=int8 dims=32x64x56x56 ytype=int8x32 layout=nchw",
    };
    std::string error;
    ProblemString text;
    ActivationProblem act;
    SoftmaxProblem softmax;
    AddTensorProblem add;
    ReduceProblem reduce;
    TransformProblem transform;
    ASSERT_TRUE(ProblemString::parse(examples[0], &text, &error) && parse_activation_problem(text, &act, &error))
        << error;
    ASSERT_TRUE(ProblemString::parse(examples[1], &text, &error) && parse_softmax_problem(text, &softmax, &error))
        << error;
    ASSERT_TRUE(ProblemString::parse(examples[2], &text, &error) && parse_add_tensor_problem(text, &add, &error))
        << error;
    ASSERT_TRUE(ProblemString::parse(examples[3], &text, &error) && parse_reduce_problem(text, &reduce, &error))
        << error;
    ASSERT_TRUE(ProblemString::parse(examples[4], &text, &error) && parse_transform_problem(text, &transform, &error))
        << error;
    EXPECT_EQ(reduce.c.dims[1], 1);
    EXPECT_EQ(transform.y.dtype, CUDNN_DATA_INT8x32);
    EXPECT_EQ(transform.y.strides[1], 56 * 56);  // NCHW_VECT_C: strides in vectors of 32
}

TEST(OpProblemStrings, RejectUnknownKeysAndValues) {
    ProblemString text;
    std::string error;
    ActivationProblem p;
    ASSERT_TRUE(ProblemString::parse("op=act mode=relu dtype=float dims=2x3 xstride=1x1", &text, &error));
    EXPECT_FALSE(parse_activation_problem(text, &p, &error));
    EXPECT_NE(error.find("xstride"), std::string::npos) << error;
    ASSERT_TRUE(ProblemString::parse("op=act mode=gelu dtype=float dims=2x3", &text, &error));
    EXPECT_FALSE(parse_activation_problem(text, &p, &error));
    EXPECT_NE(error.find("gelu"), std::string::npos) << error;
    ReduceProblem r;
    ASSERT_TRUE(ProblemString::parse("op=act mode=relu dtype=float dims=2x3", &text, &error));
    EXPECT_FALSE(parse_reduce_problem(text, &r, &error));
}

}  // namespace
