// cuDNN's convolution algorithm enums, per direction: how many there are and their names, for
// validation, logs and the algorithm queries.
#pragma once

#include "ops/conv/problem.hpp"

namespace librednn {

// CUDNN_CONVOLUTION_FWD_ALGO_COUNT, ..._BWD_DATA_ALGO_COUNT, ..._BWD_FILTER_ALGO_COUNT.
int conv_algorithm_count(ConvDirection direction);

// "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM", ...; nullptr for values outside the enum.
const char *conv_algorithm_name(ConvDirection direction, int algorithm);

}  // namespace librednn
