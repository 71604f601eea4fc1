// cuDNN's rules for transforms, checked on the problem: shapes (padding and folding included), data
// types, scaling factors, in-place use.
#pragma once

#include "core/status.hpp"
#include "ops/transform/problem.hpp"

#include <cudnn.h>

namespace librednn {

// True for the types a transform moves: float, double, half, bfloat16, int8, uint8, int32 and the
// vectorised int8 types.
bool transform_supports(cudnnDataType_t type);

// The dims y must have: x's, padded, then folded (or unfolded, then padded). False with a reason when
// the padding leaves a dim empty or the channels do not unfold.
bool transform_output_dims(const TransformProblem &problem, int64_t *dims, std::string *reason);

// The status cuDNN returns for this problem (and a reason), or SUCCESS. `converts_types` is true for
// filter transforms, which may change the data type; tensor transforms may not.
Status validate_transform(const TransformProblem &problem, const TransformBuffers &buffers, bool converts_types);

}  // namespace librednn
