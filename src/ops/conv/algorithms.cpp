// Names and counts of the convolution algorithm enums.
#include "ops/conv/algorithms.hpp"

#include "core/enum_names.gen.hpp"

namespace librednn {

int conv_algorithm_count(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
        case ConvDirection::backward_data: return CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
        case ConvDirection::backward_filter: return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
    }
    return 0;
}

const char *conv_algorithm_name(ConvDirection direction, int algorithm) {
    if (algorithm < 0 || algorithm >= conv_algorithm_count(direction)) return nullptr;
    switch (direction) {
        case ConvDirection::forward: return enum_name(static_cast<cudnnConvolutionFwdAlgo_t>(algorithm));
        case ConvDirection::backward_data: return enum_name(static_cast<cudnnConvolutionBwdDataAlgo_t>(algorithm));
        case ConvDirection::backward_filter: return enum_name(static_cast<cudnnConvolutionBwdFilterAlgo_t>(algorithm));
    }
    return nullptr;
}

}  // namespace librednn
