// cuDNN's rules for RNN problems that hold whatever the descriptors: types the cells compute on, sequence
// lengths in range and, for the packed layout, in descending order.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

namespace librednn {

// The network's sizes: its pseudo-layers and outputs must fit an int, each weight matrix a tensor
// descriptor's int strides (cuDNN's 2 Giga-element limit), the weight space in bytes an int64.
Status validate_rnn_network(const RnnNetwork &net);

Status validate_rnn(const RnnProblem &problem);

}  // namespace librednn
