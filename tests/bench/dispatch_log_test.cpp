// The round trip through LibreDNN's own problem values: a string the bench prints is one LibreDNN's
// op parsers read and print back unchanged, so the dispatch log and the bench speak one language and a
// logged call re-runs as `librednn-bench --problem "<logged string>"`.
#include "ops/activation/problem.hpp"
#include "ops/reduce/problem.hpp"
#include "ops/softmax/problem.hpp"
#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
#include "ops/tensor/set_tensor_problem.hpp"
#include "ops/transform/problem.hpp"
#include "problem.hpp"

#include <gtest/gtest.h>

namespace librednn::bench {
namespace {

// Parses `bench_string` with LibreDNN's parser of `Value` and prints it with LibreDNN's printer.
template <class Value, class Parse>
std::string through_librednn(const std::string &bench_string, Parse parse) {
    ProblemString text;
    std::string error;
    if (!ProblemString::parse(bench_string, &text, &error)) return "unparsable: " + error;
    Value value;
    if (!parse(text, &value, &error)) return "LibreDNN rejects it: " + error;
    return librednn::to_problem_string(value).to_string();
}

std::string bench_canonical(const std::string &text) {
    std::unique_ptr<Problem> problem;
    std::string error;
    if (parse_problem(text, ProblemDefaults{}, &problem, &error) != ParseResult::ok)
        return "bench rejects it: " + error;
    return problem->text();
}

TEST(BenchDispatchLog, BenchStringsOfTensorOpsReadAndPrintTheSameInLibreDNN) {
    const std::vector<std::string> activations = {
        "op=act mode=relu dtype=half layout=nhwc n=32 c=64 h=112 w=112",
        "op=act dir=bwd mode=elu coef=0.5 nan=propagate n=2 c=3 h=4 w=5 beta=1",
        "op=act mode=swish swish_beta=2 dtype=bfloat16 n=2 c=3 h=4 w=5",
        "op=act dir=bwd mode=clipped_relu dtype=double n=1 c=3 h=1 w=7",
    };
    for (const std::string &text : activations) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::ActivationProblem>(canonical, librednn::parse_activation_problem),
                  canonical)
            << text;
    }
    for (const std::string &text :
         {std::string("op=softmax algo=log mode=channel dtype=half layout=nhwc n=8 c=10 h=3 w=3"),
          std::string("op=softmax dir=bwd n=4096 c=32000 h=1 w=1 alpha=0.5")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::SoftmaxProblem>(canonical, librednn::parse_softmax_problem), canonical)
            << text;
    }
    for (const std::string &text :
         {std::string("op=op_tensor tensor_op=mul bdims=1x8x1x1 n=2 c=8 h=4 w=4 alpha2=3"),
          std::string("op=op_tensor tensor_op=sqrt dtype=double compute=double n=2 c=8 h=4 w=4")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::OpTensorProblem>(canonical, librednn::parse_op_tensor_problem), canonical)
            << text;
    }
    for (const std::string &text : {std::string("op=add_tensor adims=1x8x1x1 dtype=half layout=nhwc n=2 c=8 h=4 w=4"),
                                    std::string("op=add n=2 c=8 h=4 w=4 beta=0")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::AddTensorProblem>(canonical, librednn::parse_add_tensor_problem),
                  canonical)
            << text;
    }
    for (const std::string &text :
         {std::string("op=transform from=nchw to=nhwc dtype=half n=2 c=8 h=4 w=4"),
          std::string("op=transform dims=2x8x4x4 ytype=float layout=nhwc dtype=half"),
          std::string("op=transform dtype=half dims=2x3x5x5 to=nhwc pad_before=0x0x1x1 pad_after=0x5x0x0 fold=2x2"),
          std::string("op=transform dims=2x12x3x3 fold=2x2 fold_dir=unfold pad_before=0x0x-1x0"),
          std::string("op=transform dims=2x3x4x4 pad_before=0x1x0x0 pad_after=0x4x0x0 from=nchw to=nhwc")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::TransformProblem>(canonical, librednn::parse_transform_problem), canonical)
            << text;
    }
}

TEST(BenchDispatchLog, BenchStringsOfReductionsSetsAndScalesReadAndPrintTheSameInLibreDNN) {
    for (const std::string &text :
         {std::string("op=reduce dims=128x256x56x56 cdims=1x256x1x1"),
          std::string("op=reduce reduce_op=max indices=1 dtype=half layout=nhwc dims=8x16x7x7 cdims=1x16x1x1"),
          std::string("op=reduce reduce_op=amax nan=propagate indices=1 dims=4096x32000x1x1 cdims=4096x1x1x1"),
          std::string("op=reduce reduce_op=mul_no_zeros dtype=bfloat16 ctype=float n=2 c=8 h=4 w=4 cdims=2x8x1x1 "
                      "alpha=0.5 beta=1"),
          std::string("op=reduce reduce_op=norm1 dtype=double dims=2x8x4x4 cdims=1x1x1x1")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::ReduceProblem>(canonical, librednn::parse_reduce_problem), canonical)
            << text;
    }
    for (const std::string &text :
         {std::string("op=set_tensor dtype=half layout=nhwc dims=2x8x4x4 value=0.1"),
          std::string("op=set_tensor dtype=int8 dims=2x8x4x4 value=-3"), std::string("op=set_tensor dims=2x8x4x4"),
          std::string("op=scale_tensor dtype=float dims=2x8x4x4 alpha=0.1"),
          std::string("op=scale_tensor dtype=double layout=nhwc dims=2x8x4x4 alpha=0.1")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::SetTensorProblem>(canonical, librednn::parse_set_tensor_problem),
                  canonical)
            << text;
    }
}

}  // namespace
}  // namespace librednn::bench
