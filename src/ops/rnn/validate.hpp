// cuDNN's rules for RNN problems that hold whatever the descriptors: types the cells compute on, sequence
// lengths in range and, for the packed layout, in descending order.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

namespace librednn {

Status validate_rnn(const RnnProblem &problem);

}  // namespace librednn
