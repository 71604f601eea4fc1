// LibreDNN's host references for the tensor-op families (act, softmax, op_tensor, add_tensor,
// transform, reduce, set_tensor, scale_tensor) as check-mode references: the bench's problem string is
// read back by LibreDNN's own op parser (src/ops/<family>/problem.hpp) and run by src/reference/ on the
// bench's host tensors. Also the bench's own copy (y = x).
#pragma once

#include "check.hpp"
#include "problem.hpp"

namespace librednn::bench {

// The reference of `problem` when it is one of the tensor-op families; otherwise `compute` is empty
// and `unavailable` says "no reference yet" (or why LibreDNN's parser rejects the problem).
Reference tensor_op_reference(const Problem &problem);

}  // namespace librednn::bench
