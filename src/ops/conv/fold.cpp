// The geometry of a folded backward-data convolution (fold.hpp).
#include "ops/conv/fold.hpp"

#include <algorithm>
#include <climits>

namespace librednn {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool ConvFolding::pads_diff() const {
    for (int i = 0; i < kMaxConvSpatialDims; ++i) {
        if (diff_pad_after[i] != 0) return true;
    }
    return false;
}

bool fold_backward_data(const ConvProblem &problem, ConvFolding *folding, std::string *reason) {
    if (problem.direction != ConvDirection::backward_data) {
        *reason = "folds backward-data convolutions only";
        return false;
    }
    if (problem.spatial_dims != 2 || problem.x.nb_dims != 4) {
        *reason = "folds 2-d convolutions (4-d tensors) only, this one has " + std::to_string(problem.spatial_dims) +
                  " spatial dims";
        return false;
    }
    ConvFolding result;
    result.identity = true;
    for (int i = 0; i < problem.spatial_dims; ++i) {
        result.fold[i] = problem.stride[i];
        result.identity = result.identity && problem.stride[i] == 1;
    }
    if (result.identity) {
        for (int i = 0; i < problem.x.nb_dims; ++i) {
            result.folded_filter[i] = problem.w.dims[i];
            result.padded_diff[i] = problem.y.dims[i];
            result.folded_grad[i] = problem.x.dims[i];
        }
        *folding = result;
        return true;
    }
    if (problem.mode != CUDNN_CROSS_CORRELATION) {
        // Convolution flips the filter, which would reverse the phases' order in the folded channels:
        // no fold transform does that.
        *reason = "folds strided cross-correlations only; CUDNN_CONVOLUTION flips the filter";
        return false;
    }
    if (problem.groups != 1) {
        *reason = "folds ungrouped convolutions only; the folded channels would mix groups (" +
                  std::to_string(problem.groups) + " groups)";
        return false;
    }
    for (int i = 0; i < problem.spatial_dims; ++i) {
        if (problem.dilation[i] != 1) {
            *reason = "folds strided convolutions without dilation only; dilation " + std::to_string(i) + " is " +
                      std::to_string(problem.dilation[i]);
            return false;
        }
    }
    int64_t fold_product = 1;
    for (int i = 0; i < problem.spatial_dims; ++i) fold_product *= result.fold[i];
    const int64_t folded_channels = problem.input_channels() * fold_product;
    if (folded_channels > INT_MAX) {
        *reason =
            "the folded tensors would have " + std::to_string(folded_channels) + " channels, more than an int holds";
        return false;
    }
    result.folded_filter[0] = problem.output_channels();
    result.folded_filter[1] = folded_channels;
    result.padded_diff[0] = problem.batch();
    result.padded_diff[1] = problem.output_channels();
    result.folded_grad[0] = problem.batch();
    result.folded_grad[1] = folded_channels;
    for (int i = 0; i < problem.spatial_dims; ++i) {
        const int64_t s = result.fold[i], pad = problem.pad[i];
        const int64_t taps = ceil_div(problem.filter_extent(i), s);
        const int64_t positions =
            std::max(problem.output_extent(i) + taps - 1, ceil_div(problem.input_extent(i) + pad, s));
        const int64_t outputs = positions - taps + 1;
        result.folded_filter[i + 2] = taps;
        result.padded_diff[i + 2] = outputs;
        result.folded_grad[i + 2] = positions;
        result.filter_pad_after[i] = taps * s - problem.filter_extent(i);
        result.diff_pad_after[i] = outputs - problem.output_extent(i);
        result.grad_pad_before[i] = pad;
        result.grad_pad_after[i] = positions * s - problem.input_extent(i) - pad;
        if (positions * s > INT_MAX) {
            *reason = "the unfolded gradient would span " + std::to_string(positions * s) +
                      " positions along a dim, more than an int holds";
            return false;
        }
    }
    *folding = result;
    return true;
}

}  // namespace librednn
