// The problems of cudnnSetTensor (y = value) and cudnnScaleTensor (y = alpha * y) as values
// ("op=set_tensor dtype=half dims=... ystrides=... value=0.5", "op=scale_tensor ... alpha=2").
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <string>

namespace librednn {

struct SetTensorProblem {
    enum class Kind { set, scale };
    Kind kind = Kind::set;
    TensorGeometry y;
    double value = 0.0;  // set: the value (of y's type); scale: alpha

    bool operator==(const SetTensorProblem &other) const;
};

struct SetTensorBuffers {
    void *y = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const SetTensorProblem &problem, const SetTensorBuffers &buffers);

ProblemString to_problem_string(const SetTensorProblem &problem);
bool parse_set_tensor_problem(const ProblemString &text, SetTensorProblem *problem, std::string *error);

}  // namespace librednn
