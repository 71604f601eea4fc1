// The round trip through LibreDNN's own problem values: a string the bench prints is one LibreDNN's
// op parsers read and print back unchanged, so the dispatch log and the bench speak one language and a
// logged call re-runs as `librednn-bench --problem "<logged string>"`.
#include "ops/activation/problem.hpp"
#include "ops/softmax/problem.hpp"
#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
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
    for (const std::string &text : {std::string("op=transform from=nchw to=nhwc dtype=half n=2 c=8 h=4 w=4"),
                                    std::string("op=transform dims=2x8x4x4 ytype=float layout=nhwc dtype=half")}) {
        const std::string canonical = bench_canonical(text);
        EXPECT_EQ(through_librednn<librednn::TransformProblem>(canonical, librednn::parse_transform_problem), canonical)
            << text;
    }
}

}  // namespace
}  // namespace librednn::bench
