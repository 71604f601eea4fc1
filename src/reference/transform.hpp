// The reference transform: naive, in double, one output element at a time. It is the specification
// of padding and folding as LibreDNN implements them (see TransformProblem).
#pragma once

#include "ops/transform/problem.hpp"

namespace librednn::reference {

// The element of x that output element `y_index` takes; false when it is padding (zero).
bool transform_source_index(const TransformProblem &problem, const int64_t *y_index, int64_t *x_index);

// y = alpha * T(x) + beta * y on host memory; y is not read when beta == 0.
void transform(const TransformProblem &problem, const TransformBuffers &buffers);

}  // namespace librednn::reference
