// The reference reduction: naive, in double, one output element at a time. It is the specification
// the host and CUDA solvers are tested against.
#pragma once

#include "ops/reduce/problem.hpp"

namespace librednn::reference {

// Runs `problem` on host memory:
//   ADD sum, MUL product, MIN, MAX, AMAX max |a|, AVG sum / n, NORM1 sum |a|, NORM2 sqrt(sum a^2),
//   MUL_NO_ZEROS the product of the non-zero elements (1 when all are zero);
// MIN, MAX and AMAX skip NaN without propagation and return the first NaN with it (NaN when every
// element is NaN); C = alpha * result + beta * C. With indices, writes the position of the chosen
// element (row-major over the reduced dims, the first on ties) per element of C.
void reduce(const ReduceProblem &problem, const ReduceBuffers &buffers);

}  // namespace librednn::reference
